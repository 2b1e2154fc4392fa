// Autograd facts shared by the checks: where gradient recording is switched off (NoGradGuard,
// InferenceMode, AutoGradMode(false)), which code needs gradients (backward(), autograd::grad,
// inputs that require grad) and which code trains (backward() or Optimizer::step()).
#pragma once
#include <vector>
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace torchlint {

/// A local that disables gradient recording for its scope: c10::NoGradGuard (torch::NoGradGuard),
/// c10::InferenceMode (unless constructed with a value that is not provably true), and
/// c10::AutoGradMode constructed with false.
bool isGradDisablingGuard(const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// True when gradients are provably off at S: a grad-disabling guard is declared before S in a
/// block around it (up to its function), or S's function is only called (in this TU) from
/// places where they are off (up to a few levels of callers).
bool gradDisabledAt(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The first call in FD's body (lambdas included) that needs gradients: Tensor::backward,
/// torch::autograd::backward / grad, requires_grad(true) in TensorOptions, set_requires_grad /
/// requires_grad_() on a tensor. Null when there is none.
const clang::Stmt *findGradientUse(const clang::FunctionDecl *FD);

/// True when backward() is called on field F somewhere in this TU's user code (`r.loss.backward()`,
/// `this->total_.backward()`, template instantiations included): F holds a loss with its autograd
/// graph, so a read of it (`result.ppo.loss` in a function that only receives the struct) records
/// history like the loss itself does.
bool isDifferentiatedField(const clang::FieldDecl *F, clang::ASTContext &Ctx);

/// Calls that make code a training step: Tensor::backward, torch::autograd::backward and
/// torch::optim::Optimizer::step (and overrides).
bool isTrainingCall(const clang::CallExpr *Call);

/// The first training call (isTrainingCall) in FD's body, or null.
const clang::CallExpr *findTrainingCall(const clang::FunctionDecl *FD);

/// The function (or lambda call operator) whose body contains S, or null.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace torchlint

namespace torchlint {
/// True when FD or a user function it calls (transitively, a few levels deep) needs gradients
/// (findGradientUse); a call to a user function whose body is not in this TU counts as needing
/// them. Calls into libtorch do not.
bool mayNeedGradients(const clang::FunctionDecl *FD);
/// As above, but a user function called without a body in this TU is added to Elsewhere (once)
/// instead of counting as needing gradients: the project model answers for it (checks in
/// project mode, model/ProjectModel.h needsGradients).
/// A user function called without a body in this TU. HandedNoTensors: every call of it passes
/// only values that hold no tensor or module (holdsNoTensors, the object included): if it is
/// defined nowhere in the project (a library), it cannot need gradients for this code's tensors.
struct GradientCallee {
  const clang::FunctionDecl *Callee = nullptr;
  bool HandedNoTensors = true;
};
bool mayNeedGradients(const clang::FunctionDecl *FD, std::vector<GradientCallee> &Elsewhere);
/// Call passes only values that hold no tensor or module (holdsNoTensors), its object included.
bool handedNoTensors(const clang::CallExpr *Call);
} // namespace torchlint

namespace torchlint {
/// True when S only runs under a run-time condition within its function (a branch of an if, a
/// conditional operator or a switch case whose condition is not a compile-time constant): e.g. a
/// debugging aid behind a command-line flag.
bool underRuntimeCondition(const clang::Stmt *S, clang::ASTContext &Ctx);
/// True for code in the body of a unit test (HotCodeAnalysis::inTestBody: GoogleTest, Catch2,
/// doctest, Boost.Test).
bool inTestCode(const clang::Stmt *S, clang::ASTContext &Ctx);
} // namespace torchlint
