// A header-first project's habit: its classes forward-declared before libtorch (also in a
// namespace). The files that include it first get the PCH of <torch/torch.h>: the TU declares
// those classes after libtorch's headers, which never look at the names.
#ifndef ACCEL_CASES_FORWARD_DECLS_H
#define ACCEL_CASES_FORWARD_DECLS_H
struct RunSettings;
class MetricsSink;
namespace accel::amp {
class LossScaler;
}

#include <torch/torch.h>

struct RunSettings {
  int steps = 10;
};

inline float drain(const torch::Tensor &t) { return t.item<float>(); }

#endif // ACCEL_CASES_FORWARD_DECLS_H
