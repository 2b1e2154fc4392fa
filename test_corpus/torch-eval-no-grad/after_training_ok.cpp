// torch-eval-no-grad look-alikes of "the trained model run again after training": guarded, trained
// again afterwards, inside a loop that trains, stored for later training, another model, a helper
// that trains, a function that hands a tensor back.
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void fine_tune(std::shared_ptr<Net> model); // defined elsewhere: may train

void guarded(std::shared_ptr<Net> model, torch::optim::SGD &opt, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  {
    torch::NoGradGuard no_grad;
    std::cout << model->forward(x) << "\n";
  }
  c10::InferenceMode mode;
  std::cout << model->forward(x) << "\n";
}

// The evaluation's output is trained on afterwards.
void trained_again(std::shared_ptr<Net> model, torch::optim::SGD &opt, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  auto out = model->forward(x);
  out.sum().backward();
  opt.step();
}

// A rollout inside the loop that also trains (its outputs are the next update's inputs).
void rollout_then_update(std::shared_ptr<Net> policy, torch::optim::Adam &opt, const torch::Tensor &obs) {
  for (int iter = 0; iter < 100; ++iter) {
    for (int k = 0; k < 4; ++k) {
      opt.zero_grad();
      policy->forward(obs).mean().backward();
      opt.step();
    }
    auto act = policy->forward(obs);
    std::cout << act.argmax(1) << "\n";
  }
}

// The outputs go into a buffer that outlives the evaluation.
void stored(std::shared_ptr<Net> model, torch::optim::SGD &opt, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  outputs.push_back(model->forward(x));
  std::cout << outputs.size() << "\n";
}

// Another model after training (a frozen teacher: torch-frozen-net-grad's concern), and a helper
// called afterwards whose name says it trains.
void other_model(std::shared_ptr<Net> model, std::shared_ptr<Net> teacher, torch::optim::SGD &opt,
                 const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  std::cout << teacher->forward(x) << "\n";
}
void then_fine_tune(std::shared_ptr<Net> model, torch::optim::SGD &opt, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  std::cout << model->forward(x) << "\n";
  fine_tune(model);
}

// Hands the output back: the caller may train on it.
torch::Tensor returns_output(std::shared_ptr<Net> model, torch::optim::SGD &opt, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    model->forward(x).sum().backward();
    opt.step();
  }
  return model->forward(x);
}

int main() {
  auto model = std::make_shared<Net>();
  auto teacher = std::make_shared<Net>();
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::Adam adam(model->parameters());
  auto x = torch::randn({4, 8});
  guarded(model, sgd, x);
  trained_again(model, sgd, x);
  rollout_then_update(model, adam, x);
  stored(model, sgd, x);
  other_model(model, teacher, sgd, x);
  then_fine_tune(model, sgd, x);
  std::cout << returns_output(model, sgd, x) << "\n";
}
