// torch-autograd-history, look-alikes: detached values and item() reads accumulated, values kept
// under a NoGradGuard (evaluation), accumulators that live for one step only, and gradient
// accumulation whose accumulated loss is differentiated on purpose.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

std::vector<torch::Tensor> evaluate(Net &net) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i)
    outputs.push_back(net.forward(torch::randn({4, 8}))); // no graph under the guard
  return outputs;
}

int main() {
  auto net = std::make_shared<Net>();
  torch::optim::Adam opt(net->parameters());
  torch::Tensor total = torch::zeros({});
  double running = 0;
  std::vector<torch::Tensor> losses, preds;
  std::vector<float> values;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8});
    auto y = torch::randint(0, 2, {16});
    auto out = net->forward(x);
    auto loss = torch::nn::functional::cross_entropy(out, y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.detach();                 // the advice
    losses.push_back(loss.detach());
    preds.push_back(out.argmax(1));          // indices record no history
    values.push_back(loss.item<float>());    // a host float
    running += loss.item<double>();
    std::vector<torch::Tensor> parts;        // one step only
    parts.push_back(out);
    torch::Tensor step_total = torch::zeros({});
    step_total += loss;                      // declared in the loop: dies with the step
    {
      torch::NoGradGuard guard;
      preds.push_back(net->forward(x));      // computed and stored without recording
    }
  }
  // Gradient accumulation: the micro-batch losses are summed to be differentiated once.
  for (int step = 0; step < 100; ++step) {
    torch::Tensor acc = torch::zeros({});
    std::vector<torch::Tensor> terms;
    for (int micro = 0; micro < 4; ++micro) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(torch::randn({4, 8})),
                                                       torch::randint(0, 2, {4}));
      acc += loss;
      terms.push_back(loss);
    }
    opt.zero_grad();
    (acc + torch::stack(terms).sum()).backward();
    opt.step();
  }
  // Evaluation: under a guard in a helper, and a loop that does not train (torch-eval-no-grad's).
  auto outs = evaluate(*net);
  std::vector<torch::Tensor> eval_outs;
  net->eval();
  for (int i = 0; i < 10; ++i)
    eval_outs.push_back(net->forward(torch::randn({4, 8})));
  std::cout << total.item<float>() << running << losses.size() << outs.size() << eval_outs.size() << "\n";
  return 0;
}
