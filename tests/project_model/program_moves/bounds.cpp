#include "bounds.h"

Box::Box(at::Tensor low) : low_(register_buffer("low", low)) {}
at::Tensor Box::low() const { return low_; }
