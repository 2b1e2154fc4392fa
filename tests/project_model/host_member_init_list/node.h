#pragma once
#include "torch_mini.h"

// A search-tree node, built per step from the network's output, defined in node.cpp, searched in
// search.cpp. HostNode keeps host copies of what it is handed (its member initialiser list in
// node.cpp), DeviceNode keeps the device tensor itself.
struct HostNode {
  explicit HostNode(const at::Tensor &prior);
  void add_noise(double eps, const at::Tensor &noise);
  at::Tensor P, N;
};

struct DeviceNode {
  explicit DeviceNode(const at::Tensor &prior);
  at::Tensor P;
};
