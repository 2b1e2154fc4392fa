// A 4x4 pose matrix started from the identity and filled in place on every call is scratch
// space, not a constant: hoisting it would change what the code does. The identity used as it
// is, next to it, is a constant rebuilt per call.
#include <torch/torch.h>

using torch::indexing::Slice;

struct PoseNet : torch::nn::Module {
  PoseNet() { head = register_module("head", torch::nn::Linear(12, 16)); }
  torch::Tensor forward(const torch::Tensor &rotation, const torch::Tensor &translation) {
    torch::Tensor view = torch::eye(4, rotation.options());
    view.index_put_({Slice(0, 3), Slice(0, 3)}, rotation);
    view.index_put_({Slice(0, 3), Slice(3, 4)}, translation);
    torch::Tensor flip = torch::eye(3, rotation.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: torch::eye(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
    torch::Tensor rotated = torch::matmul(rotation, flip);
    return head->forward(torch::cat({rotated.flatten(), view.index({Slice(0, 3), 3})}).unsqueeze(0));
  }
  torch::nn::Linear head{nullptr};
};

int main() {
  auto net = std::make_shared<PoseNet>();
  net->to(torch::kCUDA);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 100; ++step) {
    auto r = torch::randn({3, 3}, torch::kCUDA);
    auto t = torch::randn({3, 1}, torch::kCUDA);
    opt.zero_grad();
    net->forward(r, t).sum().backward();
    opt.step();
  }
}
