#include "rules/SyncUniqueCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void SyncUniqueCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("unique", "_unique", "_unique2", "unique_consecutive",
                                                             "unique_dim", "unique_dim_consecutive"),
                                                  isInTorchHeaders())))
                         .bind("call"),
                     this);
}

void SyncUniqueCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const FunctionDecl *FD = Call->getDirectCallee();
  const Expr *Tensor = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Tensor = MC->getImplicitObjectArgument();
  else
    for (const Expr *A : Call->arguments())
      if (!Tensor && isTensorType(A->getType()))
        Tensor = A;
  auto Site = assess(Call, Tensor, *Result.Context);
  if (!Site)
    return;
  reportSync(Call->getExprLoc(),
             FD->getNameAsString() +
                 "() returns a tensor whose size depends on the data, so the CPU waits for the GPU to "
                 "finish all queued work; when only the number of distinct values is needed, sort the "
                 "flattened tensor and count the steps on the device (torch::count_nonzero(sorted.diff()) + 1)",
             *Site);
}

} // namespace torchlint
