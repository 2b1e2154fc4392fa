// Device provenance through tuples and user functions (issue 25): reads of tensors that are
// provably on the CPU are plain memory reads, not syncs. Each was reported before, with a message
// saying the read blocks until the GPU has finished: a tensor of the tuple a libtorch call on CPU
// tensors returns (std::get, a structured binding), and the result of a user function whose every
// return statement returns a CPU tensor. The look-alikes are in provenance_returns.cpp.
#include <torch/torch.h>
#include <iostream>
#include <tuple>

torch::Tensor to_host(const torch::Tensor &t) { return t.cpu(); }

torch::Tensor host_scores(const torch::Tensor &logits, bool probabilities) {
  if (probabilities)
    return torch::softmax(logits.to(torch::kCPU), 1);
  return logits.cpu();
}

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 4);
  net->to(device);
  float s = 0;
  for (int step = 0; step < 100; ++step) {
    auto out = net(torch::randn({16, 8}, device));
    s += to_host(out)[0][0].item<float>();
    s += host_scores(out, step % 2 == 0)[1][2].item<float>();
    auto [values, indices] = torch::max(out.cpu(), 1);
    for (int64_t i = 0; i < indices.size(0); ++i)
      s += indices[i].item<int64_t>() + values[i].item<float>();
    s += std::get<0>(out.cpu().sort(1))[0][0].item<float>();
  }
  std::cout << s << "\n";
}
