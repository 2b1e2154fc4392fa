#include "rules/AmpCheck.h"
#include "analysis/TUFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void AmpCheck::registerMatchers(MatchFinder *Finder) {
  // The backward pass of a training step: loss.backward() or torch::autograd::backward(...).
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("backward"), isTensorMethod()))).bind("call"),
                     this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::autograd::backward")))).bind("call"), this);
}

void AmpCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const SourceManager &SM = *Result.SourceManager;
  if (!inUserCode(Call->getExprLoc(), SM))
    return;
  if (!hotContext(Call, *Result.Context))
    return; // a backward pass outside the training loop
  if (First && !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Call->getExprLoc()), SM.getExpansionLoc(FirstLoc)))
    return;
  First = Call;
  FirstLoc = Call->getExprLoc();
  Ctx = Result.Context;
}

void AmpCheck::onEndOfTranslationUnit() {
  if (!First || !Ctx)
    return;
  const TUFacts &Facts = TUFacts::get(*Ctx);
  SourceLocation Cuda = Facts.usesCUDA();
  if (Cuda.isInvalid() || Facts.usesAutocast().isValid() || Facts.usesReducedPrecision().isValid())
    return;
  std::string Enable = torchVersion().atLeast(2, 0) ? "at::autocast::set_autocast_enabled(at::kCUDA, true)"
                                                    : "at::autocast::set_enabled(true)";
  report(FirstLoc,
         "this CUDA training loop (CUDA from line " + std::to_string(Facts.line(Cuda)) +
             ") computes in float32 and the file never enables autocast: mixed precision runs "
             "matmuls and convolutions on Tensor Cores, up to 3x faster on Volta and newer GPUs; "
             "enable it around forward and loss (" +
             Enable + " from <ATen/autocast_mode.h>, scaling the loss when using fp16)",
         hotContext(First, *Ctx));
  First = nullptr;
}

} // namespace torchlint
