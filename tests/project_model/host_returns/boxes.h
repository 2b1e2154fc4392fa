#pragma once
#include "torch_mini.h"

// Box decoding (boxes.cpp), read value by value in train.cpp's loss. Whether a read of a result
// waits for the GPU depends on what the function returns in the other file.
at::Tensor decodeOnHost(const at::Tensor &deltas);   // returns a host copy
at::Tensor decodeOnDevice(const at::Tensor &deltas); // returns a GPU copy

// A grid built once on the host; grid() returns the field (a return that rests on a field).
struct AnchorCache {
  AnchorCache();
  at::Tensor grid() const;
  at::Tensor grid_;
};

// Scores kept in a field that the step fills with GPU tensors: best() is not host.
struct ScoreBoard {
  void record(const at::Tensor &s);
  at::Tensor best() const;
  at::Tensor last_;
};
