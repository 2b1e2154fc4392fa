// A batch of 4x4 transforms started from the identity repeated per batch element, then filled in
// place (rotation block, translation column) on every call: per-call scratch built through a
// method chain on the factory, not a constant. A buffer holding eye(4) would still need the
// repeat() copy, so hoisting changes nothing worth a warning. The look-alike beside it, the same
// repeated identity only read (added to the output), is a constant rebuilt per call: reported.
#include <torch/torch.h>

using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

struct PoseRefiner : torch::nn::Module {
  PoseRefiner() { embed = register_module("embed", torch::nn::Embedding(64, 9)); }
  torch::Tensor forward(const torch::Tensor &poses, const torch::Tensor &ids) {
    auto bs = poses.size(0);
    auto delta = embed->forward(ids);
    auto transform = torch::eye(4, poses.options()).repeat({bs, 1, 1});
    transform.index_put_({Ellipsis, Slice(None, 3), Slice(None, 3)}, delta.index({Ellipsis, Slice(3, None)}).view({bs, 3, 2}).matmul(torch::ones({2, 3}, poses.options())));
    transform.index_put_({Ellipsis, Slice(None, 3), 3}, delta.index({Ellipsis, Slice(None, 3)}));
    auto identity = torch::eye(4, poses.options()).repeat({bs, 1, 1});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: torch::eye(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
    return torch::matmul(poses, transform) + identity;
  }
  torch::nn::Embedding embed{nullptr};
};

int main() {
  auto net = std::make_shared<PoseRefiner>();
  net->to(torch::kCUDA);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 100; ++step) {
    auto poses = torch::randn({8, 4, 4}, torch::kCUDA);
    auto ids = torch::randint(0, 64, {8}, torch::TensorOptions(torch::kCUDA).dtype(torch::kLong));
    opt.zero_grad();
    net->forward(poses, ids).sum().backward();
    opt.step();
  }
}
