#pragma once
#include "torch_mini.h"

// Outputs of a value head, built by the network on every forward pass in train.cpp. Their
// constructors turn the numbers they are given into tensors: a constant only if every call
// passes constants, which no one file shows.
struct ValueSupport {
  ValueSupport(const at::Tensor &logits, float lo, float hi);
  at::Tensor logits, atoms;
};

struct Scaled {
  Scaled(const at::Tensor &x, float scale);
  at::Tensor factor;
};
