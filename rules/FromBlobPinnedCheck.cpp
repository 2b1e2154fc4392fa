#include "rules/FromBlobPinnedCheck.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TUFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// The `.pinned_memory(x)` call with x provably true in the TensorOptions expression E (a builder
/// chain, `torch::TensorOptions().dtype(...).pinned_memory(true)`, or a local options variable all
/// of whose values are such chains), or null. Depth bounds the locals followed.
const CXXMemberCallExpr *pinnedSetting(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return nullptr;
  E = stripTemporaries(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return nullptr;
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.empty())
      return nullptr;
    const CXXMemberCallExpr *First = nullptr;
    for (const Expr *Val : V.Values) {
      const CXXMemberCallExpr *P = pinnedSetting(Val, Ctx, Depth + 1);
      if (!P)
        return nullptr; // one value that does not pin: not provable
      if (!First)
        First = P;
    }
    return First;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || !isTensorOptionsType(MC->getType()))
    return nullptr;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (MD && MD->getDeclName().isIdentifier() && MD->getName() == "pinned_memory" && MC->getNumArgs() >= 1) {
    const Expr *A = MC->getArg(0);
    if (A->isValueDependent())
      return nullptr;
    // pinned_memory(std::optional<bool>) / pinned_memory(bool): a literal or a constant.
    bool B = false;
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(stripTemporaries(A)); Ctor && Ctor->getNumArgs() == 1)
      A = Ctor->getArg(0);
    if (!A->EvaluateAsBooleanCondition(B, Ctx) || !B)
      return nullptr;
    return MC;
  }
  // A later builder call (`.device(...)`, `.dtype(...)`) keeps the pinned flag, except one that
  // sets it again (handled above, as the outermost call wins).
  return pinnedSetting(MC->getImplicitObjectArgument(), Ctx, Depth);
}
} // namespace

void FromBlobPinnedCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("::torch::from_blob", "::at::from_blob"))),
                              hasAnyArgument(expr(hasType(hasCanonicalType(hasDeclaration(
                                  cxxRecordDecl(hasName("::c10::TensorOptions"))))))))
                         .bind("call"),
                     this);
}

void FromBlobPinnedCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  if (!inUserCode(Call->getBeginLoc(), *Result.SourceManager))
    return;
  const CXXMemberCallExpr *Pinned = nullptr;
  for (const Expr *A : Call->arguments())
    if (isTensorOptionsType(A->getType()) && !isa<CXXDefaultArgExpr>(A))
      if ((Pinned = pinnedSetting(A, Ctx)))
        break;
  if (!Pinned)
    return;
  // Memory the program pins itself (cudaHostAlloc, cudaMallocHost, cudaHostRegister) is pinned
  // whatever from_blob's options say: the flag is then only redundant.
  const TUFacts &F = TUFacts::get(Ctx);
  for (llvm::StringRef Pin : {"cudaHostAlloc", "cudaMallocHost", "cudaHostRegister", "cuMemHostAlloc",
                              "cuMemAllocHost", "cuMemHostRegister"})
    if (F.firstCall(Pin).isValid())
      return;
  report(Call->getBeginLoc(),
         "from_blob() wraps memory it does not allocate, so pinned_memory(true) in its options pins nothing: the "
         "memory stays pageable and a later non_blocking copy of it to the GPU is synchronous; copy it into a "
         "pinned buffer allocated once (`torch::empty(sizes, options.pinned_memory(true))`, then `copy_`), or "
         "call `.pin_memory()` on the wrapped tensor");
}

} // namespace torchlint
