// The model of one translation unit alone (issue 23): per-file mode (the CLI without a compile
// database, the clang-tidy plugin and the language server without a project index) has no project
// model, and every loop of the TU counts as hot. This asks the project model's questions of this
// TU's summary only, for the one answer a single file can give safely: a loop that loads, parses
// or saves (no training step in it, directly or through the TU's calls), in code that runs once
// (main(), or a function the TU calls only from such code, outside loops), in a file whose main()
// trains, is not part of the training step. Everything else keeps the TU's own answer: a loop in
// a function that other files may call, one that holds a training loop (an epoch loop), code
// reached through calls.
#pragma once
#include "model/ProjectModel.h"
#include "model/TUSummary.h"
#include <set>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace torchlint::model {

class LocalModel {
public:
  explicit LocalModel(TUSummary S);
  /// The model of the TU of Ctx, built on first use and cached for this thread's current TU.
  static const LocalModel &get(clang::ASTContext &Ctx);

  /// True when the loop at File:Line:Column, in function FunctionUSR, is a loop of once-only code
  /// that runs no training step (see above); false when the TU cannot tell.
  bool loopRunsOnceOutsideTraining(llvm::StringRef FunctionUSR, llvm::StringRef File, unsigned Line,
                                   unsigned Column) const;
  /// The functions that run once (main(), and those called only from them outside loops).
  const std::set<std::string> &onceFunctions() const { return Once; }
  /// main() is defined in this TU and trains in it (a training step loop, directly or through the
  /// TU's calls).
  bool mainTrains() const { return MainTrains; }

private:
  TUSummary S;
  ProjectModel M;
  std::set<std::string> Once;
  bool MainTrains = false;
};

} // namespace torchlint::model
