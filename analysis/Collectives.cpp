#include "analysis/Collectives.h"
#include "analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace torchlint {

static bool inC10d(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "c10d" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}

static bool derivesFromC10d(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || Depth > 8)
    return false;
  if (inC10d(RD->getDeclContext()))
    return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (derivesFromC10d(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

static bool isAllReduceName(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "allreduce" || N == "allreduce_coalesced" || N == "allreduce_" || N == "allreduce_coalesced_";
}

bool isAllReduceCall(const CallExpr *C) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!isAllReduceName(FD))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    return derivesFromC10d(M->getParent());
  return inC10d(FD->getDeclContext());
}

const Expr *allReduceTensors(const CallExpr *C) {
  if (!isAllReduceCall(C))
    return nullptr;
  if (isa<CXXMemberCallExpr>(C))
    return C->getNumArgs() ? C->getArg(0) : nullptr;
  // c10d::ops::allreduce(process_group, tensors, ...)
  for (const Expr *A : C->arguments()) {
    QualType T = A->getType().getNonReferenceType();
    if (const auto *RD = T->getAsCXXRecordDecl())
      if (RD->getName() == "vector" || RD->getName() == "ArrayRef")
        return A;
  }
  return nullptr;
}

namespace {

bool isGradCall(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC)
    return false;
  const CXXMethodDecl *M = MC->getMethodDecl();
  if (!M || !M->getDeclName().isIdentifier())
    return false;
  return (M->getName() == "grad" || M->getName() == "mutable_grad") &&
         isTensorType(QualType(M->getParent()->getTypeForDecl(), 0));
}

const FunctionDecl *enclosingFunction(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  for (; DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      return FD;
  return nullptr;
}

class GradFinder {
public:
  explicit GradFinder(ASTContext &Ctx) : Ctx(Ctx) {}

  bool expr(const Stmt *S, unsigned Depth) {
    if (!S || Depth > 40)
      return false;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (isGradCall(E))
        return true;
      if (const auto *R = dyn_cast<DeclRefExpr>(E))
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
          if (var(V))
            return true;
    }
    if (isa<LambdaExpr>(S))
      return false;
    for (const Stmt *C : S->children())
      if (expr(C, Depth + 1))
        return true;
    return false;
  }

  /// A local variable holds gradients.
  bool var(const VarDecl *V) {
    if (!V->isLocalVarDeclOrParm() || isa<ParmVarDecl>(V))
      return false;
    if (!Visited.insert(V).second || Visited.size() > 32)
      return false;
    if (V->getInit() && expr(V->getInit(), 0))
      return true;
    const FunctionDecl *FD = enclosingFunction(V);
    if (!FD || !FD->getBody())
      return false;
    return uses(FD->getBody(), V);
  }

private:
  bool refersTo(const Expr *E, const VarDecl *V) {
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      return R->getDecl() == V;
    return false;
  }

  /// Scans the function body for what fills V: v.push_back(g), v = g, v[i] = g, and the range
  /// of a range-for whose loop variable is V.
  bool uses(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      if (RF->getLoopVariable() == V && expr(RF->getRangeInit(), 0))
        return true;
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      if (const CXXMethodDecl *M = MC->getMethodDecl())
        if (M->getDeclName().isIdentifier() &&
            (M->getName() == "push_back" || M->getName() == "emplace_back" || M->getName() == "insert" ||
             M->getName() == "assign" || M->getName() == "append") &&
            refersTo(MC->getImplicitObjectArgument(), V))
          for (const Expr *A : MC->arguments())
            if (expr(A, 0))
              return true;
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
        const Expr *L = Op->getArg(0)->IgnoreParenImpCasts();
        if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(L))
          if (Sub->getOperator() == OO_Subscript)
            L = Sub->getArg(0);
        if (refersTo(L, V) && expr(Op->getArg(1), 0))
          return true;
      }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && refersTo(BO->getLHS(), V) && expr(BO->getRHS(), 0))
        return true;
    }
    for (const Stmt *C : S->children())
      if (uses(C, V))
        return true;
    return false;
  }

  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Visited;
};

} // namespace

bool isGradientExpr(const Expr *E, ASTContext &Ctx) {
  GradFinder F(Ctx);
  return F.expr(E, 0);
}

bool isOptimizerStep(const CallExpr *C) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(C);
  if (!MC)
    return false;
  const CXXMethodDecl *M = MC->getMethodDecl();
  if (!M || !M->getDeclName().isIdentifier() || M->getName() != "step")
    return false;
  std::function<bool(const CXXRecordDecl *, unsigned)> Derives = [&](const CXXRecordDecl *RD, unsigned D) {
    if (!RD || D > 8)
      return false;
    if (RD->getQualifiedNameAsString() == "torch::optim::Optimizer")
      return true;
    RD = RD->getDefinition();
    if (!RD)
      return false;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (Derives(B.getType()->getAsCXXRecordDecl(), D + 1))
        return true;
    return false;
  };
  return Derives(M->getParent(), 0);
}

static const BinaryOperator *remainderIn(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if (B->getOpcode() == BO_Rem)
      return B;
  return nullptr;
}

const BinaryOperator *accumulationTest(const Expr *Cond, ASTContext &Ctx) {
  if (!Cond)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (B->getOpcode() == BO_EQ) {
      if (const BinaryOperator *R = remainderIn(B->getLHS()))
        return R;
      if (const BinaryOperator *R = remainderIn(B->getRHS()))
        return R;
      return nullptr;
    }
    if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
      // `(i + 1) % N == 0 || last`: the step still happens on one iteration in N.
      if (const BinaryOperator *R = accumulationTest(B->getLHS(), Ctx))
        return R;
      return accumulationTest(B->getRHS(), Ctx);
    }
    return nullptr;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    if (U->getOpcode() == UO_LNot)
      return remainderIn(U->getSubExpr());
  // bool do_step = (i + 1) % N == 0; if (do_step) ...
  if (const auto *R = dyn_cast<DeclRefExpr>(Cond))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      if (V->isLocalVarDecl() && V->getType()->isBooleanType() && V->getInit() &&
          (V->getType().isConstQualified() || true))
        return accumulationTest(V->getInit(), Ctx);
  return nullptr;
}

} // namespace torchlint
