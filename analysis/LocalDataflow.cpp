#include "analysis/LocalDataflow.h"
#include "analysis/HotCode.h"
#include "analysis/TorchTypes.h"
#include "core/PerTU.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

using namespace clang;

namespace torchlint {

namespace {

class RefFinder : public RecursiveASTVisitor<RefFinder> {
public:
  RefFinder(const VarDecl *VD, ASTContext &Ctx, VarValues &Out, unsigned Depth = 0)
      : VD(VD), Ctx(Ctx), HC(HotCodeAnalysis::get(Ctx)), Out(Out), Depth(Depth) {}

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (S->getLoopVariable() == VD)
      RangeFor = true;
    return true;
  }
  bool RangeFor = false;
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() != VD || Escaped)
      return true;
    classify(DRE);
    return true;
  }

private:
  void escape() { Escaped = true; }

public:
  bool Escaped = false;

private:
  void classify(const Expr *Use) {
    // Walk up through parens and implicit nodes to the expression that uses the variable.
    const Expr *E = Use;
    while (true) {
      const Stmt *PS = HC.parentOf(E);
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(PS)) {
        // `Tensor &r = t;`: r writes t from now on.
        for (const Decl *D : DS->decls())
          if (const auto *R = dyn_cast<VarDecl>(D))
            if (R->getInit() && R->getInit()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
                nonConstRef(R->getType()))
              return escape();
        return;
      }
      const auto *P = dyn_cast_or_null<Expr>(PS);
      if (!P)
        return; // a statement (e.g. return t;): a read
      if (isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr>(P)) {
        if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
          if (IC->getCastKind() != CK_NoOp && IC->getCastKind() != CK_LValueToRValue &&
              IC->getCastKind() != CK_UncheckedDerivedToBase && IC->getCastKind() != CK_DerivedToBase)
            return;
        E = P;
        continue;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
        if (Op->getNumArgs() >= 1 && Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
          if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
            Out.Values.push_back(Op->getArg(1));
            return;
          }
          if (Op->getOperator() == OO_Amp && Op->getNumArgs() == 1)
            return escape();
          return; // t += x, t[i], t == x: device and dtype kept
        }
        checkArgument(Op, E);
        return;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
        if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
          if (BO->getOpcode() == BO_Assign)
            Out.Values.push_back(BO->getRHS());
          else
            escape();
        }
        return;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
        if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
          escape();
        return;
      }
      if (const auto *ME = dyn_cast<MemberExpr>(P)) {
        // t.set_(...), t.swap(...), t.resize_(...): the variable stops being what it was made as.
        if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
          if (MD->getDeclName().isIdentifier() &&
              llvm::is_contained({"set_", "swap", "resize_", "resize_as_", "unsqueeze_", "squeeze_", "t_", "transpose_",
                                  "as_strided_", "swapdims_", "swapaxes_"},
                                 MD->getName()))
            escape();
        return;
      }
      if (const auto *C = dyn_cast<CallExpr>(P)) {
        checkArgument(C, E);
        return;
      }
      if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
        const CXXConstructorDecl *Ctor = CE->getConstructor();
        if (Ctor && isTorchDecl(Ctor))
          return; // TensorOptions(device), Device(...): forwarding references, no modification
        for (unsigned I = 0; Ctor && I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I)
          if (CE->getArg(I)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
              nonConstRef(Ctor->getParamDecl(I)->getType()) && !Ctor->isCopyOrMoveConstructor())
            escape();
        return;
      }
      if (isa<LambdaExpr>(P))
        return; // capture: its uses inside the body are visited on their own
      return;
    }
  }

  static bool nonConstRef(QualType T) {
    if (const auto *R = T->getAs<ReferenceType>())
      return !R->getPointeeType().isConstQualified();
    return false;
  }

  /// The parameter type as written in FD's template pattern (Args&&... for a pack).
  static QualType writtenParamType(const FunctionDecl *FD, unsigned PI) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    if (!Pattern || Pattern->getNumParams() == 0)
      return FD->getParamDecl(PI)->getType();
    for (unsigned I = 0; I < Pattern->getNumParams(); ++I)
      if (Pattern->getParamDecl(I)->isParameterPack() || I == PI)
        return Pattern->getParamDecl(I)->getType();
    return FD->getParamDecl(PI)->getType();
  }

  void checkArgument(const CallExpr *C, const Expr *E) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD) {
      escape();
      return;
    }
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
      if (C->getArg(I)->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
        continue;
      unsigned PI = I - Shift;
      if (PI >= FD->getNumParams()) {
        escape(); // variadic
        return;
      }
      if (!nonConstRef(FD->getParamDecl(PI)->getType()))
        continue;
      if (isTorchDecl(FD)) {
        // libtorch takes devices and options by forwarding reference (TensorOptions::device(
        // Args&&...)) without modifying them; a parameter written as a non-const lvalue reference
        // is written to: *_out variants, torch::load(value, ...), InputArchive::read(key, tensor).
        QualType W = writtenParamType(FD, PI);
        if (W->isLValueReferenceType() && !W->getPointeeType().isConstQualified())
          escape();
        continue;
      }
      followOutParameter(FD, PI);
    }
  }

  /// VD is passed by non-const reference to parameter PI of user function FD. When FD's body is
  /// in the TU, what it assigns to the parameter are more values of VD (an out-parameter filled
  /// by `out = ...`), and in-place writes (out.copy_(src), writes through data_ptr()) keep VD's
  /// device and dtype. Without a body, or when the parameter escapes again there, VD escapes.
  void followOutParameter(const FunctionDecl *FD, unsigned PI) {
    const FunctionDecl *Def = FD->getDefinition();
    if (Def && Ctx.getSourceManager().isInSystemHeader(Ctx.getSourceManager().getExpansionLoc(Def->getLocation())))
      Def = nullptr; // std::swap(a, b) and the like: not analysed, so not followed
    const ParmVarDecl *P = Def && Def->getBody() && PI < Def->getNumParams() ? Def->getParamDecl(PI) : nullptr;
    if (!P || Depth >= 4 || Def->isVariadic()) {
      escape();
      return;
    }
    VarValues Inner;
    RefFinder F(P, Ctx, Inner, Depth + 1);
    F.TraverseStmt(Def->getBody());
    if (F.Escaped || F.RangeFor) {
      escape();
      return;
    }
    Out.Values.insert(Out.Values.end(), Inner.Values.begin(), Inner.Values.end());
  }

  const VarDecl *VD;
  ASTContext &Ctx;
  const HotCodeAnalysis &HC;
  VarValues &Out;
  unsigned Depth; // out-parameters followed into callees so far
};

