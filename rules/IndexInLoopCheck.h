// torch-index-in-loop: a loop over a tensor's rows or elements whose body indexes the tensor with
// the loop variable (`t[i]`, `t.index({i})`, `t.select(0, i)`, `t[i][j] = v`): every iteration
// dispatches its own indexing and kernels, where a vectorised expression runs one kernel for the
// whole dimension (PyTorch profiler's "for-loop indexing" pattern). docs/checks/torch-index-in-loop.md
#pragma once
#include "checkbase/TorchCheck.h"
#include "llvm/ADT/DenseMap.h"

namespace torchlint {

/// torch-index-in-loop: per-element tensor indexing in a hot loop.
class IndexInLoopCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// What a qualifying loop indexes, and over what.
  struct Finding {
    const clang::Expr *Index = nullptr; ///< the first indexing expression of the loop variable
    const clang::Expr *Tensor = nullptr;
    std::string Bound;      ///< "x.size(0)", "n", "" when written otherwise
    bool TensorDim = false; ///< the trip count is a tensor's dimension
    bool OverRange = false; ///< a range-for: Bound is its range, the element (or its field) the index
    /// Every tensor the loop indexes by the loop variable that is not provably on the host.
    std::vector<const clang::Expr *> Indexed;
  };

private:
  /// The finding of Loop, or nullopt when it does not qualify (cached per loop).
  const std::optional<Finding> &qualifies(const clang::Stmt *Loop, clang::ASTContext &Ctx);
  llvm::DenseMap<const clang::Stmt *, std::optional<Finding>> Cache;
  const clang::ASTContext *CacheCtx = nullptr;
};

} // namespace torchlint
