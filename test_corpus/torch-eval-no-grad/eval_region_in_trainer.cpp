// torch-eval-no-grad: one function trains and evaluates. Inside the epoch loop, eval() and a
// validation pass over a loader with gradient recording on (the next iteration's train() ends
// the evaluation); after the loop, eval() and a test pass (the after-training rule's shape, reported
// at its forward()). Each evaluation region needs no gradients, so autograd records graphs and saves activations for nothing, although the function
// itself calls backward(). (Look-alikes: eval_region_in_trainer_ok.cpp.)
#include <torch/torch.h>

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(32, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void fit(std::shared_ptr<Classifier> net, const std::vector<torch::Tensor> &train_x, const std::vector<torch::Tensor> &train_y,
         const std::vector<torch::Tensor> &val_x, const std::vector<torch::Tensor> &val_y) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int epoch = 0; epoch < 20; ++epoch) {
    net->train();
    for (size_t i = 0; i < train_x.size(); ++i) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(train_x[i]), train_y[i]);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    net->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: module evaluated after eval() with gradient recording on: forward() at line 29 saves every activation for a backward() that never comes; add `torch::NoGradGuard no_grad;` (or c10::InferenceMode) to the evaluation scope [torch-eval-no-grad]
    torch::Tensor correct = torch::zeros({}, torch::kLong);
    for (size_t i = 0; i < val_x.size(); ++i)
      correct += net->forward(val_x[i]).argmax(1).eq(val_y[i]).sum();
  }
  net->eval();
  for (size_t i = 0; i < val_x.size(); ++i)
    std::cout << net->forward(val_x[i]).argmax(1) << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model trained by the loop at line 17 runs forward() again after training [torch-eval-no-grad]
}

int main() {
  auto net = std::make_shared<Classifier>();
  std::vector<torch::Tensor> tx(8, torch::randn({16, 32})), ty(8, torch::randint(0, 10, {16}));
  fit(net, tx, ty, tx, ty);
}
