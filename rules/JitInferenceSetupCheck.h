// torch-jit-inference-setup: a TorchScript module loaded with torch::jit::load and run for
// inference without the setup inference needs: forward() with gradient recording on (no
// c10::InferenceMode or NoGradGuard), a module never switched to eval(), and, in a serving loop,
// a module neither frozen (torch::jit::freeze) nor optimized (torch::jit::optimize_for_inference).
// docs/checks/torch-jit-inference-setup.md
#pragma once
#include "checkbase/TorchCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace torchlint {

/// torch-jit-inference-setup: TorchScript inference without InferenceMode/no-grad, eval(), freeze.
class JitInferenceSetupCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: absences (no guard in scope here or in the
  /// callers, no eval() or freeze anywhere in the file) (Recovery.h).
  Evidence evidence() const override { return Evidence::TranslationUnit; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void checkForward(const clang::CXXMemberCallExpr *Call, clang::ASTContext &Ctx);

  struct ModuleUse {
    const clang::CallExpr *Load = nullptr;                ///< the first torch::jit::load stored in it
    const clang::CXXMemberCallExpr *Forward = nullptr;    ///< its first forward()
    const clang::CXXMemberCallExpr *HotForward = nullptr; ///< its first forward() in hot code
    bool Eval = false;                                    ///< eval() or train(...) called on it
    bool Frozen = false;                                  ///< passed to torch::jit::freeze / optimize_for_inference
    bool Escapes = false;                                 ///< passed to a user function: its setup may happen there
  };
  /// The module variables (locals, globals, fields) of the TU, by declaration.
  llvm::DenseMap<const clang::ValueDecl *, ModuleUse> Modules;
  llvm::DenseSet<const clang::FunctionDecl *> GuardReported;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint
