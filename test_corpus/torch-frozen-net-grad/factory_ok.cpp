// torch-frozen-net-grad: members assigned from functions that return a module they were handed,
// or one kept elsewhere (a registry, a global that the caller's optimizer holds), or a local
// reassigned from one before it is returned, are not the
// class's own: code elsewhere may train them. Nothing here is reported. (A factory that builds
// its module: factory.cpp.)
#include <torch/torch.h>
#include <map>
#include <memory>
#include <string>

torch::nn::Sequential shared_body{nullptr};

torch::nn::Sequential lookup(const std::string &name, std::map<std::string, torch::nn::Sequential> &registry) {
  return registry.at(name);
}

torch::nn::Sequential onDevice(torch::nn::Sequential net, torch::Device device) {
  net->to(device);
  return net;
}

torch::nn::Sequential body() { return shared_body; }

// Builds a module, then returns the one it was handed instead.
torch::nn::Sequential reuse(torch::nn::Sequential given) {
  auto net = torch::nn::Sequential(torch::nn::Linear(8, 8));
  net = given;
  return net;
}

struct Finetune {
  torch::nn::Sequential head{nullptr}, encoder{nullptr}, trunk{nullptr}, adapter{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;

  Finetune(std::map<std::string, torch::nn::Sequential> &registry, torch::nn::Sequential given) {
    head = lookup("head", registry);
    encoder = onDevice(given, torch::kCPU);
    trunk = body();
    adapter = reuse(given);
    opt = std::make_unique<torch::optim::SGD>(head->parameters(), torch::optim::SGDOptions(0.1));
  }

  void step(const torch::Tensor &x, const torch::Tensor &y) {
    torch::Tensor loss = torch::mse_loss(head->forward(trunk->forward(adapter->forward(encoder->forward(x)))), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
};

int main() {
  shared_body = torch::nn::Sequential(torch::nn::Linear(8, 8));
  torch::nn::Sequential enc(torch::nn::Linear(8, 8));
  std::map<std::string, torch::nn::Sequential> registry{{"head", torch::nn::Sequential(torch::nn::Linear(8, 1))}};
  torch::optim::SGD shared_opt({shared_body->parameters(), enc->parameters()}, torch::optim::SGDOptions(0.01));
  Finetune f(registry, enc);
  for (int i = 0; i < 100; ++i) {
    f.step(torch::randn({4, 8}), torch::randn({4, 1}));
    shared_opt.step();
  }
}
