// torch-eval-no-grad: the model a loop has just trained, run again after the loop (a final
// validation, a test pass, a sample) in the same function with gradient recording on.
#include <torch/torch.h>
#include <iostream>

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// Not an nn::Module: a model whose parameters are plain tensors, trained through its own forward().
struct Splats {
  torch::Tensor colors = torch::rand({64, 3}).requires_grad_();
  torch::Tensor forward(int view) { return colors * float(view + 1); }
};

void train_and_test(const torch::Tensor &x, const torch::Tensor &y, const torch::Tensor &test_x) {
  auto model = std::make_shared<Classifier>();
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      opt.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
      loss.backward();
      opt.step();
    }
  }
  auto logits = model->forward(test_x);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model trained by the loop at line 21 runs forward() again after training with gradient recording on: nothing back-propagates through it, yet autograd saves every activation; evaluate under `torch::NoGradGuard no_grad;` (or c10::InferenceMode) [torch-eval-no-grad]
  std::cout << logits.argmax(1) << std::endl; // std::endl: a member operator<< of the library, not user code
}

int fit_splats(const torch::Tensor &gt, bool validate) {
  Splats splats;
  torch::optim::SGD opt({splats.colors}, torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    torch::Tensor loss = (splats.forward(step % 4) - gt).abs().mean();
    loss.backward();
    opt.step();
  }
  if (validate) {
    torch::Tensor img = splats.forward(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the model trained by the loop at line 37 runs forward() again after training [torch-eval-no-grad]
    std::cout << "validation loss: " << (img - gt).abs().mean().item<float>() << "\n";
  }
  return 0;
}

// A test pass over batches after training: reported once, at its first forward().
void fit_then_test(torch::nn::Sequential net, const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  for (const auto &b : batches) {
    opt.zero_grad();
    net->forward(b).pow(2).mean().backward();
    opt.step();
  }
  net->eval();
  double total = 0;
  for (const auto &b : batches) {
    auto out = net->forward(b);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model trained by the loop at line 54 runs forward() again after training [torch-eval-no-grad]
    total += out.sum().item<double>();
  }
  std::cout << total << "\n";
}

// The test pass reuses the training loop's locals (`output = net->forward(x);`): they die with the
// function and nothing trains after them.
void fit_then_test_reusing(torch::nn::Sequential net, const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  torch::Tensor output, loss;
  for (const auto &b : batches) {
    output = net->forward(b);
    loss = output.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  net->eval();
  double total = 0;
  for (const auto &b : batches) {
    output = net->forward(b);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model trained by the loop at line 74 runs forward() again after training [torch-eval-no-grad]
    loss = output.pow(2).mean();
    total += loss.item<double>();
  }
  std::cout << total << "\n";
}

int main() {
  auto x = torch::randn({32, 16});
  auto y = torch::randint(0, 4, {32});
  train_and_test(x, y, x);
  fit_splats(torch::rand({64, 3}), true);
  fit_then_test(torch::nn::Sequential(torch::nn::Linear(16, 16)), {x, x});
  fit_then_test_reusing(torch::nn::Sequential(torch::nn::Linear(16, 16)), {x, x});
}
