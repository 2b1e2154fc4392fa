#pragma once
#include "torch_mini.h"

// Images read once at start-up, kept on the CPU until a batch is copied to the GPU.
struct Dataset {
  std::vector<at::Tensor> images;
  std::vector<std::string> files;
};

void load(Dataset &data);
float pixel_mean(const Dataset &data);
