// torch-eval-no-grad look-alikes of eval_region_in_trainer.cpp: functions that train and call
// eval(). Fine-tuning in eval mode (BatchNorm statistics frozen) that back-propagates after eval();
// validation under NoGradGuard; an evaluation region that calls a helper which trains; eval()
// whose region has no forward().
#include <torch/torch.h>

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(32, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void adapt(std::shared_ptr<Classifier> net, torch::optim::Optimizer &opt, const torch::Tensor &x, const torch::Tensor &y) {
  auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
  opt.zero_grad();
  loss.backward();
  opt.step();
}

void fit(std::shared_ptr<Classifier> net, const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int epoch = 0; epoch < 20; ++epoch) {
    net->eval(); // frozen BatchNorm statistics: still training
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    net->eval();
    {
      torch::NoGradGuard no_grad;
      for (size_t i = 0; i < xs.size(); ++i)
        std::cout << net->forward(xs[i]).argmax(1).eq(ys[i]).sum() << "\n";
    }
    net->train();
  }
  net->eval();
  for (size_t i = 0; i < xs.size(); ++i) {
    std::cout << net->forward(xs[i]).argmax(1) << "\n";
    adapt(net, opt, xs[i], ys[i]); // test-time adaptation: trains in the region
  }
  net->eval();
  std::cout << "done\n";
}

int main() {
  auto net = std::make_shared<Classifier>();
  std::vector<torch::Tensor> xs(8, torch::randn({16, 32})), ys(8, torch::randint(0, 10, {16}));
  fit(net, xs, ys);
}
