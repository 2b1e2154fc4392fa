// torch-eval-no-grad's after-training shape in a file with compiler errors elsewhere (issue 25):
// the finding rests on the function that trains and evaluates, and on the user functions it calls
// after the evaluation (whether they train again). A call into a missing library in another
// function, even one the training loop calls, used to silence it for the whole file (OpenSplat's
// final validation in main()): it is reported. When a function called after the evaluation has
// the error, it could hide a backward(): not reported (evaluate_then_log below). (An error in the
// evaluating function itself: error_in_function_ok.cpp.)
// (Synthesised declarations are off here, so that the calls stay compiler errors.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: tracker/tracker.h
#include <torch/torch.h>
#include "tracker/tracker.h"
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void log_loss(int step, float loss) {
  tracker::Run::current().log("loss", step, loss); // a compiler error: tracker is unknown
}

void report_loss(const torch::Tensor &loss) {
  tracker::Run::current().log("validation", loss); // a compiler error: tracker is unknown
}

int main() {
  auto model = std::make_shared<Net>();
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto x = torch::randn({16, 8}), y = torch::randn({16, 1});
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
    log_loss(step, loss.item<float>());
  }
  auto val = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model trained by the loop at line 33 runs forward() again after training with gradient recording on: nothing back-propagates through it, yet autograd saves every activation; evaluate under `torch::NoGradGuard no_grad;` (or c10::InferenceMode) [torch-eval-no-grad]
  std::cout << "validation loss: " << torch::mse_loss(val, y).item<float>() << std::endl;
}

// The validation loss goes to a function with errors after the evaluation: quiet.
void evaluate_then_log(std::shared_ptr<Net> model, const torch::Tensor &x, const torch::Tensor &y) {
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    torch::mse_loss(model->forward(x), y).backward();
    opt.step();
  }
  auto val = model->forward(x);
  report_loss(torch::mse_loss(val, y));
}

// The other two shapes say that no caller holds a guard: code with errors could be such a caller
// where it is in the function or in one that leads to it, or where it names one of them. The
// errors above (log_loss, report_loss) name neither validate() nor run_inference(), and nothing
// calls validate(): reported (issue 24: an error in an unrelated function, say a header's code
// resting on a missing library, used to silence both for the whole file; OpenSpiel's DQN action
// selection). run_inference() is called from a function with errors, which may hold a guard: quiet.
float validate(std::shared_ptr<Net> model, const torch::Tensor &x) {
  model->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: module evaluated after eval() with gradient recording on: forward() at line 66 saves every activation for a backward() that never comes; add `torch::NoGradGuard no_grad;` (or c10::InferenceMode) to the evaluation scope [torch-eval-no-grad]
  return model->forward(x).mean().item<float>();
}

void run_inference(std::shared_ptr<Net> model, const torch::Tensor &x) {
  model->eval();
  std::cout << model->forward(x).sum().item<float>() << "\n";
}

void serve(std::shared_ptr<Net> model, const torch::Tensor &x) {
  tracker::Scope guard = tracker::no_grad_scope(); // a compiler error: tracker is unknown
  run_inference(model, x);
}
