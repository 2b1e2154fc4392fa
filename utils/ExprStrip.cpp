#include "utils/ExprStrip.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchlint {

const Expr *stripTemporaries(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    // (IgnoreParenImpCasts also skips materialisation, cleanups and constant-expression wrappers.)
    E = E->IgnoreParenImpCasts();
    if (const auto *EC = dyn_cast<ExprWithCleanups>(E))
      E = EC->getSubExpr();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BT->getSubExpr();
    if (E == Prev)
      return E;
  }
  return E;
}

const Expr *stripCopies(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = stripTemporaries(E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (CE->getConstructor() && CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor())
        E = CE->getArg(0);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      if (FC->getCastKind() == CK_NoOp || FC->getCastKind() == CK_ConstructorConversion)
        E = FC->getSubExpr();
    // A braced copy of a value of the same class (`P{prior.to(kCPU)}`, `Tensor t{f()}`): clang
    // keeps the one-element list around the value C++17 initialises the object from.
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      if (IL->getNumInits() == 1 && IL->getType()->isRecordType() &&
          IL->getType().getCanonicalType().getUnqualifiedType() ==
              IL->getInit(0)->getType().getCanonicalType().getUnqualifiedType())
        E = IL->getInit(0);
    if (E == Prev)
      return E;
  }
  return E;
}

const Expr *stripMoves(const Expr *E) {
  while (E) {
    E = stripCopies(E);
    const auto *C = dyn_cast<CallExpr>(E);
    const auto *FD = C ? C->getDirectCallee() : nullptr;
    if (!FD || C->getNumArgs() != 1 || !FD->isInStdNamespace() || !FD->getDeclName().isIdentifier() ||
        FD->getName() != "move")
      return E;
    E = C->getArg(0);
  }
  return E;
}

const Expr *stripToWritten(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *C = dyn_cast<CXXConstructExpr>(N))
      if (C->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(C))
        N = C->getArg(0);
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

const InitListExpr *bracedList(const Expr *Arg) {
  const Expr *A = stripTemporaries(Arg);
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(A); C && C->getNumArgs() == 1)
    A = stripTemporaries(C->getArg(0));
  if (const auto *L = dyn_cast_or_null<CXXStdInitializerListExpr>(A))
    A = stripTemporaries(L->getSubExpr());
  return dyn_cast_or_null<InitListExpr>(A);
}

bool elementAccess(const Expr *E, const Expr *&Container, const Expr *&Index) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Container = Op->getArg(0);
    Index = Op->getArg(1);
    return true;
  }
  if (const auto *At = dyn_cast<CXXMemberCallExpr>(E); At && At->getMethodDecl() &&
                                                       At->getMethodDecl()->getDeclName().isIdentifier() &&
                                                       At->getMethodDecl()->getName() == "at" && At->getNumArgs() == 1) {
    Container = At->getImplicitObjectArgument();
    Index = At->getArg(0);
    return true;
  }
  return false;
}

} // namespace torchlint
