#include "model.h"

at::Tensor GraphNet::forward(const at::Tensor &nodes, torch::optional<at::Tensor> batch) {
  at::Tensor energy = nodes * weight;
  if (batch.has_value()) {
    // Never runs in this project: every call leaves the batch out. Quiet.
    long graphs = batch.value().sum().item<long>();
    return energy * graphs;
  }
  return energy.sum();
}

at::Tensor GraphNet::readout(const at::Tensor &nodes, c10::optional<at::Tensor> batch) {
  at::Tensor energy = nodes * weight;
  if (batch) {
    // The trainer passes a batch vector: reported.
    long graphs = batch->sum().item<long>();
    return energy * graphs;
  }
  return energy.sum();
}

at::Tensor GraphNet::shifted(const at::Tensor &nodes, c10::optional<at::Tensor> batch) {
  if (!batch) {
    // Runs on every step: the trainer passes {} (an empty optional). Reported.
    long count = nodes.sum().item<long>();
    return nodes * count;
  }
  return nodes;
}
