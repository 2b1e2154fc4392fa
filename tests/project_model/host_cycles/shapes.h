#pragma once
#include "torch_mini.h"

// Polygon outlines of the ground-truth masks (shapes.cpp), read point by point on the host in the
// loss of train.cpp. The outlines are built on the host from coordinates, and every transform
// builds new outlines from the old ones through the constructor that takes tensors: their device
// follows a cycle (field, constructor parameter, the field again) with no device in it.
struct Shapes {
  explicit Shapes(const std::vector<double> &coords);
  explicit Shapes(std::vector<at::Tensor> outlines);
  Shapes crop(double dx); // not const: its loop variable is a non-const reference
  Shapes flip() const;
  float perimeter() const;
  std::vector<at::Tensor> outlines_;
};

// The same shape of code, but one caller hands it GPU tensors: its reads wait for the GPU.
struct Tracks {
  explicit Tracks(std::vector<at::Tensor> points);
  Tracks shift() const;
  float length() const;
  std::vector<at::Tensor> points_;
};
