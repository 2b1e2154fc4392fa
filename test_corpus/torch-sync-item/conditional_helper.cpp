// A helper called only under a run-time branch of the loop body (`if (should_prune(step))`) does
// not run on every iteration: the message says it is called in the loop, not "on every iteration".
// A helper called both under a branch and on every iteration is explained by the latter.
// net->weight's device is not tracked through the module's to(device): the first message hedges.
#include <torch/torch.h>

bool should_prune(int step);

float prune_stats(const torch::Tensor &w) { return w.abs().sum().item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:66: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in prune_stats(), called in the loop in main() at line 21) [torch-sync-item]

float read_loss(const torch::Tensor &loss) { return loss.item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in read_loss(), called on every iteration of the loop in main() at line 21) [torch-sync-item]

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  float kept = 0, last = 0;
  for (int step = 0; step < 1000; ++step) {
    auto loss = net(torch::randn({16, 8}, device)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (should_prune(step))
      kept += prune_stats(net->weight);
    if (should_prune(step))
      last = read_loss(loss);
    last += read_loss(loss);
  }
  return kept + last > 0;
}
