// torch-sync-item: a search-tree node built per step from a CUDA network's output keeps host
// copies of it, made in its constructor's member initialiser list (braced and parenthesised), and
// reads item() of arithmetic on them per simulation. Every write of those members stores host
// tensors: the initialisers (`.to(kCPU)`, zeros_like of one, a factory with options that name no
// device, kept in a file-static variable), and an update of a member from itself and from a host
// tensor handed to it; a local reassigned from itself (`x = x * 2`) keeps the device of its first
// value. item() there costs no sync: nothing is reported. (The same node keeping the device
// tensor: member_init_list_host.cpp.)
#include <torch/torch.h>
#include <cmath>
#include <memory>

static auto visit_options = torch::TensorOptions{}.dtype(torch::kLong);

struct SearchNode {
  SearchNode(const torch::Tensor &prior, const torch::Tensor &legal)
      : legal_{legal.to(torch::kCPU)}, P{prior.to(torch::kCPU)}, Q(torch::zeros_like(P)),
        N{torch::zeros({P.size(0)}, visit_options)} {}

  void add_noise(float eps, const torch::Tensor &noise) { P = (1 - eps) * P + eps * noise; }

  int64_t select(float c) {
    if (first)
      return P.argmax().item().toLong();
    auto score = Q + c * P * N.sum().sqrt() / (1 + N);
    score = torch::where(legal_, score, torch::zeros_like(score) - INFINITY);
    return torch::argmax(score).item().toLong();
  }

  int64_t most_visited() {
    auto counts = N.to(torch::kFloat);
    counts = counts * 2;
    return counts.argmax().item<int64_t>();
  }

  bool first = true;
  torch::Tensor legal_, P, Q, N;
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear policy(16, 9);
  policy->to(device);
  torch::optim::Adam opt(policy->parameters());
  for (int step = 0; step < 1000; ++step) {
    torch::Tensor logits = policy->forward(torch::randn({1, 16}, device));
    auto root = std::make_shared<SearchNode>(torch::softmax(logits, 1).squeeze(0).detach(),
                                             torch::ones({9}, device).to(torch::kBool));
    root->add_noise(0.25f, torch::rand({9}));
    for (int sim = 0; sim < 64; ++sim)
      root->select(1.25f);
    torch::Tensor target = torch::one_hot(torch::tensor({root->most_visited()}, device), 9).to(torch::kFloat);
    torch::Tensor loss = -(target * torch::log_softmax(logits, 1)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
