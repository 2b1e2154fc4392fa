#include "agent.h"

QNet::QNet() { fc = register_module("fc", std::make_shared<torch::nn::LinearImpl>(8, 4)); }

at::Tensor QNet::forward(const at::Tensor &x) { return fc->forward(x); }

int Agent::act(const at::Tensor &obs) {
  at::Tensor q = net_.forward(obs);
  return q.sum().item<int>(); // the action must reach the host environment
}

at::Tensor Agent::loss(const at::Tensor &obs, const at::Tensor &target) {
  return torch::nn::functional::mse_loss(net_.forward(obs), target);
}
