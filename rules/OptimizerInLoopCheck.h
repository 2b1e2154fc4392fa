// torch-optimizer-in-loop: an optimizer (torch::optim::Adam, AdamW, SGD with momentum, RMSprop,
// Adagrad, LBFGS, ...) constructed inside the epoch loop or the step loop, or in a function that
// loop calls, for parameters that live across iterations. Each construction starts from empty
// state: Adam's moment estimates and step count, SGD's momentum buffers, RMSprop's averages are
// thrown away every epoch (or step) and allocated again, which changes the training (a correctness
// change as much as a cost). The fix is to construct it once, before the loop, and change the
// learning rate on its param_groups when that was the reason. A stateless SGD (no momentum) is
// not reported; an optimizer rebuilt per fold of a cross-validation (the loop around it contains
// the epoch loop) or together with its model is not either. docs/checks/torch-optimizer-in-loop.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-optimizer-in-loop: the construction of a torch::optim::Optimizer subclass (a local, a
/// `new`, std::make_unique / make_shared) that runs once per epoch or per step.
class OptimizerInLoopCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint
