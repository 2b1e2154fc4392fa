// torch-index-in-loop's look-alikes of range_for_elements.cpp that stay quiet: a braced list of
// three channels and c10::irange(3) (small constant trip counts), elements that are tensors (no index), a host
// tensor written per element of a detector's boxes (no launch), and per-element writes into
// std::vectors, by an index element and by a map entry's integer key (no tensor).
#include <torch/torch.h>
#include <map>
#include <vector>

struct Box {
  float score;
  int64_t cls;
};

std::vector<Box> detect(const torch::Tensor &img);

int main() {
  torch::Device device(torch::kCUDA);
  torch::Tensor img = torch::rand({3, 64, 64}, device);
  torch::Tensor mean = torch::zeros({3}, device);
  torch::Tensor host_mask = torch::zeros({1000}, torch::kBool);
  std::vector<int64_t> order(1000);
  std::vector<float> scores(1000);
  for (int step = 0; step < 1000; ++step) {
    for (int c : {0, 1, 2})
      mean[c] = 0.5;
    for (const auto c : c10::irange(3))
      mean[c] = 0.5;
    std::vector<torch::Tensor> parts = {img, img};
    for (const torch::Tensor &p : parts)
      mean += p.mean({1, 2});
    for (const Box &b : detect(img))
      host_mask[b.cls] = true;
    for (int64_t k : order)
      scores[k] = 0.f;
    std::map<int64_t, float> table;
    for (const auto &kv : table)
      scores[kv.first] = kv.second;
  }
}
