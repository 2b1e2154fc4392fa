#pragma once
#include "torch_mini.h"

// A simulator interface, its result, and two small classes the trainer builds with make_shared.
struct Observation {
  at::Tensor reward;
};

class Simulator {
public:
  virtual ~Simulator();
  virtual Observation step(const at::Tensor &state) const = 0;
};

class LineSim : public Simulator {
public:
  Observation step(const at::Tensor &state) const override;
};

class Bounds {
public:
  Bounds(at::Tensor low, at::Tensor high);
  at::Tensor low() const;

private:
  at::Tensor low_, high_;
};

class Scale {
public:
  explicit Scale(at::Tensor value);
  at::Tensor value() const;

private:
  at::Tensor value_;
};
