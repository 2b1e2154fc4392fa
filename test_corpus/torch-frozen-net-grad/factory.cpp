// torch-frozen-net-grad on a member assigned from a factory function of the user's: a function
// defined here whose every return is a module it builds (directly, or a local it built and moved
// to the device) makes a fresh module, the class's own, as much as `Net(...)` would. A teacher
// built that way and given to no optimizer is reported. (Factories that return a module they
// were handed, or one kept elsewhere: factory_ok.cpp.)
#include <torch/torch.h>
#include <memory>

torch::nn::Sequential mlp(int64_t in, int64_t hidden, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(), torch::nn::Linear(hidden, out));
}

torch::nn::Sequential mlpOn(int64_t in, int64_t out, torch::Device device) {
  auto net = torch::nn::Sequential(torch::nn::Linear(in, out), torch::nn::Tanh());
  net->to(device);
  return net;
}

struct Distillation {
  torch::nn::Sequential teacher{nullptr}, critic{nullptr}, student{nullptr};
  std::unique_ptr<torch::optim::Adam> opt;

  explicit Distillation(torch::Device device) {
    teacher = mlp(32, 128, 10);
    critic = mlpOn(32, 10, device);
    student = mlp(32, 16, 10);
    opt = std::make_unique<torch::optim::Adam>(student->parameters(), torch::optim::AdamOptions(1e-3));
  }

  void step(const torch::Tensor &x) {
    torch::Tensor soft = torch::softmax(teacher->forward(x), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'teacher' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; set requires_grad_(false) on its parameters once (`for (auto& p : teacher->parameters()) p.requires_grad_(false);`); torch::NoGradGuard around the call is right only if no gradient must flow through it to its input (in Distillation::step(), called on every iteration of the loop in main() at line 45) [torch-frozen-net-grad]
    torch::Tensor margin = critic->forward(x).detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'critic' is a network whose parameters are in no optimizer, run in the training step with autograd on: its output is detached, so backward() never reaches it, but its parameters require gradients, so autograd records its graph and saves its activations in forward for nothing; run it under torch::NoGradGuard (nothing recorded; the .detach() is then unneeded), or set requires_grad_(false) on its parameters once (`for (auto& p : critic->parameters()) p.requires_grad_(false);`) (in Distillation::step(), called on every iteration of the loop in main() at line 45) [torch-frozen-net-grad]
    torch::Tensor loss = torch::kl_div(torch::log_softmax(student->forward(x), 1), soft, at::Reduction::Mean) +
                         margin.mean();
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
};

int main() {
  Distillation d(torch::kCPU);
  for (int i = 0; i < 1000; ++i)
    d.step(torch::randn({64, 32}));
}
