// torch-frozen-net-grad: a network whose parameters are in no optimizer (a pretrained feature
// extractor, a DQN target network, a teacher) run in the training step with autograd on. Its
// parameters still require gradients, so autograd records its graph and saves its activations,
// and backward() computes a weight gradient for every one of its layers (one extra matrix product
// per layer) and accumulates it into .grad tensors that nothing reads or zeroes. The fix depends
// on the code: set requires_grad_(false) on its parameters once, which is always right (gradients
// still flow through it to its input, as style transfer and perceptual losses need); or, where no
// gradient must reach its input (a target network's output is a target), run it under
// torch::NoGradGuard, which records nothing at all. docs/checks/torch-frozen-net-grad.md
#pragma once
#include "checkbase/TorchCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace torchlint {

/// torch-frozen-net-grad: forward calls, in a function that trains (backward() or an optimizer's
/// step()), of a module held in a local variable or in a field of a class that is no module, when
/// nothing in the TU hands the module's parameters anywhere (to an optimizer or elsewhere) or
/// freezes them, and the TU builds an optimizer.
class FrozenNetGradCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  /// The finding says that no optimizer holds the parameters and no caller disables gradients:
  /// decided per candidate before report() (issue 24's scope of distrust), on the network's
  /// declaration (code with errors naming it: declRestsOnErrors), the forward call, and the
  /// functions that lead to it (callChainRestsOnErrors), not on the whole TU.
  Evidence evidence() const override { return Evidence::Expression; }

private:
  struct Candidate {
    const clang::Expr *Call;
    const clang::ValueDecl *Module;
    const clang::Expr *Input; // the first argument of the forward call, or null
  };
  std::vector<Candidate> Candidates;
  std::vector<const clang::Expr *> OptimizerArgs; // the arguments of every optimizer construction
  bool SawOptimizer = false;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint
