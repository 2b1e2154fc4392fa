#pragma once
#include "torch_mini.h"

// Distributions the trainer samples through their interface; each is defined in dist.cpp.
class Dist {
public:
  virtual ~Dist();
  virtual at::Tensor sample() const = 0;
};

class Noise : public Dist {
public:
  at::Tensor sample() const override;
};

class Uniform : public Dist {
public:
  at::Tensor sample() const override;
};

class Source {
public:
  virtual ~Source();
  virtual at::Tensor draw() const = 0;
};

class HostSource : public Source {
public:
  at::Tensor draw() const override;
};

class GpuSource : public Source {
public:
  at::Tensor draw() const override;
};

Dist *make_dist(int kind);
Source *make_source(int kind);
