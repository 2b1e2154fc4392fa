// torch-sync-item, negative: look-alikes of stepping agents through their base class.
// - Evaluator::score() is virtual, but the loop calls the base's own version by its qualified
//   name (`Evaluator::score(x)`), which never dispatches: the override is called once, after
//   training.
// - Reporter::report() overrides a method that is only called outside any loop.
// - Tracker::observe() has the name of Agent's virtual but overrides nothing of it (an unrelated
//   class): the loop's dispatch does not reach it.
#include <torch/torch.h>
#include <memory>

struct Agent {
  virtual ~Agent() = default;
  virtual float observe(const torch::Tensor &obs) { return obs.sum().item<float>() > 0 ? 1.0f : 0.0f; }
};

struct Evaluator {
  virtual ~Evaluator() = default;
  virtual float score(const torch::Tensor &x) { return static_cast<float>(x.numel()); }
};

struct DeviceEvaluator : Evaluator {
  float score(const torch::Tensor &x) override { return x.to(torch::kCUDA).mean().item<float>(); }
};

struct Reporter {
  virtual ~Reporter() = default;
  virtual void report(const torch::Tensor &w) = 0;
};

struct NormReporter : Reporter {
  void report(const torch::Tensor &w) override { last = w.to(torch::kCUDA).norm().item<float>(); }
  float last = 0;
};

struct Tracker {
  float observe(const torch::Tensor &obs) { return obs.to(torch::kCUDA).max().item<float>(); }
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  DeviceEvaluator eval;
  std::unique_ptr<Reporter> reporter = std::make_unique<NormReporter>();
  Tracker tracker;
  float size = 0;
  for (int t = 0; t < 1000; ++t) {
    auto x = torch::randn({16, 8}, device);
    auto loss = net->forward(x).square().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    size += eval.Evaluator::score(x);
  }
  reporter->report(net->weight);
  float last = eval.score(net->weight) + tracker.observe(net->weight);
  return size + last > 0;
}
