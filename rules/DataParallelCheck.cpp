#include "rules/DataParallelCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void DataParallelCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::nn::parallel::data_parallel")))).bind("call"),
                     this);
}

void DataParallelCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!inUserCode(Call->getExprLoc(), *Result.SourceManager))
    return;
  auto Hot = hotContext(Call, *Result.Context);
  if (!Hot)
    return;
  report(Call->getExprLoc(),
         "torch::nn::parallel::data_parallel replicates the module onto every GPU, scatters the input and "
         "gathers the outputs on one device on every call, all from one process; run one process per GPU and "
         "all-reduce the gradients instead (the DistributedDataParallel design), which scales much better",
         Hot);
}

} // namespace torchlint
