// Folder case (three files, one project): the data set keeps its images in a member that dataset.cpp
// fills with host tensors; runner.cpp reads that member. Only the project model (issue 23: devices of
// struct and class fields across files) can know the member is on the host.
#pragma once
#include <torch/torch.h>
#include <string>

struct ImageSet {
  explicit ImageSet(const std::string &dir);
  torch::Tensor images_;   // [N, H, W, 3], float, on the host (see dataset.cpp)
  torch::Tensor rendered_; // [N, H, W, 3], renders saved earlier, on the host
  int64_t count() const { return images_.size(0); }
};
