#include "rules/SyncItemCheck.h"
#include "analysis/TensorDtype.h"
#include "core/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

static const char Message[] =
    "Tensor::item() copies the value to the host and blocks until the GPU has finished all queued "
    "work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it "
    "once per epoch or logging interval";

void SyncItemCheck::registerMatchers(MatchFinder *Finder) {
  // t.item(), t.item<float>(), t.template item<T>() (instantiated), t.item().toFloat().
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("item"), isTensorMethod()))).bind("call"), this);
  // t.template item<T>() in a template that is never instantiated.
  Finder->addMatcher(
      callExpr(callee(unresolvedMemberExpr(hasAnyDeclaration(namedDecl(hasName("item")))))).bind("dependent"), this);
  // loss.template item<float>() where loss's type depends on a template parameter (`auto loss =
  // torch::nll_loss(model->forward(x), y)`), in a template that is never instantiated.
  Finder->addMatcher(callExpr(callee(cxxDependentScopeMemberExpr(hasMemberName("item")))).bind("dependent"), this);
  // torch::nn::utils::clip_grad_norm_(): returns the total norm as a double, read with item()
  // (libtorch 1.13 and 2.x, whatever error_if_nonfinite says).
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::nn::utils::clip_grad_norm_")))).bind("clip"), this);
  // t[i] with a tensor index: Tensor::operator[](Tensor) reads the index with item().
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("[]"), hasArgument(0, expr(isTensorExpr())),
                                         hasArgument(1, expr(isTensorExpr())))
                         .bind("subscript"),
                     this);
}

/// `x += t.item<T>()` (also -=, through casts): the value accumulated on the host.
static bool accumulatedOnHost(const Expr *Call, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = Call;
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    const auto *P = dyn_cast_or_null<Expr>(HC.parentOf(Prev));
    if (!P)
      return false;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(P))
      return CA->getRHS()->IgnoreParenImpCasts() == cast<Expr>(Prev)->IgnoreParenImpCasts() &&
             (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign);
    if (!isa<ImplicitCastExpr, ParenExpr, CXXStaticCastExpr, CStyleCastExpr, CXXFunctionalCastExpr, CXXMemberCallExpr,
             MemberExpr>(P))
      return false;
    Prev = P;
  }
  return false;
}

void SyncItemCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Sub = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("subscript")) {
    if (isBoolTensor(Sub->getArg(1), Ctx))
      return; // torch-sync-bool-mask
    auto Site = assess(Sub, Sub->getArg(1), Ctx);
    if (!Site)
      return;
    reportSync(Sub->getBeginLoc(),
               "Tensor::operator[] with a tensor index reads the index with item(), which copies it to the "
               "host and blocks until the GPU has finished all queued work; index with an integer, or use "
               "index_select / index({idx}) to stay on the device",
               *Site);
    return;
  }
  if (const auto *Clip = Result.Nodes.getNodeAs<CallExpr>("clip")) {
    if (auto Site = assess(Clip, nullptr, Ctx))
      reportSync(Clip->getBeginLoc(),
                 "torch::nn::utils::clip_grad_norm_() returns the total norm as a double: it reads it with "
                 "item(), which copies it to the host and blocks until the GPU has finished all queued work; "
                 "clip on the device without reading the norm (its own steps: the norm of the gradients' "
                 "norms, `torch::clamp(max_norm / (norm + 1e-6), c10::nullopt, 1.0)`, `grad.mul_(coef)`)",
                 *Site);
    return;
  }
  const CallExpr *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const Expr *Tensor = nullptr;
  if (Call) {
    Tensor = cast<CXXMemberCallExpr>(Call)->getImplicitObjectArgument();
  } else {
    Call = Result.Nodes.getNodeAs<CallExpr>("dependent");
    const Expr *Callee = Call->getCallee()->IgnoreImplicit();
    if (const auto *ME = dyn_cast<UnresolvedMemberExpr>(Callee)) {
      if (ME->isImplicitAccess() || !isTensorType(ME->getBaseType()))
        return;
    } else if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
      if (DM->isImplicitAccess() || DM->isArrow() || !isTensorValued(DM->getBase()))
        return;
    } else {
      return;
    }
    if (!isUninstantiatedTemplate(HotCodeAnalysis::get(Ctx).enclosingFunction(Call)))
      return;
  }
  SourceLocation Loc = Call->getExprLoc();
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreImplicit()))
    Loc = DM->getMemberLoc();            // at `item`, as for a typed call
  auto Site = assess(Call, Tensor, Ctx); // dependent `t.template item<T>()`: device unknown
  if (!Site)
    return;
  bool Accumulates = !Site->Hot.LoopLoc.isInvalid() && accumulatedOnHost(Call, Ctx);
  reportSync(Loc, Message, *Site);
  if (Accumulates)
    diag(Loc,
         "accumulate on the device instead: a tensor accumulator declared before the loop "
         "(`auto total = torch::zeros({}, loss.options());`, `total += loss.detach();`) and one "
         "`total.item<float>()` after it",
         DiagnosticIDs::Note);
}

} // namespace torchlint
