#include "analysis/ConstantData.h"
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchlint {

namespace {

/// A parameter whose every call (in this TU; with Deferred, in the project) passes a constant.
bool constantParameter(const ParmVarDecl *PV, ASTContext *Ctx, std::vector<const ParmVarDecl *> *Deferred,
                       unsigned Depth);

bool constantData(const Stmt *S, ASTContext *Ctx, std::vector<const ParmVarDecl *> *Deferred, unsigned Depth) {
  if (!S || Depth > 64)
    return false;
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral>(S))
    return true;
  if (const auto *R = dyn_cast<DeclRefExpr>(S)) {
    if (isa<EnumConstantDecl>(R->getDecl()))
      return true;
    if (const auto *PV = dyn_cast<ParmVarDecl>(R->getDecl()))
      return constantParameter(PV, Ctx, Deferred, Depth);
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      return V->isConstexpr();
    return false;
  }
  if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
    return false; // a function result (a size from x.size(0), a tensor, ...)
  if (const auto *C = dyn_cast<CXXConstructExpr>(S))
    if (C->getNumArgs() == 0 && !isa<CXXTemporaryObjectExpr>(C))
      return false;
  if (isa<CXXStdInitializerListExpr, InitListExpr, ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
          ExprWithCleanups, ParenExpr, UnaryOperator, BinaryOperator, CXXConstructExpr, CXXFunctionalCastExpr,
          CStyleCastExpr, ConstantExpr, CXXDefaultArgExpr>(S) ||
      isa<CXXOperatorCallExpr>(S)) {
    bool Any = false;
    for (const Stmt *C : S->children()) {
      if (!constantData(C, Ctx, Deferred, Depth + 1))
        return false;
      Any = true;
    }
    return Any || isa<CXXDefaultArgExpr>(S);
  }
  return false;
}

bool constantParameter(const ParmVarDecl *PV, ASTContext *Ctx, std::vector<const ParmVarDecl *> *Deferred,
                       unsigned Depth) {
  if (!Ctx || !PV->getType().getNonReferenceType()->isArithmeticType())
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(PV->getDeclContext());
  if (!FD)
    return false;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(*Ctx);
  if (std::optional<std::vector<const Expr *>> Args = HC.argumentsAtEveryCall(PV, /*AllowNonConstReference=*/false,
                                                                                  /*Defaults=*/true)) {
    if (Args->empty() || !llvm::all_of(*Args, [&](const Expr *A) { return constantData(A, Ctx, Deferred, Depth + 16); }))
      return false;
    // The calls of other files too, unless no other file can call it (static, an anonymous
    // namespace): then this TU's calls are all of them, and the parameters they pass on are
    // deferred themselves (a static helper of ssim(..., int window_size = 11) in another file).
    if (Deferred && FD->isExternallyVisible())
      Deferred->push_back(PV);
    return true;
  }
  // No call here (a constructor run by std::make_unique in another file): the project decides,
  // unless the parameter can hold anything whatever the calls pass.
  if (!Deferred || !HC.callsOf(FD).empty())
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && (MD->isVirtual() || MD->getParent()->isLambda()))
    return false;
  if (PV->getType()->isReferenceType() ? !PV->getType()->getPointeeType().isConstQualified()
                                       : valuesOf(PV, *Ctx).Written)
    return false;
  if (HC.referencedOtherThanCalled(FD))
    return false;
  Deferred->push_back(PV);
  return true;
}

} // namespace

bool isConstantData(const Stmt *S, ASTContext *Ctx, std::vector<const ParmVarDecl *> *Deferred) {
  return constantData(S, Ctx, Deferred, 0);
}

} // namespace torchlint