/// The values of every local variable asked about in a TU.
struct ValuesCache {
  llvm::DenseMap<const VarDecl *, VarValues> Map;
};

} // namespace

const VarValues &valuesOf(const VarDecl *VD, ASTContext &Ctx) {
  // Per TU: a later TU whose ASTContext reuses the address never sees another TU's VarDecls.
  llvm::DenseMap<const VarDecl *, VarValues> &Cache = perTU<ValuesCache>(Ctx).Map;
  auto It = Cache.find(VD);
  if (It != Cache.end())
    return It->second;
  VarValues V;
  if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
    const auto *PF = dyn_cast_or_null<FunctionDecl>(PV->getDeclContext());
    if (PF && PF->getBody() && !PV->getType()->isReferenceType()) {
      RefFinder F(VD, Ctx, V);
      F.TraverseStmt(PF->getBody());
      V.Written = F.Escaped || !V.Values.empty();
    } else {
      V.Written = true;
    }
    V.Values.clear();
    return Cache[VD] = std::move(V);
  }
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  bool Local =
      VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && FD && FD->getBody() && !VD->getType()->isReferenceType();
  if (Local) {
    V.Known = true;
    const Expr *Init = VD->getInit();
    if (Init) {
      const Expr *S = stripCopies(Init);
      const auto *CE = dyn_cast<CXXConstructExpr>(S);
      if (CE && CE->getNumArgs() == 0)
        V.DefaultInit = true;
      else
        V.Values.push_back(Init);
    } else {
      V.DefaultInit = true;
    }
    size_t Initial = V.Values.size();
    RefFinder F(VD, Ctx, V);
    F.TraverseStmt(FD->getBody());
    V.Written = F.Escaped || V.Values.size() > Initial;
    // Escaped, or a range-for loop variable (its initializer is the iterator's *).
    if (F.Escaped || F.RangeFor)
      V.Known = false;
  } else {
    V.Written = true;
  }
  return Cache[VD] = std::move(V);
}

} // namespace torchlint
