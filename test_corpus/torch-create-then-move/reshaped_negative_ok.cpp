// Look-alikes of a reshaped factory moved to the device (reshaped_factory.cpp), none reported:
// a method that drops elements (made on the device, the whole tensor would be allocated there),
// a reshape of a tensor that is not a fresh factory's, an upload of host data, and .to(dtype).
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto head = torch::zeros({1000}).narrow(0, 0, 10).to(device);
  auto first = torch::ones({8, 4}).select(0, 0).to(device);
  auto x = torch::randn({4, 4}, device);
  auto flat = x.view({-1}).to(device);
  std::vector<float> host(16, 1.f);
  auto up = torch::from_blob(host.data(), {16}).view({4, 4}).to(device);
  auto f = torch::rand({1, 4}, device).squeeze(0).to(torch::kHalf);
  return static_cast<int>((head.sum() + first.sum() + flat.sum() + up.sum() + f.sum()).item<float>());
}
