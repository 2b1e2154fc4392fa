#pragma once
#include "torch_mini.h"

// Images decoded on the host as uint8 and widened to float32 there (imageToTensor(), loader.cpp);
// the training loop in train.cpp copies them to the GPU on every step.
struct Image {
  unsigned char *data;
  long rows, cols;
};
at::Tensor imageToTensor(const Image &img); // uint8 -> float32, on the host
at::Tensor readFloat(const Image &img);     // float32 data: nothing is widened
at::Tensor readAny(int i);                  // defined in no file of the project
at::Tensor lossOf(at::Tensor &gt);          // takes a non-const reference (loader.cpp)
void fill(at::Tensor &t);                   // writes t (loader.cpp)

struct Camera {
  at::Tensor image;                             // widened images only (and views of them)
  std::unordered_map<int, at::Tensor> pyramids; // widened images only
  at::Tensor depth;                             // float data
  at::Tensor mixed;                             // widened, then moved to the GPU in train.cpp
  at::Tensor plain;                             // widened, and also a float tensor never converted
  void load(const Image &img);
  at::Tensor getImage(int scale);
  at::Tensor getMaybe(int i); // a widened image, or what readAny() returns
};
