#include "dist.h"

at::Tensor Noise::sample() const { return torch::rand({1}); }
at::Tensor Uniform::sample() const { return torch::rand({1}) * 2.0; }
Dist *make_dist(int kind) { return kind ? static_cast<Dist *>(new Noise) : new Uniform; }

at::Tensor HostSource::draw() const { return torch::randn({1}); }
at::Tensor GpuSource::draw() const { return torch::randn({1}, at::TensorOptions(at::kCUDA)); }
Source *make_source(int kind) { return kind ? static_cast<Source *>(new HostSource) : new GpuSource; }
