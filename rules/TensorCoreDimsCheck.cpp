#include "rules/TensorCoreDimsCheck.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TUFacts.h"
#include "analysis/TensorShapes.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
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

} // namespace

void TensorCoreDimsCheck::registerMatchers(MatchFinder *Finder) {
  // Options and modules whose first two arguments are the matmul/conv sizes:
  // LinearOptions(in, out), Linear(in, out), Conv2dOptions(in, out, k), Conv2d(in, out, k), ...
  Finder->addMatcher(
      cxxConstructExpr(
          hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(cxxRecordDecl(hasAnyName(
              "::torch::nn::LinearOptions", "::torch::nn::Linear", "::torch::nn::LinearImpl",
              "::torch::nn::ConvOptions", "::torch::nn::Conv1d", "::torch::nn::Conv2d", "::torch::nn::Conv3d",
              "::torch::nn::Conv1dImpl", "::torch::nn::Conv2dImpl", "::torch::nn::Conv3dImpl",
              "::torch::nn::ConvTransposeOptions", "::torch::nn::ConvTranspose1d", "::torch::nn::ConvTranspose2d",
              "::torch::nn::ConvTranspose3d", "::torch::nn::ConvTranspose1dImpl", "::torch::nn::ConvTranspose2dImpl",
              "::torch::nn::ConvTranspose3dImpl")))))))
          .bind("ctor"),
      this);
  // Matrix multiplies whose operands' shapes may be provable. torch::matmul and friends are
  // at::matmul (namespace torch uses namespace at). Template patterns are matched, not their
  // instantiations, so a finding is reported once.
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(
                                  "::at::matmul", "::at::mm", "::at::bmm", "::at::addmm", "::at::baddbmm",
                                  "::at::linear", "::at::Tensor::matmul", "::at::Tensor::mm", "::at::Tensor::bmm",
                                  "::at::Tensor::addmm", "::at::Tensor::baddbmm", "::torch::nn::functional::linear"))),
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

  llvm::SmallVector<std::pair<std::string, int64_t>, 3> Dims; // in the order M, K, N
  if (Op == "linear") {
    // linear(input, weight, bias): weight is [out_features N, in_features K]; the rows of the
    // input (often a batch of runtime size) are not needed to know N and K.
    if (Args.size() < 2)
      return;
    std::optional<Shape> W = provenShape(Args[1], Ctx);
    if (!W || W->size() != 2)
      return;
    Dims.push_back({"linear in_features K", (*W)[1]});
    Dims.push_back({"linear out_features N", (*W)[0]});
  } else {
    // matmul/mm/bmm(a, b); addmm/baddbmm(input, a, b): a is [..., M, K], b is [..., K, N].
    unsigned First = (Op == "addmm" || Op == "baddbmm") ? 1 : 0;
    if (Args.size() < First + 2)
      return;
    std::optional<Shape> A = provenShape(Args[First], Ctx);
    if (!A)
      return;
    std::optional<Shape> B = provenShape(Args[First + 1], Ctx);
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
