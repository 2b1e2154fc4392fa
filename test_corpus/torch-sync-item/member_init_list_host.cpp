// torch-sync-item: the twin of member_init_list_host_ok.cpp whose search node keeps the device
// tensors it is handed (its member initialisers copy the CUDA network's output, or a member made
// from one), and one that mixes a device tensor into a member written from itself: item() of
// arithmetic on them waits for the GPU once per simulation, reported. (A file-static options
// variable that names a device makes its tensors device tensors too.)
#include <torch/torch.h>
#include <cmath>
#include <memory>

static auto count_options = torch::TensorOptions{}.dtype(torch::kLong).device(torch::kCUDA);

struct DeviceNode {
  DeviceNode(const torch::Tensor &prior, const torch::Tensor &legal)
      : legal_{legal}, P{prior}, Q(torch::zeros_like(P)), N{torch::zeros({P.size(0)}, count_options)} {}

  int64_t select(float c) {
    if (first)
      return P.argmax().item().toLong();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in DeviceNode::select(), called on every iteration of the loop in main() at line 52) [torch-sync-item]
    auto score = Q + c * P * N.sum().sqrt() / (1 + N);
    score = torch::where(legal_, score, torch::zeros_like(score) - INFINITY);
    return torch::argmax(score).item().toLong();
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in DeviceNode::select(), called on every iteration of the loop in main() at line 52) [torch-sync-item]
  }

  int64_t visits() { return N.sum().item<int64_t>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in DeviceNode::visits(), called on every iteration of the loop in main() at line 52) [torch-sync-item]

  bool first = true;
  torch::Tensor legal_, P, Q, N;
};

struct MixedNode {
  explicit MixedNode(const torch::Tensor &prior) : P{prior.to(torch::kCPU)} {}
  void add_noise(float eps, const torch::Tensor &noise) { P = (1 - eps) * P + eps * noise; }
  int64_t best() { return P.argmax().item().toLong(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in MixedNode::best(), called on every iteration of the loop in main() at line 52) [torch-sync-item]
  torch::Tensor P;
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear policy(16, 9);
  policy->to(device);
  torch::optim::Adam opt(policy->parameters());
  for (int step = 0; step < 1000; ++step) {
    torch::Tensor logits = policy->forward(torch::randn({1, 16}, device));
    torch::Tensor probs = torch::softmax(logits, 1).squeeze(0).detach();
    auto root = std::make_shared<DeviceNode>(probs, torch::ones({9}, device).to(torch::kBool));
    MixedNode mixed(probs);
    mixed.add_noise(0.25f, torch::rand({9}, device));
    for (int sim = 0; sim < 64; ++sim) {
      root->select(1.25f);
      root->visits();
      mixed.best();
    }
    torch::Tensor loss = -torch::log_softmax(logits, 1).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
