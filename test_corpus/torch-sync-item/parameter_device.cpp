// The look-alike: one call passes a device tensor, so the parameter is not provably on the CPU.
#include <torch/torch.h>
#include <string>

std::string ids_to_text(const torch::Tensor &ids) {
  std::string s;
  for (int64_t i = 0; i < ids.size(0); ++i)
    s += std::to_string(ids[i].item<int64_t>()) + " ";
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: Tensor::item() copies the value to the host [torch-sync-item]
  return s;
}

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 4);
  net->to(device);
  std::string out;
  for (int step = 0; step < 100; ++step) {
    auto next = net(torch::randn({16, 8}, device)).argmax(1);
    out += ids_to_text(next.to(torch::kCPU));
    out += ids_to_text(next);
  }
  return out.empty();
}
