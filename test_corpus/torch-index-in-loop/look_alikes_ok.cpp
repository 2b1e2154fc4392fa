// Clean: loops that only look like per-element tensor indexing: accessor<> and data_ptr loops on
// CPU tensors, indexing a std::vector<Tensor>, a small constant trip count, tensors provably on
// the CPU, a loop that runs once in set-up code.
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  // Set-up: the loop runs once, not on every step.
  auto table = torch::empty({1000, 16}, device);
  for (int64_t i = 0; i < table.size(0); ++i)
    table[i].fill_(static_cast<double>(i));
  std::vector<torch::Tensor> shards(8, torch::ones({4}, device));
  for (int step = 0; step < 100; ++step) {
    // accessor<> of a CPU tensor: host reads, no dispatch.
    auto host = torch::rand({64, 64});
    auto a = host.accessor<float, 2>();
    float s = 0;
    for (int64_t i = 0; i < host.size(0); ++i)
      for (int64_t j = 0; j < host.size(1); ++j)
        s += a[i][j];
    // data_ptr loop.
    float *p = host.data_ptr<float>();
    for (int64_t i = 0; i < host.numel(); ++i)
      p[i] *= 2;
    // std::vector<Tensor> indexing: not tensor indexing.
    torch::Tensor total = torch::zeros({4}, device);
    for (size_t k = 0; k < shards.size(); ++k)
      total += shards[k];
    // A small constant trip count: three channels.
    auto img = torch::rand({3, 32, 32}, device);
    for (int c = 0; c < 3; ++c)
      img[c] = (img[c] - 0.5) / 0.25;
    // A tensor provably on the CPU.
    auto cpu = torch::zeros({100});
    for (int64_t i = 0; i < cpu.size(0); ++i)
      cpu[i] = static_cast<double>(i) * s;
    (void)total;
  }
}
