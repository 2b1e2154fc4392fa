#include <torch/torch.h>
struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 4};
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({4}).cuda();
    if (x.sum().item<float>() > 0) x = x * mask;
    return fc->forward(x);
  }
};
void log_loss(const torch::Tensor &loss, int step) {
  if (step % 100 == 0) std::cout << loss.item<double>();
}
void train_step(NetImpl &net, torch::optim::SGD &opt, torch::data::Example<> &b, int step) {
  opt.zero_grad();
  auto loss = torch::nn::functional::mse_loss(net.forward(b.data), b.target);
  loss.backward();
  opt.step();
  log_loss(loss, step);
}
int main() {
  NetImpl net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  torch::data::DataLoader loader;
  int step = 0;
  for (auto &batch : loader) train_step(net, opt, batch, step++);
  auto once = torch::rand({10}).cuda();  // setup: runs once
  float f = once.sum().item<float>();
}
