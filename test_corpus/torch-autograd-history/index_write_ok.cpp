// torch-autograd-history: look-alikes of index_write.cpp that keep no history. The loss written
// detached; predictions (argmax: no gradient); a buffer rebuilt at every step; a sequence's outputs
// written step by step and then trained through (backward goes through the buffer: that history
// is needed).
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto net = std::make_shared<Net>();
  torch::optim::SGD opt(net->parameters(), 0.01);
  torch::Tensor losses = torch::zeros({1000});
  torch::Tensor preds = torch::zeros({1000, 64}, torch::kLong);
  for (int64_t step = 0; step < 1000; ++step) {
    torch::Tensor x = torch::randn({64, 8}), y = torch::randint(0, 4, {64});
    torch::Tensor out = net->forward(x);
    torch::Tensor loss = torch::nn::functional::cross_entropy(out, y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    losses.index_put_({step}, loss.detach());
    preds[step] = out.argmax(1);
    torch::Tensor window = torch::zeros({4});
    window[0] = loss;
    torch::Tensor seq = torch::zeros({16, 64, 4});
    for (int64_t t = 0; t < 16; ++t)
      seq[t] = net->forward(x);
    torch::Tensor seq_loss = seq.pow(2).mean();
    opt.zero_grad();
    seq_loss.backward();
    opt.step();
  }
}
