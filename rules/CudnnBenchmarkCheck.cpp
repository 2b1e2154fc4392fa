#include "rules/CudnnBenchmarkCheck.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "fixits/SetupFixes.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void CudnnBenchmarkCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isMain(), isDefinition()).bind("main"), this);
}

void CudnnBenchmarkCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Main = Result.Nodes.getNodeAs<FunctionDecl>("main");
  ASTContext &Ctx = *Result.Context;
  if (!inUserCode(Main->getLocation(), *Result.SourceManager) || Main->getLocation().isMacroID())
    return;
  const ProgramFacts &F = ProgramFacts::get(Ctx);
  const TUFacts &T = TUFacts::get(Ctx);
  SourceLocation Cuda = T.usesCUDA();
  if (Cuda.isInvalid() || !F.BuildsConv || !F.Trains || F.ConfiguresCudnn)
    return;
  auto D = report(Main->getLocation(),
                  "this program runs convolutions (" + F.ConvName + " at line " + std::to_string(T.line(F.FirstConv)) +
                      ") on CUDA (from line " + std::to_string(T.line(Cuda)) + ") and trains (line " +
                      std::to_string(T.line(F.FirstTraining)) +
                      ") without the cuDNN auto-tuner; call `at::globalContext().setBenchmarkCuDNN(true);` "
                      "before training so cuDNN benchmarks its convolution algorithms once per input shape "
                      "and keeps the fastest (leave it off for highly variable input shapes or when runs "
                      "must be bit-reproducible)");
  std::vector<FixItHint> Fixes;
  if (insertAtFunctionStart(Main, "at::globalContext().setBenchmarkCuDNN(true);", Ctx, Fixes))
    for (const FixItHint &H : Fixes)
      D << H;
}

} // namespace torchlint
