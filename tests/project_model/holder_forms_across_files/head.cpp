#include "net.h"

at::Tensor HeadImpl::forward(const at::Tensor &x) { return torch::conv2d(x, weight); }
