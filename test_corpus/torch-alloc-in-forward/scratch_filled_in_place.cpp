// A 4x4 pose matrix started from the identity and filled in place on every call is scratch
// space, not a constant: hoisting it would change what the code does. The identity used as it
// is, next to it, is a constant rebuilt per call. Writes through views count the same
// (`m.slice(0, 0, 3).slice(1, 0, 3).copy_(r)`, `m.select(1, 3).copy_(t)`, `m[3][3] = s`): a
// camera's world-to-view matrix built per view in a splatting trainer. Reading a view of the
// constant (`flip.slice(0, 0, 2)`) or rebinding the variable writes nothing into it.
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

torch::Tensor world_to_view(const torch::Tensor &R, const torch::Tensor &t, float s,
                            const torch::TensorOptions &opts) {
  torch::Tensor Rt = torch::eye(4, opts);
  Rt.slice(0, 0, 3).slice(1, 0, 3).copy_(R.transpose(0, 1));
  Rt.slice(0, 0, 3).select(1, 3).copy_(t);
  torch::Tensor scaled = torch::eye(4, opts);
  scaled[3][3] = s;
  torch::Tensor flip = torch::eye(4, opts);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: torch::eye(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
  torch::Tensor top = flip.slice(0, 0, 2);
  flip = flip * 2;
  return torch::matmul(torch::matmul(Rt, scaled), flip) + top.sum();
}

int main() {
  auto net = std::make_shared<PoseNet>();
  net->to(torch::kCUDA);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 100; ++step) {
    auto r = torch::randn({3, 3}, torch::kCUDA);
    auto t = torch::randn({3, 1}, torch::kCUDA);
    opt.zero_grad();
    auto view = world_to_view(r, t.flatten(), 2.0f, r.options());
    (net->forward(r, t).sum() + view.sum()).backward();
    opt.step();
  }
}
