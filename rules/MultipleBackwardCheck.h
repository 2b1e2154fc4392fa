// torch-multiple-backward: several backward() calls in one step, one per loss term, before one
// optimizer step(), where the earlier calls keep the graph (retain_graph or create_graph true):
// the terms share a graph (a common trunk, one forward), so each backward() runs the shared part
// of the backward pass again, and the retained graph keeps its saved activations alive until the
// last call. The fix is one backward() of the sum of the terms, which runs every node once and
// needs no retain_graph; the gradients are the same up to floating-point summation order.
// docs/checks/torch-multiple-backward.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-multiple-backward: two or more Tensor::backward() statements in the same block of a
/// step, with no optimizer step() between them, the earlier ones retaining the graph.
class MultipleBackwardCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint
