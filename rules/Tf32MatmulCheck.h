// torch-tf32-matmul: a file that runs float32 matrix products on CUDA and never decides about TF32
// for cuBLAS. Since libtorch 1.12 cuBLAS matmuls in fp32 run in full fp32 unless TF32 is allowed
// (at::globalContext().setAllowTF32CuBLAS(true) or setFloat32MatmulPrecision("high")); on Ampere
// and newer, TF32 runs them on tensor cores (PyTorch profiler's "fp32 matmul" pattern).
// docs/checks/torch-tf32-matmul.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-tf32-matmul: fp32 matmul/linear on CUDA with TF32 never allowed in the file (manual).
class Tf32MatmulCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: a file-wide absence: nothing in the file sets
  /// the fp32 matmul precision (Recovery.h).
  Evidence evidence() const override { return Evidence::TranslationUnit; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const clang::Expr *First = nullptr; // the earliest matrix product in hot code
  clang::SourceLocation FirstLoc;
  std::string FirstName;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint
