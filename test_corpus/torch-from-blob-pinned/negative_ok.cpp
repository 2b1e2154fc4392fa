// torch-from-blob-pinned look-alikes: from_blob without pinned_memory; pinned_memory(false);
// torch::empty with pinned_memory(true) (a real pinned allocation) filled from a from_blob view;
// .pin_memory() on the wrapped tensor; an options variable that is pinned on one path only (not
// provable).
#include <torch/torch.h>
#include <vector>

int main(int argc, char **) {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(8, 2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  std::vector<float> host(16 * 8, 1.0f);
  auto staging = torch::empty({16, 8}, torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true));
  auto maybe = torch::TensorOptions().dtype(torch::kFloat);
  if (argc > 1)
    maybe = maybe.pinned_memory(true);
  for (int step = 0; step < 100; ++step) {
    staging.copy_(torch::from_blob(host.data(), {16, 8}, torch::kFloat));
    auto x = staging.to(device, /*non_blocking=*/true);
    auto x2 = torch::from_blob(host.data(), {16, 8}, torch::TensorOptions().pinned_memory(false)).to(device);
    auto x3 = torch::from_blob(host.data(), {16, 8}).pin_memory().to(device, /*non_blocking=*/true);
    auto x4 = torch::from_blob(host.data(), {16, 8}, maybe).to(device);
    auto loss = model->forward(x + x2 + x3 + x4).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}
