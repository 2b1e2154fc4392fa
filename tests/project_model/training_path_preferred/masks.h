#pragma once
#include "torch_mini.h"
torch::Tensor causal_mask(long n, torch::Device device);
torch::Tensor make_masks(const torch::Tensor &tgt, torch::Device device);
