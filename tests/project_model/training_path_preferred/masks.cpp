#include "masks.h"

// A mask built in float64 on the device: called by the training step (through make_masks) and
// by the decoder's token loop, which nothing calls.
torch::Tensor causal_mask(long n, torch::Device device) {
  return torch::ones({n, n}, torch::TensorOptions().device(device)).to(torch::kDouble);
}

torch::Tensor make_masks(const torch::Tensor &tgt, torch::Device device) {
  return causal_mask(tgt.size(1), device);
}
