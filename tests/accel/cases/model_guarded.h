// A project header with a classic include guard whose first include is libtorch: the files that
// include it first get the PCH of <torch/torch.h> (the chain of project headers is walked).
#ifndef ACCEL_CASES_MODEL_GUARDED_H
#define ACCEL_CASES_MODEL_GUARDED_H
#include <torch/torch.h>
#include <vector>

struct GuardedNet : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  GuardedNet() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};

inline double lossValue(const torch::Tensor &loss) { return loss.item<double>(); }

#endif // ACCEL_CASES_MODEL_GUARDED_H
