#pragma once
#include "torch_mini.h"
torch::Tensor schedule(long n, double lo, double hi, torch::Device device);
