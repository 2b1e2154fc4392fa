// A helper's tensor parameter lives where every call in the TU puts it: here each call passes a
// copy made with .to(torch::kCPU) (or .cpu()), so the helper's item() reads host memory.
#include <torch/torch.h>
#include <string>

std::string ids_to_text(const torch::Tensor &ids) {
  std::string s;
  for (int64_t i = 0; i < ids.size(0); ++i)
    s += std::to_string(ids[i].item<int64_t>()) + " ";
  return s;
}

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 4);
  net->to(device);
  std::string out;
  for (int step = 0; step < 100; ++step) {
    auto logits = net(torch::randn({16, 8}, device));
    auto next = logits.argmax(1);
    out += ids_to_text(next.to(torch::kCPU));
    out += ids_to_text(next.cpu());
  }
  return out.empty();
}
