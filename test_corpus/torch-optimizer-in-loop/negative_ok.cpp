// torch-optimizer-in-loop, look-alikes: an optimizer built once before the epoch loop; a
// stateless SGD (no momentum) rebuilt per epoch; an optimizer rebuilt per fold of a
// cross-validation (the fold loop contains the epoch loop); an optimizer rebuilt together with its
// model in a hyper-parameter sweep; an optimizer over a per-sample input (an adversarial example);
// a unit test.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

void run_epochs(std::shared_ptr<Net> net, torch::optim::Optimizer &opt) {
  for (int epoch = 0; epoch < 5; ++epoch)
    for (int step = 0; step < 100; ++step) {
      auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
}

int main() {
  auto net = std::make_shared<Net>();
  torch::optim::Adam once(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &group : once.param_groups())
      static_cast<torch::optim::AdamOptions &>(group.options()).lr(1e-3 * std::pow(0.9, epoch));
    for (int step = 0; step < 100; ++step) {
      auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
      once.zero_grad();
      loss.backward();
      once.step();
    }
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    torch::optim::SGD plain(net->parameters(), 0.01 / (1 + epoch)); // no momentum: no state lost
    torch::optim::SGD zero(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.0));
    for (int step = 0; step < 100; ++step) {
      auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
      plain.zero_grad();
      loss.backward();
      plain.step();
      zero.step();
    }
  }
  // Cross-validation: one optimizer per fold, each trained for several epochs.
  for (int fold = 0; fold < 5; ++fold) {
    torch::optim::Adam opt(net->parameters());
    for (int epoch = 0; epoch < 10; ++epoch)
      for (int step = 0; step < 100; ++step) {
        auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
        opt.zero_grad();
        loss.backward();
        opt.step();
      }
  }
  for (int fold = 0; fold < 5; ++fold) {
    auto fresh = std::make_shared<Net>();
    torch::optim::Adam opt(fresh->parameters());
    run_epochs(fresh, opt);
  }
  // A sweep: model and optimizer built together, one epoch each.
  for (double lr : {1e-2, 1e-3, 1e-4}) {
    auto model = std::make_shared<Net>();
    torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(lr));
    for (int step = 0; step < 100; ++step) {
      auto loss = model->forward(torch::randn({16, 8})).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  // An adversarial example per sample: the optimizer is over the sample's own tensor.
  for (int sample = 0; sample < 10; ++sample) {
    auto delta = torch::zeros({1, 8}, torch::requires_grad());
    torch::optim::Adam attack({delta}, torch::optim::AdamOptions(0.01));
    for (int it = 0; it < 20; ++it) {
      auto loss = -net->forward(delta).sum();
      attack.zero_grad();
      loss.backward();
      attack.step();
    }
  }
  return 0;
}
