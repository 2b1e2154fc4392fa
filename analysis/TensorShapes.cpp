#include "analysis/TensorShapes.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TorchTypes.h"
#include "utils/ExprStrip.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchlint {

namespace {

constexpr unsigned MaxDepth = 16;

} // namespace

std::optional<int64_t> constInt(const Expr *E, ASTContext &Ctx) {
  E = stripToWritten(E);
  if (!E || E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

namespace {

/// c10::ArrayRef<integer> (IntArrayRef) or its 2.x base HeaderOnlyArrayRef, through references.
bool isIntArrayRef(QualType T) {
  const auto *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !isTorchDecl(Spec) || !Spec->getDeclName().isIdentifier() ||
      (Spec->getName() != "ArrayRef" && Spec->getName() != "HeaderOnlyArrayRef"))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type && Args[0].getAsType()->isIntegerType();
}

/// The sizes of an IntArrayRef argument written as a brace list of constants (`{64, 300}`,
/// `at::IntArrayRef{64, 300}`) or a single constant (`300`).
std::optional<Shape> constSizes(const Expr *E, ASTContext &Ctx) {
  for (unsigned Guard = 0; E && Guard < 16; ++Guard) {
    E = stripCopies(E);
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      Shape S;
      for (const Expr *Init : IL->inits()) {
        std::optional<int64_t> V = constInt(Init, Ctx);
        if (!V || *V < 0)
          return std::nullopt;
        S.push_back(*V);
      }
      return S;
    }
    if (const auto *SL = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = SL->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!isIntArrayRef(CE->getType()) || CE->getNumArgs() != 1)
        return std::nullopt;
      const Expr *A = CE->getArg(0);
      if (A->IgnoreParenImpCasts()->getType()->isIntegerType()) { // ArrayRef(const T &OneElt)
        std::optional<int64_t> V = constInt(A, Ctx);
        if (!V || *V < 0)
          return std::nullopt;
        return Shape{*V};
      }
      E = A;
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// Factories whose IntArrayRef parameter is the shape of the result.
bool isSizedFactory(llvm::StringRef N) { return tensorFactoryKind(N).Sized; }
/// Factories whose result has the shape of their first argument.
bool isLikeFactory(llvm::StringRef N) { return tensorFactoryKind(N).Like; }
/// Tensor methods whose result has the shape of the tensor they are called on.
bool isShapePreservingMethod(llvm::StringRef N) {
  return llvm::is_contained({"to", "cuda", "cpu", "contiguous", "clone", "detach", "requires_grad_",
                             "set_requires_grad", "pin_memory", "type_as", "toType"},
                            N);
}

/// Swaps dimensions D0 and D1 (negative counts from the end); false when they are out of range.
bool swapDims(Shape &S, std::optional<int64_t> D0, std::optional<int64_t> D1) {
  int64_t R = static_cast<int64_t>(S.size());
  if (!D0 || !D1)
    return false;
  int64_t A = *D0 < 0 ? *D0 + R : *D0, B = *D1 < 0 ? *D1 + R : *D1;
  if (A < 0 || B < 0 || A >= R || B >= R)
    return false;
  std::swap(S[A], S[B]);
  return true;
}

/// In-place ops that change a tensor's shape, as methods or as libtorch free functions.
bool isReshapingInPlace(llvm::StringRef N) {
  return llvm::is_contained({"resize_", "resize_as_", "resize_as_sparse_", "sparse_resize_", "sparse_resize_and_clear_",
                             "as_strided_", "set_", "squeeze_", "unsqueeze_", "t_", "transpose_", "swapdims_",
                             "swapaxes_"},
                            N);
}

/// What LocalDataflow does not rule out for shapes: `at::resize_as_(w, x)` (libtorch free
/// functions are taken as non-modifying there) and a non-const reference bound to the variable
/// (`auto &alias = w;`), through which it can be reassigned. Run only on a variable whose
/// initializer already has a provable shape.
class ReshapeFinder : public RecursiveASTVisitor<ReshapeFinder> {
public:
  explicit ReshapeFinder(const VarDecl *VD) : VD(VD) {}
  bool Found = false;

  bool VisitCallExpr(CallExpr *C) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(C->getCalleeDecl());
    if (!FD || !FD->getDeclName().isIdentifier() || !isReshapingInPlace(FD->getName()))
      return true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Found |= refersToVar(MC->getImplicitObjectArgument());
    for (const Expr *A : C->arguments())
      Found |= refersToVar(A);
    return !Found;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (D != VD && D->getInit() && D->getType()->isReferenceType() &&
        !D->getType().getNonReferenceType().isConstQualified() && refersToVar(D->getInit()))
      Found = true;
    return !Found;
  }

private:
  bool refersToVar(const Expr *E) const {
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? stripCopies(E) : nullptr);
    return DRE && DRE->getDecl() == VD;
  }
  const VarDecl *VD;
};

class ShapeProver {
public:
  explicit ShapeProver(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The shape of tensor expression E when every dimension is a compile-time constant and every
  /// step from the factory that made it is understood; nullopt otherwise.
  std::optional<Shape> shapeOf(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > MaxDepth)
      return std::nullopt;
    E = stripCopies(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !isTensorType(VD->getType()))
        return std::nullopt;
      // Only a local made once and never assigned, swapped, resized or passed by non-const
      // reference: otherwise the value at the use is not provably the one it was made with.
      const VarValues &V = valuesOf(VD, Ctx);
      if (!V.Known || V.Written || V.DefaultInit || V.Values.size() != 1)
        return std::nullopt;
      std::optional<Shape> S = shapeOf(V.Values.front(), Depth + 1);
      const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
      if (!S || !FD || !FD->getBody())
        return std::nullopt;
      ReshapeFinder F(VD);
      F.TraverseStmt(FD->getBody());
      if (F.Found)
        return std::nullopt;
      return S;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj || !isTorchDecl(MD) || !MD->getDeclName().isIdentifier() || !isTensorType(Obj->getType()))
        return std::nullopt;
      return method(MD->getName(), Obj, MC->getNumArgs(), MC->getArgs(), Depth);
    }
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C || isa<CXXOperatorCallExpr>(C))
      return std::nullopt;
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !isTorchDecl(FD) || !FD->getDeclName().isIdentifier() || isa<CXXMethodDecl>(FD))
      return std::nullopt;
    llvm::StringRef N = FD->getName();
    if (isSizedFactory(N)) {
      for (unsigned I = 0; I < FD->getNumParams(); ++I)
        if (isIntArrayRef(FD->getParamDecl(I)->getType()))
          return I < C->getNumArgs() ? constSizes(C->getArg(I), Ctx) : std::nullopt;
      return std::nullopt;
    }
    if (N == "eye") { // eye(n) is n x n, eye(n, m) is n x m
      if (C->getNumArgs() < 1)
        return std::nullopt;
      std::optional<int64_t> Rows = constInt(C->getArg(0), Ctx), Cols = Rows;
      if (C->getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(C->getArg(1)) &&
          !isTensorOptionsType(C->getArg(1)->getType()))
        Cols = constInt(C->getArg(1), Ctx);
      if (!Rows || !Cols || *Rows < 0 || *Cols < 0)
        return std::nullopt;
      return Shape{*Rows, *Cols};
    }
    if (isLikeFactory(N))
      return C->getNumArgs() >= 1 ? shapeOf(C->getArg(0), Depth + 1) : std::nullopt;
    // torch::t(x), torch::transpose(x, 0, 1): the free forms of the methods.
    if ((N == "t" || N == "transpose" || N == "swapdims" || N == "swapaxes") && C->getNumArgs() >= 1)
      return method(N, C->getArg(0), C->getNumArgs() - 1, C->getArgs() + 1, Depth);
    return std::nullopt;
  }

