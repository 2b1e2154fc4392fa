#include "rules/DiscardedConversionCheck.h"
#include "analysis/TensorDtype.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// Tensor methods that return the converted tensor (a copy, or `*this` when nothing changes) and
/// never modify the object: what a user who expects Module::to()'s in-place behaviour writes.
const llvm::StringRef ConversionMethods[] = {"to",        "cuda",     "cpu",       "hip",        "contiguous",
                                         "toType",    "toBackend", "type_as",  "to_dense",   "to_sparse",
                                         "to_mkldnn", "pin_memory"};

/// True when E (a call) is a statement whose value nobody reads: the direct child of a block, a
/// label or case, the body of an if/loop, or a for-increment. Implicit nodes (cleanups,
/// temporaries) are passed over; an explicit cast such as `(void)x.to(d)` is a use.
bool discarded(const Expr *E, const HotCodeAnalysis &HC) {
  const Stmt *Child = E;
  const Stmt *P = HC.parentOf(E);
  while (P && isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ImplicitCastExpr, ParenExpr,
                  ConstantExpr>(P)) {
    Child = P;
    P = HC.parentOf(P);
  }
  if (!P)
    return false;
  if (isa<CompoundStmt, LabelStmt, SwitchCase>(P))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *F = dyn_cast<ForStmt>(P))
    return Child == F->getBody() || Child == F->getInc();
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return Child == W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(P))
    return Child == D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(P))
    return Child == R->getBody();
  return false;
}

/// A variable the fix-it may assign to: a local or parameter held by value and not const.
bool assignableVar(const ValueDecl *D) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || isa<DecompositionDecl>(VD) || VD->getType()->isReferenceType() || VD->getType().isConstQualified())
    return false;
  return VD->hasLocalStorage() && isTensorType(VD->getType());
}

/// The object expression if `Obj = <call>;` does what the user meant, exactly: Obj is a local
/// variable or by-value parameter (`x`), or a field of `this` (`x_`, `this->x_`) or of such a
/// local (`batch.data`), of type Tensor, neither const nor a reference.
bool plainLvalue(const Expr *Obj) {
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    return assignableVar(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(Obj)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->getType()->isReferenceType() || FD->getType().isConstQualified() || !isTensorType(FD->getType()))
      return false;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      return !Base->getType()->getPointeeType().isConstQualified();
    if (ME->isArrow())
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && !isa<DecompositionDecl>(VD) && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
             !VD->getType().isConstQualified();
    }
  }
  return false;
}
} // namespace

void DiscardedConversionCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName(llvm::ArrayRef<llvm::StringRef>(ConversionMethods)), isTensorMethod())),
                                       isTensorExpr())
                         .bind("call"),
                     this);
}

void DiscardedConversionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, *Result.SourceManager))
    return;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  if (!discarded(Call, HC))
    return;
  const Expr *Obj = Call->getImplicitObjectArgument();
  if (!Obj)
    return;
  std::string Method = Call->getMethodDecl()->getNameAsString();
  // `label.to(torch::kInt64);` of a tensor that is already int64: to() returns the tensor itself,
  // nothing is copied and the code after it already has the dtype it asked for. Dead code, not a
  // lost conversion: quiet (as a hard-coded CPU device's to() on a host tensor).
  if (Method == "to" && Call->getNumArgs() >= 1) {
    bool Extra = false;
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      Extra |= !isa<CXXDefaultArgExpr>(Call->getArg(I));
    std::string Want = Extra ? "" : scalarTypeDenotedBy(Call->getArg(0), Ctx);
    if (!Want.empty() && Want == scalarTypeOf(Obj, Ctx))
      return;
  }
  std::string ObjText = sourceText(Obj, Ctx);
  if (ObjText.empty())
    ObjText = "the tensor";
  std::string What = Method == "contiguous" ? "a contiguous copy"
                     : Method == "pin_memory" ? "a pinned copy"
                                              : "the converted tensor";
  // Not gated on hot code: the statement is wrong wherever it runs (the object is not converted),
  // and in hot code it also costs a copy per step, which the message then says.
  auto Hot = hotContext(Call, Ctx);
  std::string Msg = "Tensor::" + Method + "() returns " + What + " and leaves '" + ObjText +
                    "' as it was (unlike Module::to(), it does not convert in place); its result is discarded, so " +
                    "the copy runs for nothing and the code after it still uses the unconverted tensor; assign it: '" +
                    ObjText + " = " + ObjText + "." + Method + "(...)'";
  auto D = report(Loc, Msg, Hot);
  // The fix-it: `x.to(d);` -> `x = x.to(d);`, only where `x` is a plain lvalue whose assignment
  // is what the user meant (no reference to a caller's tensor rebound, no const), written outside
  // macros.
  if (!plainLvalue(Obj))
    return;
  std::string Written = writtenText(Obj, Ctx);
  if (Written.empty() || writtenText(Call, Ctx).empty())
    return;
  D << FixItHint::CreateInsertion(Call->getBeginLoc(), Written + " = ");
}

} // namespace torchlint
