#include "rules/SyncHostCopyCheck.h"
#include "analysis/Autograd.h"
#include "analysis/HotCode.h"
#include "analysis/TUFacts.h"
#include "core/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// A non-defaulted argument that is not the literal `false` for parameter non_blocking.
bool nonBlocking(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  for (unsigned I = 0; I < Call->getNumArgs() && I < MD->getNumParams(); ++I) {
    if (MD->getParamDecl(I)->getName() != "non_blocking" || isa<CXXDefaultArgExpr>(Call->getArg(I)))
      continue;
    const Expr *A = Call->getArg(I)->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(A))
      return B->getValue();
    return true; // a runtime flag: may be non-blocking
  }
  return false;
}

const char Why[] = " copies the tensor to host memory and blocks until the GPU has finished all queued work; "
                   "keep the computation on the device, or copy once per logging interval (or with "
                   "non_blocking=true into pinned memory, reading it a step later)";

} // namespace

void SyncHostCopyCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("cpu", "to"), isTensorMethod()))).bind("copy"),
                     this);
  // Host reads through data_ptr<T>(): *t.data_ptr<float>(), t.data_ptr<float>()[i].
  auto DataPtr = cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("data_ptr", "const_data_ptr", "mutable_data_ptr"),
                                                        isTensorMethod())))
                     .bind("ptr");
  Finder->addMatcher(unaryOperator(hasOperatorName("*"), hasUnaryOperand(ignoringParenImpCasts(DataPtr))).bind("read"),
                     this);
  Finder->addMatcher(arraySubscriptExpr(hasBase(ignoringParenImpCasts(DataPtr))).bind("read"), this);
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("accessor"), isTensorMethod()))).bind("accessor"),
                     this);
}

namespace {
/// `auto out = result.to(torch::kCPU).contiguous(); auto acc = out.accessor<float, 2>();` under a
/// grad-disabling guard, in no loop of a function that trains nothing: the copy's host tensor is
/// held in a local that the function reads element by element (accessor, data_ptr).
bool inferenceReadback(const CXXMemberCallExpr *Copy, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *FD = enclosingFunction(Copy, Ctx);
  if (!FD || !FD->getBody() || HC.enclosingLoop(Copy) || findTrainingCall(FD) || !gradDisabledAt(Copy, Ctx))
    return false;
  const Stmt *S = Copy;
  const VarDecl *Held = nullptr;
  for (const Stmt *P = HC.parentOf(S); P && !Held; S = P, P = HC.parentOf(P)) {
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      if (DS->isSingleDecl())
        Held = dyn_cast<VarDecl>(DS->getSingleDecl());
      break;
    }
    if (!isa<Expr>(P))
      return false;
  }
  if (!Held || !isTensorType(Held->getType()))
    return false;
  bool ReadOnHost = false;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (MD && MD->getDeclName().isIdentifier() &&
        (MD->getName() == "accessor" || MD->getName() == "data_ptr" || MD->getName() == "const_data_ptr"))
      if (const auto *R = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
        ReadOnHost |= R->getDecl() == Held;
  });
  return ReadOnHost;
}
} // namespace

void SyncHostCopyCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Ptr = Result.Nodes.getNodeAs<CXXMemberCallExpr>("ptr")) {
    // data_ptr() of a CUDA tensor handed to a kernel is fine (not matched); reading through it on
    // the host is not. A tensor provably on a device: reported. One whose device the program
    // chooses at run time (options from main(), CUDA when available), in a program that names
    // CUDA: on the CPU the read is an item() without the call, on a GPU it dereferences device
    // memory; the project model (or this TU's own CUDA) decides, as for item().
    const Expr *Obj = Ptr->getImplicitObjectArgument();
    DeviceKind K = deviceOf(Obj, Ctx);
    if (K == DeviceKind::CPU)
      return;
    if (K == DeviceKind::Unknown && !projectMode() && TUFacts::get(Ctx).usesCUDA().isInvalid())
      return;
    auto Site = assess(Ptr, Obj, Ctx);
    if (!Site)
      return;
    if (Site->Device == DeviceKind::Accelerator)
      reportSync(Ptr->getExprLoc(),
                 "reading a device tensor through data_ptr() on the host dereferences device memory; copy the "
                 "values with .cpu() once outside the loop, or keep the computation on the device",
                 *Site);
    else
      reportSync(Ptr->getExprLoc(),
                 "reading a tensor through data_ptr() on the host is only valid on the CPU, and this tensor's "
                 "device is chosen at run time: on a GPU the read dereferences device memory; keep the "
                 "selection on the device and read its result once (one .cpu() or item() per step)",
                 *Site);
    return;
  }
  if (const auto *Acc = Result.Nodes.getNodeAs<CXXMemberCallExpr>("accessor")) {
    const Expr *Obj = Acc->getImplicitObjectArgument();
    if (deviceOf(Obj, Ctx) != DeviceKind::Accelerator)
      return;
    auto Site = assess(Acc, Obj, Ctx);
    if (!Site)
      return;
    reportSync(Acc->getExprLoc(),
               "accessor() reads the tensor from the host, but the tensor is on a device; use "
               "packed_accessor in a kernel, or keep the computation in tensor ops on the device",
               *Site);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("copy");
  const CXXMethodDecl *MD = Call->getMethodDecl();
  std::string What;
  if (MD->getName() == "cpu") {
    What = ".cpu()";
  } else {
    if (Call->getNumArgs() == 0)
      return;
    const Expr *A = Call->getArg(0);
    QualType T = A->getType();
    if (isTensorType(T))
      return; // to(other): other's device is another question
    bool NoDevice = false;
    if (deviceDenotedBy(A, Ctx, &NoDevice) != DeviceKind::CPU || NoDevice)
      return;
    if (nonBlocking(Call))
      return;
    What = ".to(<CPU device>)";
  }
  // An inference function's one readback of its results: under a grad-disabling guard, in no loop
  // of its function, in a function that trains nothing (a model server answering host callers,
  // MCTS's evaluator). The copy is what the function is for, done once for the whole tensor, as
  // torch-sync-item advises for per-element reads; nothing keeps it on the device.
  if (inferenceReadback(Call, Ctx))
    return;
  auto Site = assess(Call, Call->getImplicitObjectArgument(), Ctx);
  if (!Site)
    return;
  reportSync(Call->getExprLoc(), What + Why, *Site);
}

} // namespace torchlint