private:
  std::optional<Shape> method(llvm::StringRef N, const Expr *Obj, unsigned NumArgs, const Expr *const *Args,
                              unsigned Depth) {
    if (isShapePreservingMethod(N))
      return shapeOf(Obj, Depth + 1);
    if (N == "t" && NumArgs == 0) { // 0-D and 1-D unchanged, 2-D transposed, anything else throws
      std::optional<Shape> S = shapeOf(Obj, Depth + 1);
      if (!S || S->size() > 2)
        return std::nullopt;
      if (S->size() == 2)
        std::swap((*S)[0], (*S)[1]);
      return S;
    }
    if (N == "mT" && NumArgs == 0) {
      std::optional<Shape> S = shapeOf(Obj, Depth + 1);
      if (!S || S->size() < 2)
        return std::nullopt;
      std::swap((*S)[S->size() - 2], (*S)[S->size() - 1]);
      return S;
    }
    if ((N == "transpose" || N == "swapdims" || N == "swapaxes") && NumArgs == 2) {
      std::optional<Shape> S = shapeOf(Obj, Depth + 1);
      if (!S || !swapDims(*S, constInt(Args[0], Ctx), constInt(Args[1], Ctx)))
        return std::nullopt;
      return S;
    }
    return std::nullopt;
  }

  ASTContext &Ctx;
};

} // namespace

std::optional<Shape> provenShape(const Expr *E, ASTContext &Ctx) { return ShapeProver(Ctx).shapeOf(E); }

} // namespace torchlint
