#include "TensorCoreDimsCheck.h"
#include "LocalDataflow.h"
#include "TUFacts.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// Why the file computes in reduced precision ("fp16/bf16" or "autocast") and the line that shows
/// it; nullopt for a float32 file.
struct Reduced {
  std::string Why;
  unsigned Line;
};

std::optional<Reduced> reducedPrecision(ASTContext &Ctx) {
  const TUFacts &Facts = TUFacts::get(Ctx);
  SourceLocation R = Facts.earliest(Facts.usesReducedPrecision(), Facts.usesAutocast());
  if (R.isInvalid())
    return std::nullopt; // float32 training: Tensor Cores are not used for these ops anyway
  return Reduced{Facts.usesAutocast() == R ? "autocast" : "fp16/bf16", Facts.line(R)};
}

/// A size worth reporting: at least 8 (RGB channels, a scalar output or a tiny matrix cannot be
/// padded usefully) and not a multiple of 8.
bool misaligned(int64_t V) { return V >= 8 && V % 8 != 0; }

std::string message(llvm::StringRef What, int64_t V, const Reduced &R, llvm::StringRef Thing) {
  return What.str() + " = " + std::to_string(V) + " is not a multiple of 8: in " + R.Why +
         " (this file computes in reduced precision from line " + std::to_string(R.Line) +
         ") Tensor Core kernels need matrix dimensions that are multiples of 8, so this " + Thing.str() +
         " falls back to slower kernels or pads on every call; pad it to " + std::to_string((V + 7) / 8 * 8);
}

// ---------------------------------------------------------------------------------------------
// Compile-time shapes of tensors, proven from the AST or not at all.

using Shape = llvm::SmallVector<int64_t, 4>;
constexpr unsigned MaxDepth = 16;

/// An integer constant expression (literal, constexpr or const-initialized variable, arithmetic
/// on them), seen through c10::SymInt conversions.
std::optional<int64_t> constInt(const Expr *E, ASTContext &Ctx) {
  E = stripToWritten(E);
  if (!E || E->isValueDependent() || E->isTypeDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

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
bool isSizedFactory(llvm::StringRef N) {
  return llvm::is_contained({"zeros", "ones", "empty", "rand", "randn", "full", "randint", "normal"}, N);
}
/// Factories whose result has the shape of their first argument.
bool isLikeFactory(llvm::StringRef N) {
  return llvm::is_contained({"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like",
                             "randint_like"},
                            N);
}
/// Tensor methods whose result has the shape of the tensor they are called on.
bool isShapePreservingMethod(llvm::StringRef N) {
  return llvm::is_contained({"to", "cuda", "cpu", "contiguous", "clone", "detach",
                             "requires_grad_", "set_requires_grad", "pin_memory", "type_as", "toType"},
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
  return llvm::is_contained({"resize_", "resize_as_", "resize_as_sparse_", "sparse_resize_",
                             "sparse_resize_and_clear_", "as_strided_", "set_", "squeeze_", "unsqueeze_", "t_",
                             "transpose_", "swapdims_", "swapaxes_"},
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

void TensorCoreDimsCheck::registerMatchers(MatchFinder *Finder) {
  // Options and modules whose first two arguments are the matmul/conv sizes:
  // LinearOptions(in, out), Linear(in, out), Conv2dOptions(in, out, k), Conv2d(in, out, k), ...
  Finder->addMatcher(
      cxxConstructExpr(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(cxxRecordDecl(hasAnyName(
                           "::torch::nn::LinearOptions", "::torch::nn::Linear", "::torch::nn::LinearImpl",
                           "::torch::nn::ConvOptions", "::torch::nn::Conv1d", "::torch::nn::Conv2d",
                           "::torch::nn::Conv3d", "::torch::nn::Conv1dImpl", "::torch::nn::Conv2dImpl",
                           "::torch::nn::Conv3dImpl", "::torch::nn::ConvTransposeOptions",
                           "::torch::nn::ConvTranspose1d", "::torch::nn::ConvTranspose2d",
                           "::torch::nn::ConvTranspose3d", "::torch::nn::ConvTranspose1dImpl",
                           "::torch::nn::ConvTranspose2dImpl", "::torch::nn::ConvTranspose3dImpl")))))))
          .bind("ctor"),
      this);
  // Matrix multiplies whose operands' shapes may be provable. torch::matmul and friends are
  // at::matmul (namespace torch uses namespace at). Template patterns are matched, not their
  // instantiations, so a finding is reported once.
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::at::matmul", "::at::mm", "::at::bmm", "::at::addmm",
                                              "::at::baddbmm", "::at::linear", "::at::Tensor::matmul",
                                              "::at::Tensor::mm", "::at::Tensor::bmm", "::at::Tensor::addmm",
                                              "::at::Tensor::baddbmm", "::torch::nn::functional::linear"))),
               unless(isInTemplateInstantiation()))
          .bind("mm"),
      this);
}

void TensorCoreDimsCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Ctor = Result.Nodes.getNodeAs<CXXConstructExpr>("ctor"))
    checkModule(Ctor, *Result.Context);
  else if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("mm"))
    checkMatmul(Call, *Result.Context);
}

void TensorCoreDimsCheck::checkModule(const CXXConstructExpr *Ctor, ASTContext &Ctx) {
  if (Ctor->getNumArgs() < 2 || !inUserCode(Ctor->getBeginLoc(), Ctx.getSourceManager()))
    return;
  std::optional<Reduced> R = reducedPrecision(Ctx);
  if (!R)
    return;
  const CXXRecordDecl *RD = Ctor->getType()->getAsCXXRecordDecl();
  bool Linear = RD && RD->getName().starts_with("Linear");
  const char *Names[2] = {Linear ? "in_features" : "in_channels", Linear ? "out_features" : "out_channels"};
  for (unsigned I = 0; I < 2; ++I) {
    const Expr *A = Ctor->getArg(I);
    if (isa<CXXDefaultArgExpr>(A) || A->isValueDependent() || !A->getType()->isIntegerType())
      return;
    Expr::EvalResult ER;
    if (!A->EvaluateAsInt(ER, Ctx))
      continue;
    int64_t V = ER.Val.getInt().getSExtValue();
    if (misaligned(V))
      report(A->getBeginLoc(), message(Names[I], V, *R, "layer"));
  }
}

void TensorCoreDimsCheck::checkMatmul(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  SourceLocation Loc = MC ? MC->getExprLoc() : Call->getBeginLoc(); // `x.matmul` at matmul
  if (!FD || !FD->getDeclName().isIdentifier() || !inUserCode(Loc, Ctx.getSourceManager()))
    return;
  std::optional<Reduced> R = reducedPrecision(Ctx);
  if (!R)
    return;
  llvm::StringRef Op = FD->getName();

  // The operands, as (self, other...) whether called as a function or as a method.
  llvm::SmallVector<const Expr *, 3> Args;
  if (MC) {
    if (!MC->getImplicitObjectArgument())
      return;
    Args.push_back(MC->getImplicitObjectArgument());
  }
  for (const Expr *A : Call->arguments())
    Args.push_back(A);

  ShapeProver P(Ctx);
  llvm::SmallVector<std::pair<std::string, int64_t>, 3> Dims; // in the order M, K, N
  if (Op == "linear") {
    // linear(input, weight, bias): weight is [out_features N, in_features K]; the rows of the
    // input (often a batch of runtime size) are not needed to know N and K.
    if (Args.size() < 2)
      return;
    std::optional<Shape> W = P.shapeOf(Args[1]);
    if (!W || W->size() != 2)
      return;
    Dims.push_back({"linear in_features K", (*W)[1]});
    Dims.push_back({"linear out_features N", (*W)[0]});
  } else {
    // matmul/mm/bmm(a, b); addmm/baddbmm(input, a, b): a is [..., M, K], b is [..., K, N].
    unsigned First = (Op == "addmm" || Op == "baddbmm") ? 1 : 0;
    if (Args.size() < First + 2)
      return;
    std::optional<Shape> A = P.shapeOf(Args[First]);
    if (!A)
      return;
    std::optional<Shape> B = P.shapeOf(Args[First + 1]);
    if (!B)
      return;
    size_t Rank = (Op == "mm" || Op == "addmm") ? 2 : (Op == "bmm" || Op == "baddbmm") ? 3 : 0;
    if (Rank ? (A->size() != Rank || B->size() != Rank) : (A->size() < 2 || B->size() < 2))
      return; // a wrong rank throws; matmul of a vector is a matrix-vector product or a dot
    int64_t M = (*A)[A->size() - 2], K = A->back(), KB = (*B)[B->size() - 2], N = B->back();
    if (K != KB)
      return; // throws at run time: not ours to report
    Dims.push_back({Op.str() + " rows M", M});
    Dims.push_back({Op.str() + " inner dimension K", K});
    Dims.push_back({Op.str() + " columns N", N});
  }
  for (const auto &[What, V] : Dims)
    if (misaligned(V))
      report(Loc, message(What, V, *R, "matrix multiply"));
}

} // namespace torchlint
