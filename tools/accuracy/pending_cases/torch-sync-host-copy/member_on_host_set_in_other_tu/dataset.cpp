#include "dataset.h"

ImageSet::ImageSet(const std::string &dir) {
  (void)dir;
  images_ = torch::rand({8, 64, 64, 3}, torch::kCPU);   // stands for decoded files: host memory
  rendered_ = torch::rand({8, 64, 64, 3}, torch::kCPU); // renders read back from disk
}
