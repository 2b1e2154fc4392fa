#include "masks.h"

// A greedy decoder kept for later use: no program calls it.
torch::Tensor greedy(torch::nn::Linear &model, torch::Tensor memory, long steps, torch::Device device) {
  torch::Tensor out = memory;
  for (long i = 1; i < steps; ++i) {
    torch::Tensor mask = causal_mask(i, device);
    out = model->forward(out) + mask.sum();
  }
  return out;
}
