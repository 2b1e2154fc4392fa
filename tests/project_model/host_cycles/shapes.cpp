#include "shapes.h"

Shapes::Shapes(const std::vector<double> &coords) {
  for (int k = 0; k < 4; ++k) {
    at::Tensor t = torch::empty({16});
    outlines_.push_back(t);
  }
}

Shapes::Shapes(std::vector<at::Tensor> outlines) : outlines_(std::move(outlines)) {}

Shapes Shapes::crop(double dx) {
  std::vector<at::Tensor> cropped;
  at::Tensor p;
  for (auto &o : outlines_) {
    p = o.clone();
    cropped.push_back(p);
  }
  return Shapes(cropped);
}

Shapes Shapes::flip() const {
  std::vector<at::Tensor> none; // an empty list: no tensor at all
  return Shapes(none);
}

float Shapes::perimeter() const {
  float s = 0;
  for (const auto &o : outlines_)
    for (int i = 0; i < 16; ++i)
      s += o[i].item<float>();
  return s;
}

Tracks::Tracks(std::vector<at::Tensor> points) : points_(std::move(points)) {}

Tracks Tracks::shift() const {
  std::vector<at::Tensor> moved;
  for (const auto &p : points_)
    moved.push_back(p.clone());
  return Tracks(moved);
}

float Tracks::length() const {
  float s = 0;
  for (const auto &p : points_)
    for (int i = 0; i < 16; ++i)
      s += p[i].item<float>();
  return s;
}
