// The model of one translation unit alone (issue 23): per-file mode (the CLI without a compile
// database, the clang-tidy plugin and the language server without a project index) has no project
// model, and every loop of the TU counts as hot. This asks the project model's questions of this
// TU's summary only, for the one answer a single file can give safely, in a file that trains (one
// of its functions holds a training step loop):
//  - code that runs once per run or per epoch: main(), a function that holds the training loop
//    (Trainer::train(), ExpRunner::Execute()), and a function this file calls only from such code,
//    outside loops or in loops that run no step (an evaluation pass after training, the images
//    loaded by a data set's constructor before it), transitively;
//  - there, a loop that is not a step loop (no step call on each iteration, nor in a loop around
//    it: loading, parsing, saving, writing test images, an epoch loop) is not part of the training
//    step, and neither is what it calls.
// A function this file calls only from such code or under a logging branch (`if (step % N == 0)
// visualize(i);`), and at least once so, runs on some steps only (rareOnly): the sync checks
// treat its code as the project model does (nothing outside its loops when it runs at most once
// per logging interval, a remark inside them).
// In any file, trained in or not, a data set's constructor (`ImageDataset::ImageDataset`, a class
// named for a data set or a loader) loads once per data set, wherever the step is: it is such code
// too, and so is what only it calls (f2-nerf's Dataset::Dataset reads its images in a loop).
// Everything else keeps the TU's own answer: a function no code of this file calls (another file
// may call it per step), one reached through a virtual call or overriding another, forward(), the
// rest of a file that does not train.
#pragma once
#include "model/ProjectModel.h"
#include "model/TUSummary.h"
#include <map>
#include <optional>
#include <set>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace torchlint {
struct HostAssumptions;
} // namespace torchlint

namespace torchlint::model {

/// "Dataset::Dataset", "ImageLoader::ImageLoader": the constructor of a class whose name says it
/// is a data set or a loader.
bool isDataSetConstructor(llvm::StringRef QualifiedName);

class LocalModel {
public:
  explicit LocalModel(TUSummary S);
  /// The model of the TU of Ctx, built on first use and cached for this thread's current TU.
  static const LocalModel &get(clang::ASTContext &Ctx);

  /// True when code of function FunctionUSR, inside the loop at Loop (its innermost loop in that
  /// function; none: outside its loops), does not run per training step (see above); false when
  /// the TU cannot tell.
  bool outsideTraining(llvm::StringRef FunctionUSR, const std::optional<Position> &Loop) const;
  /// The functions that run once per run or per epoch, and those called only from them outside
  /// step loops (see above).
  const std::set<std::string> &notPerStep() const { return NotPerStep; }
  /// Some function of this TU holds a training step loop.
  bool trains() const { return Trains; }

  /// How a function reached from the training step only through logging branches runs.
  struct Rare {
    /// "ExpRunner::VisualizeImage() is called at runner.cpp:154, where it only runs in the
    /// logging branch `if (iter % vis_freq == 0)` at line 149".
    std::string Why;
    /// No loop on the way from the branch to the function: it runs at most once per interval.
    bool OncePerInterval = true;
  };
  /// Set for a function that this TU calls only outside training (see notPerStep) or under a
  /// logging branch, at least once under one; nullptr otherwise (or when the TU cannot tell).
  const Rare *rareOnly(llvm::StringRef FunctionUSR) const;

  /// Whether a host answer that rests on fields (analysis/DeviceProvenance.h HostAssumptions,
  /// asked without AcrossFiles) holds in this TU alone: each field is of a class defined in the
  /// main file (no other file can write it) and every write of it here stores host tensors,
  /// chains through other such fields and this file's calls resolved as the project model does.
  bool hostInThisFile(const HostAssumptions &If, clang::ASTContext &Ctx) const;

private:
  /// The loop at P is known and neither it nor a loop around it is a step loop.
  bool quietLoop(const Position &P) const;

  ProjectModel M;
  std::set<std::string> NotPerStep;
  std::map<std::string, Rare> RareOnly;
  bool Trains = false;
};

} // namespace torchlint::model
