#pragma once
#include "torch_mini.h"

// A scene loaded once: the images stay in host memory (a batch is gathered from them and copied
// per step), the camera poses live on the GPU. Filled by scene.cpp, read by train.cpp.
struct Scene {
  at::Tensor images;                // host: stacked from images read with .to(kCPU)
  std::vector<at::Tensor> exposure; // host: one scalar tensor per image
  at::Tensor poses;                 // GPU
  at::Tensor depth;                 // host here, moved to the GPU in train.cpp
  void load(int n);
};
