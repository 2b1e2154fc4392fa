#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-tensor-core-dims: Linear/Conv sizes and matmul dimensions not divisible by 8 in code that
/// trains in fp16/bf16. docs/checks/torch-tensor-core-dims.md
class TensorCoreDimsCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkModule(const clang::CXXConstructExpr *Ctor, clang::ASTContext &Ctx);
  void checkMatmul(const clang::CallExpr *Call, clang::ASTContext &Ctx);
};

} // namespace torchlint
