// torch-autograd-history: a tensor that records autograd history (the output of a module's
// forward(), a loss, or arithmetic on them) accumulated or stored across training steps without
// detach() or item(): `total += loss`, `losses.push_back(loss)`, `history.push_back(output)` into
// an accumulator that outlives the step. The accumulator then holds every step's graph, with the
// activations its nodes saved, until it is destroyed: memory grows with every step (the PyTorch
// FAQ's "don't accumulate history across your training loop"). The fix is `total +=
// loss.detach()` (or `loss.item()` read once per logging interval), the same advice that
// torch-sync-item gives. docs/checks/torch-autograd-history.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-autograd-history: `acc += t`, `acc = acc + t`, `acc.add_(t)`, `v.push_back(t)` /
/// `emplace_back(t)` / `push_front` in a training step, where t requires grad and acc / v outlives
/// the step (a field, a global, a reference parameter, a local declared outside the loop).
class AutogradHistoryCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint
