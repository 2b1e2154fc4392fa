#pragma once
#include "torch_mini.h"

// Prints the loss: a host read of a device tensor.
void report(const at::Tensor &loss);
