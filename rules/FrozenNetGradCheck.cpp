#include "rules/FrozenNetGradCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void FrozenNetGradCheck::registerMatchers(MatchFinder *Finder) {
  // TODO: match the anti-pattern from the AST (types and declarations, never names of the user's
  // variables), e.g. a libtorch function called from the user's code:
  //   Finder->addMatcher(callExpr(callee(functionDecl(hasName("..."), isInTorchHeaders()))).bind("call"), this);
  // The shared analyses (docs/dev/adding-a-check.md) answer the usual questions: is it hot, on
  // which device, which dtype, which option value reaches it.
  (void)Finder;
}

void FrozenNetGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!Call || !inUserCode(Call->getExprLoc(), *Result.SourceManager))
    return;
  auto Hot = hotContext(Call, *Result.Context);
  if (!Hot)
    return; // code that runs once costs nothing per step
  // TODO: the message says what happens, what it costs and what to write instead.
  report(Call->getExprLoc(), "TODO: what happens, what it costs, what to write instead", Hot);
}

} // namespace torchlint
