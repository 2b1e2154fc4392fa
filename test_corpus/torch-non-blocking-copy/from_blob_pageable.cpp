// torch-non-blocking-copy: host memory wrapped with from_blob() (an environment's observations, a
// reward vector) and copied to the device on every step is a pageable copy: the host blocks on it.
// Also through a view and a local that holds the wrapper all along.
// Look-alikes (quiet): non_blocking set (torch-from-blob-pinned's domain when the options claim
// pinned memory), a dtype conversion or a copy to the CPU, a wrapper made and uploaded once before
// the loop, a wrapper of device memory (the options name the device).
#include <torch/torch.h>
#include <vector>

std::vector<float> observe(int envs);
float *device_scratch();

int main() {
  torch::Device device(torch::kCUDA);
  const int envs = 16;
  torch::nn::Linear policy(8, 4);
  policy->to(device);
  torch::optim::Adam opt(policy->parameters(), 3e-4);
  std::vector<float> table(8, 0.5f);
  auto constants = torch::from_blob(table.data(), {1, 8}).to(device); // once, before the loop: quiet
  for (int step = 0; step < 100000; ++step) {
    std::vector<float> obs = observe(envs);
    auto x = torch::from_blob(obs.data(), {envs, 8}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: host memory wrapped with from_blob() copied to the device without non_blocking [torch-non-blocking-copy]
    std::vector<float> rewards(envs, 1.0f);
    auto wrapped = torch::from_blob(rewards.data(), {envs});
    auto r = wrapped.view({envs, 1}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: host memory wrapped with from_blob() copied to the device without non_blocking [torch-non-blocking-copy]
    auto queued = torch::from_blob(obs.data(), {envs, 8}).to(device, /*non_blocking=*/true); // quiet
    auto as_double = torch::from_blob(obs.data(), {envs, 8}).to(torch::kDouble);              // quiet
    auto host = torch::from_blob(obs.data(), {envs, 8}).to(torch::kCPU);                      // quiet
    auto on_gpu = torch::from_blob(device_scratch(), {envs, 8},
                                   torch::TensorOptions().device(torch::kCUDA)).to(device); // quiet: device memory
    auto loss = (policy(x + constants) * r).mean() + queued.sum() * 0 + on_gpu.sum() * 0;
    opt.zero_grad();
    loss.backward();
    opt.step();
    (void)as_double;
    (void)host;
  }
  return 0;
}
