#include "rules/CudnnBenchmarkCheck.h"
#include "analysis/HotCode.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "core/Recovery.h"
#include "fixits/SetupFixes.h"
#include "model/TUSummary.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void CudnnBenchmarkCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isMain(), isDefinition()).bind("main"), this);
}

namespace {
/// The message, with the places of its facts: "this program runs convolutions (Conv2d at line 12)
/// on CUDA (from line 11) and trains (line 16) ...".
std::string message(llvm::StringRef Conv, llvm::StringRef ConvAt, llvm::StringRef CudaAt, llvm::StringRef TrainsAt) {
  return ("this program runs convolutions (" + Conv + " at " + ConvAt + ") on CUDA (from " + CudaAt +
          ") and trains (" + TrainsAt +
          ") without the cuDNN auto-tuner; call `at::globalContext().setBenchmarkCuDNN(true);` "
          "before training so cuDNN benchmarks its convolution algorithms once per input shape "
          "and keeps the fastest (leave it off for highly variable input shapes or when runs "
          "must be bit-reproducible)")
      .str();
}
} // namespace

void CudnnBenchmarkCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Main = Result.Nodes.getNodeAs<FunctionDecl>("main");
  ASTContext &Ctx = *Result.Context;
  if (!inUserCode(Main->getLocation(), *Result.SourceManager) || Main->getLocation().isMacroID())
    return;
  const ProgramFacts &F = ProgramFacts::get(Ctx);
  const TUFacts &T = TUFacts::get(Ctx);
  SourceLocation Cuda = T.usesCUDA();
  if (F.ConfiguresCudnn)
    return;
  // The scope of distrust (issue 24): a set-up call hidden in code with errors (an argument of an
  // unknown type makes the call a RecoveryExpr, unseen above). Errors elsewhere (a plotting
  // library's missing header) do not hide one.
  if (erroneousCodeNames(Ctx, {"setBenchmarkCuDNN", "setDeterministicCuDNN", "setDeterministicAlgorithms", "globalContext"}))
    return;
  bool HereAlone = Cuda.isValid() && F.BuildsConv && F.Trains;
  // "line 12" in main()'s file, "model.h:15" in a header (a network built or trained there).
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  auto Line = [&](SourceLocation L) { return H.placeFrom(L, Main->getLocation()); };
  std::string Own = HereAlone ? message(F.ConvName, Line(F.FirstConv), Line(Cuda), Line(F.FirstTraining)) : "";
  auto AddFix = [&](DiagnosticBuilder &D) {
    std::vector<FixItHint> Fixes;
    if (insertAtFunctionStart(Main, "at::globalContext().setBenchmarkCuDNN(true);", Ctx, Fixes))
      for (const FixItHint &H : Fixes)
        D << H;
  };
  if (projectMode()) {
    // The program decides (model/ProjectModel.h programFacts): its convolutions, CUDA use and
    // training may be in other files, and so may its cuDNN set-up.
    model::HotBasis B;
    model::Position P = model::positionOf(*Result.SourceManager, Main->getLocation());
    B.File = P.File;
    B.Line = P.Line;
    B.Column = P.Column;
    B.ProgramNeeds = {"conv", "cuda", "trains", "!cudnn"};
    B.Why = Own; // what to say if the model knows no such main()
    auto D = reportForProject(Main->getLocation(),
                              message(model::ProgramConvName, model::ProgramConvAt, model::ProgramCudaAt,
                                      model::ProgramTrainsAt),
                              B);
    AddFix(D);
    return;
  }
  if (!HereAlone)
    return;
  auto D = report(Main->getLocation(), Own);
  AddFix(D);
}

} // namespace torchlint
