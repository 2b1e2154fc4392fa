#include "bounds.h"

Box::Box(at::Tensor low) : low_(register_buffer("low", low)) {}
at::Tensor Box::low() const { return low_; }

Scale::Scale(at::Tensor value) : value_(register_parameter("value", value)) {}
at::Tensor Scale::value() const { return value_; }

// A Scale registered in a Holder moves with it.
Holder::Holder() : scale_(register_module("scale", std::make_shared<Scale>(torch::ones({1})))) {}
at::Tensor Holder::inner() const { return scale_->value(); }
