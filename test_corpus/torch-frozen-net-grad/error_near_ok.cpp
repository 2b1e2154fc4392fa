// torch-frozen-net-grad's negatives beside error_elsewhere.cpp: code with errors that could hold
// what the finding says is absent. (1) A function with errors names the network: it may hand its
// parameters to an optimizer. (2) The training step is called from a function with errors, which
// may hold a guard around it. (3) The function with the forward call has errors itself.
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: tuner/tuner.h
#include <torch/torch.h>
#include "tuner/tuner.h"

struct MLPImpl : torch::nn::Module {
  MLPImpl(int in, int out) : fc(register_module("fc", torch::nn::Linear(in, out))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(MLP);

class Finetuner {
 public:
  Finetuner() : head_(8, 4), backbone_(8, 8), opt_(head_->parameters(), torch::optim::SGDOptions(0.01)) {}
  void unfreeze() { tuner::add_group(opt_, backbone_->parameters()); } // (1) a compiler error naming backbone_
  void step(const torch::Tensor &x, const torch::Tensor &y) {
    torch::Tensor f = backbone_->forward(x);
    torch::Tensor loss = torch::mse_loss(head_->forward(f), y);
    opt_.zero_grad();
    loss.backward();
    opt_.step();
  }

 private:
  MLP head_, backbone_;
  torch::optim::SGD opt_;
};

class Distiller {
 public:
  Distiller() : student_(8, 4), teacher_(8, 4), opt_(student_->parameters(), torch::optim::SGDOptions(0.01)) {}
  void step(const torch::Tensor &x) {
    torch::Tensor loss = torch::mse_loss(student_->forward(x), teacher_->forward(x));
    opt_.zero_grad();
    loss.backward();
    opt_.step();
  }
  void step_logged(const torch::Tensor &x) {
    tuner::Trace trace = tuner::trace("distill"); // (3) a compiler error in the function itself
    torch::Tensor loss = torch::mse_loss(student_->forward(x), teacher2_->forward(x));
    opt_.zero_grad();
    loss.backward();
    opt_.step();
  }

 private:
  MLP student_, teacher_, teacher2_{8, 4};
  torch::optim::SGD opt_;
};

void run(Distiller &d) {
  tuner::Guard g = tuner::no_grad_for("teacher"); // (2) a compiler error in the caller
  for (int i = 0; i < 100; ++i)
    d.step(torch::rand({16, 8}));
}

int main() {
  Finetuner f;
  for (int i = 0; i < 100; ++i)
    f.step(torch::rand({16, 8}), torch::rand({16, 4}));
  Distiller d;
  run(d);
  for (int i = 0; i < 100; ++i)
    d.step_logged(torch::rand({16, 8}));
}
