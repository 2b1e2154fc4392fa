#include "TensorCoreDimsCheck.h"
#include "TUFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

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
}

void TensorCoreDimsCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Ctor = Result.Nodes.getNodeAs<CXXConstructExpr>("ctor");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (Ctor->getNumArgs() < 2 || !inUserCode(Ctor->getBeginLoc(), SM))
    return;
  const TUFacts &Facts = TUFacts::get(Ctx);
  SourceLocation Reduced = Facts.earliest(Facts.usesReducedPrecision(), Facts.usesAutocast());
  if (Reduced.isInvalid())
    return; // float32 training: Tensor Cores are not used for these ops anyway
  const CXXRecordDecl *RD = Ctor->getType()->getAsCXXRecordDecl();
  bool Linear = RD && RD->getName().starts_with("Linear");
  const char *Names[2] = {Linear ? "in_features" : "in_channels", Linear ? "out_features" : "out_channels"};
  std::string Why = Facts.usesAutocast() == Reduced ? "autocast" : "fp16/bf16";
  for (unsigned I = 0; I < 2; ++I) {
    const Expr *A = Ctor->getArg(I);
    if (isa<CXXDefaultArgExpr>(A) || A->isValueDependent() || !A->getType()->isIntegerType())
      return;
    Expr::EvalResult R;
    if (!A->EvaluateAsInt(R, Ctx))
      continue;
    int64_t V = R.Val.getInt().getSExtValue();
    // Sizes below 8 (RGB input channels, a scalar output) cannot be padded usefully.
    if (V < 8 || V % 8 == 0)
      continue;
    int64_t Padded = (V + 7) / 8 * 8;
    report(A->getBeginLoc(),
           std::string(Names[I]) + " = " + std::to_string(V) +
               " is not a multiple of 8: in " + Why + " (this file computes in reduced precision from line " +
               std::to_string(Facts.line(Reduced)) +
               ") Tensor Core kernels need matrix dimensions that are multiples of 8, so this layer falls back "
               "to slower kernels or pads on every call; pad it to " +
               std::to_string(Padded));
  }
}

} // namespace torchlint
