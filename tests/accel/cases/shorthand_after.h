// A project header that includes libtorch, then defines shorthands under names libtorch's own
// headers use (`None`, as a NeRF trainer's Common.h does): defined after the precompiled headers in
// the file as in the PCH, so the PCH stays exact (only macros met before a precompiled header count).
#pragma once
#include <torch/torch.h>
#define None torch::indexing::None
#define Slc torch::indexing::Slice

inline torch::Tensor firstRows(const torch::Tensor &t) { return t.index({Slc(None, 2)}); }
