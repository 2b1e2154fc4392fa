#include "node.h"

static auto count_options = at::TensorOptions().dtype(at::kLong);

HostNode::HostNode(const at::Tensor &prior) : P{prior.to(at::kCPU)}, N{torch::zeros({9}, count_options)} {}

void HostNode::add_noise(double eps, const at::Tensor &noise) { P = P * (1 - eps) + noise * eps; }

DeviceNode::DeviceNode(const at::Tensor &prior) : P{prior} {}
