// torch-sync-item: a batched physics simulator stepped on the GPU, per step of a CUDA training loop.
// Its state is split into columns, advanced through a dozen locals that refer to each other
// (position from velocity, velocity from acceleration, acceleration from the angle and the
// force...), and checked with any().item() for terminal states. Every local is made from the
// device state and device pushes: item() waits for the GPU on every step, however long the
// chain: reported. (The same simulator on the host: physics_step_locals_ok.cpp.)
#include <torch/torch.h>

using torch::indexing::Slice;

struct Simulator {
  torch::Tensor step(const torch::Tensor &state, const torch::Tensor &push) const {
    auto x = state.index({Slice(), 0});
    auto v = state.index({Slice(), 1});
    auto theta = state.index({Slice(), 2});
    auto omega = state.index({Slice(), 3});
    auto steps = state.index({Slice(), 4});
    auto force = torch::where(push > 0, torch::full_like(push, 10.0f), torch::full_like(push, -10.0f));
    auto temp = (force + 0.05f * omega.square() * theta.sin()) / 1.1f;
    auto alpha = (9.8f * theta.sin() - theta.cos() * temp) / (0.5f * (4.0f / 3.0f - 0.1f * theta.cos().square() / 1.1f));
    auto a = temp - 0.05f * alpha * theta.cos() / 1.1f;
    x = x + 0.02f * v;
    v = v + 0.02f * a;
    theta = theta + 0.02f * omega;
    omega = omega + 0.02f * alpha;
    auto done = (x.abs() > 2.4f).logical_or(theta.abs() > 0.21f).logical_or(steps + 1 >= limit);
    if (done.all().item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` (`ok` a bool tensor, true when valid: nothing waits, and a failure is raised at a later synchronization), or run the check every N steps or in debug builds only (in Simulator::step(), called on every iteration of the loop in main() at line 42) [torch-sync-item]
      throw std::runtime_error("every environment is done");
    return torch::stack({x, v, theta, omega, steps + 1}, 1);
  }
  int64_t limit = 200;
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear policy(5, 1);
  policy->to(device);
  torch::optim::Adam opt(policy->parameters());
  Simulator sim;
  torch::Tensor state = torch::zeros({64, 5}, device);
  for (int t = 0; t < 10000; ++t) {
    torch::Tensor value = policy->forward(torch::randn({64, 5}, device));
    torch::Tensor loss = value.square().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    state = sim.step(state, torch::rand({64}, device) - 0.5f);
  }
}
