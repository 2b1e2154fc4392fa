#include "dataset.h"

at::Tensor decode(const std::string &file);

// Runs once over the files: a loading loop, not a training step, although it loops.
void load(Dataset &data) {
  for (int i = 0; i < 1000; ++i) {
    at::Tensor image = decode(data.files[i]);
    if (image.numel() == 0)
      continue;
    float peak = image.sum().item<float>(); // once per file, at start-up: not reported
    if (peak > 0)
      data.images.push_back(image);
  }
}

// Reads the field another function filled; called once, before training.
float pixel_mean(const Dataset &data) {
  float total = 0;
  for (const at::Tensor &image : data.images)
    total += image.mean().item<float>(); // once per image, at start-up: not reported
  return total / data.images.size();
}
