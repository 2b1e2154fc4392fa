#pragma once
#include "torch_mini.h"

// Data sets whose get() is defined in datasets.cpp: the training loops in train.cpp only see
// their declarations.
struct Store {
  std::vector<unsigned char *> images;
  std::vector<float *> depths;
  std::vector<unsigned char *> labels;
};

// uint8 images widened to float32 on the host in get(), in one chain; uint8 labels widened to
// int64 (small, and what the loss takes on the device: not reported).
class PixelSet : public torch::data::datasets::Dataset<PixelSet> {
public:
  explicit PixelSet(Store s) : store_(s) {}
  torch::data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

private:
  Store store_;
};

// The same, through a local written step by step and normalised by its own mean and deviation.
class StepSet : public torch::data::datasets::Dataset<StepSet> {
public:
  torch::data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  Store store_;
};

// float32 data read as it is: nothing is widened.
class DepthSet : public torch::data::datasets::Dataset<DepthSet> {
public:
  torch::data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  Store store_;
};

// One return widens, the other returns float data: not every value is widened.
class MixedSet : public torch::data::datasets::Dataset<MixedSet> {
public:
  torch::data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  Store store_;
};
