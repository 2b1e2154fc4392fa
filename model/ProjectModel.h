// The project model (issue 23): the summaries of every translation unit of a compile database
// (TUSummary.h) merged into one call graph, and the one answer to "does this run on every training
// step?" for the whole program.
//
// - A step call is a module's forward(), backward(), an optimizer's step() or a loss.
// - A function does a step when it makes a step call outside its loops, or calls (outside its
//   loops) a function that does.
// - A step loop is a loop whose body, directly or through calls across files (virtual calls reach
//   every override the project defines), runs a step call on every iteration: a step call, or a
//   call of a function that does a step, whose innermost loop (past loops over the parameters or
//   a braced list) is this loop. A loop that only loads, parses or saves is not a step loop,
//   wherever it is; a loop that holds a training step loop (one that runs backward() or an
//   optimizer's step(); nested, or in a function it calls on every iteration) runs once per epoch
//   and is not one either. A loop that calls it only under a condition (`if (t % 2048 == 0)
//   update(...)`: a rollout) stays a step loop when it runs a step itself. A loop that only runs forward() (a recurrent network's loop over time steps, called
//   from the training step) makes no loop around it an epoch loop.
// - Hot: forward() of a module and what it calls; a call in a step loop (or in any loop inside
//   one) and what it reaches, transitively. A unit-test body makes nothing hot.
// - Fields: a tensor field (or a field holding tensors) lives on the host when every TU that
//   writes it stores only provably host tensors (a loader's `images_` filled from `.to(kCPU)`
//   images); a sync finding on tensors read from such fields only is dropped (resolve()). A field
//   no TU of the database writes, or writes in a way not followed, is not known.
// - Widened host tensors: a function or a field whose tensors (return values, values written, in
//   every TU) are all widened on the host from one narrow dtype (`from_blob(..., kByte).toType(
//   kFloat32) / 255`), directly or through other such functions and fields; a copy to the device
//   of what they yield is reported by torch-host-convert-then-copy only then (resolve()).
// - Programs: a TU that defines main() belongs to that program; a TU that defines none belongs to
//   each program that calls into it: a function its own file defines (or an override of one) is called from
//   the program's TUs, transitively (a tutorial collection's model file counts only for the
//   tutorial that uses it). A program's facts (convolutions, CUDA, training, cuDNN set-up:
//   TUSummary.h ProgramSites) are those of its TUs (programFacts); torch-cudnn-benchmark decides on
//   them.
// - Gradients: a user function needs gradients when its TU says so, or when a function it calls
//   whose body is in another TU does, or when that function is defined in no TU and is handed a
//   tensor (needsGradients).
// - CUDA: the program uses CUDA when some TU does (analysis/TUFacts.h usesCUDA); advice that
//   matters only on a GPU, found in a TU that does not name CUDA itself (a model's .cpp), is kept
//   only then.
//
// Bad input gives notes, never a crash, and the model is built from the rest: a summary of
// another format is ignored. A function defined at two places (several executables in one
// database, each with its own main() and helpers) is two functions: a TU's calls reach the
// definition it holds (else the first), and a finding is resolved against its file's definition.
#pragma once
#include "core/Findings.h"
#include "model/TUSummary.h"
#include "llvm/ADT/STLExtras.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace torchlint::model {

/// One step of the path that makes a function hot: a call, where it is, what it calls.
struct PathStep {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

struct Hot {
  /// "in Metrics::update() (metrics.cpp), called on every step of the loop in Trainer::fit() at
  /// trainer.cpp:212", "in Net::forward() (model.cpp), which runs on every forward pass".
  std::string Why;
  /// The calls from the step loop (or forward()) to the function, outermost first.
  std::vector<PathStep> Path;
  /// Non-empty when every path from a step loop to the function passes a call under a logging
  /// branch (`if (step % N == 0)`) or assert(): why it runs only on some steps ("Model::save() is
  /// called at opensplat.cpp:174, where it only runs in the logging branch `if (step % saveEvery
  /// == 0)` at line 172").
  /// The sync checks report such code as remarks, as they do within one file.
  std::string Rare;
  /// Rare, and no loop on the path from the logging branch to the function (Call::RareOnce, then
  /// calls outside any loop of their caller): the function runs at most once per logging
  /// interval, and a sync in it outside its own loops is not reported (the advice itself).
  bool RareOnce = false;
};

/// Where the tensors of a function or a field were widened on the host (ProjectModel::widenedHost).
struct Widening {
  std::string From, To; // ScalarType names ("Byte", "Float")
  std::string In;       // the function the conversion is in
  std::string File;     // absolute
  unsigned Line = 0;
};

class ProjectModel {
public:
  /// Adds one TU's summary (call before finish()).
  void add(TUSummary S);
  /// Adds a serialized summary; one of another format or malformed is ignored with a note naming
  /// Origin.
  void addJson(const llvm::json::Value &V, llvm::StringRef Origin);
  /// Merges what was added and decides what runs per step.
  void finish();
  /// The model of one file alone (LocalModel): what its programs reach is not all they reach, so
  /// a write is not placed on the host because its program never uses CUDA. Call before finish().
  void oneFileOnly() { OneFile = true; }

  /// Notes about the input (ignored summaries, functions defined at several places), in a stable order.
  const std::vector<std::string> &notes() const { return Notes; }
  /// True when some TU of the project uses CUDA.
  bool usesCUDA() const { return UsesCUDA; }
  /// True when some loop of the project is a step loop (else the model cannot tell and the
  /// per-TU answers stand).
  bool hasStepLoops() const { return !StepLoops.empty(); }
  bool knowsFunction(llvm::StringRef USR) const { return Defs.count(USR.str()); }
  /// The function defined as USR (its first definition), or null.
  const Function *definition(llvm::StringRef USR) const {
    auto It = Defs.find(USR.str());
    return It == Defs.end() ? nullptr : &It->second.F;
  }
  /// The loop at File:Line:Column: its function's USR and its index there; nullopt when the model
  /// has no such loop.
  std::optional<std::pair<std::string, int>> loopAt(llvm::StringRef File, unsigned Line, unsigned Column) const {
    auto It = LoopAt.find({File.str(), Line, Column});
    return It == LoopAt.end() ? std::nullopt : std::optional<std::pair<std::string, int>>(It->second);
  }
  /// Why the function runs per step, or nullopt.
  std::optional<Hot> functionHot(llvm::StringRef USR) const;
  /// For the loop at File:Line:Column: whether it (or a loop around it) is a step loop. nullopt
  /// when the model has no such loop.
  std::optional<bool> inStepLoop(llvm::StringRef File, unsigned Line, unsigned Column) const;
  /// Whether the function defined as USR does a step on every call.
  bool doesStep(llvm::StringRef USR) const { return DoesStep.count(USR.str()); }
  /// Whether the function defined as USR holds a training step loop (one that runs backward() or
  /// an optimizer's step()), directly or through its calls.
  bool holdsStepLoop(llvm::StringRef USR) const { return HasStepLoop.count(USR.str()); }
  /// Where every write of the model's TUs puts the tensors of a field (a paramKey, a returnKey),
  /// its host-if chains resolved; Unknown when no TU writes it.
  FieldDevice deviceOfKey(const std::string &Key) const {
    auto It = FieldDevices.find(Key);
    return It == FieldDevices.end() ? FieldDevice::Unknown : It->second;
  }

  /// Decides a finding made in project mode (its message carries a HotBasis): false when it must
  /// not be reported (the code does not run per step in the project, or the finding holds only
  /// for fields that the project fills with host tensors only); else the message gets its
  /// reason ("(in X (x.cpp), called on every step of the loop in Y at y.cpp:12)") and the notes
  /// the path across files. A finding without a basis is kept unchanged.
  bool resolve(Finding &F) const;

  size_t functionCount() const { return Defs.size(); }

  /// The facts of the program whose main() is at File:Line: its own TU's, and, for a fact that TU
  /// lacks, the first of the TUs that define no main(); nullopt when no TU defines that main().
  std::optional<ProgramSites> programFacts(llvm::StringRef File, unsigned Line) const;
  /// Whether the user function USR may need gradients (TUSummary.h Function::NeedsGradients),
  /// through the functions it calls in other TUs too, and any override of them the project
  /// defines; a function defined in no TU of the project (and overridden by none) may, unless
  /// its key is "?USR" (handed no tensor at any call: TUSummary.h gradientCalleeKey).
  bool needsGradients(llvm::StringRef Key) const;
  /// For the user function USR: true when a program (a TU with main() and the TUs it calls into)
  /// that defines it uses CUDA or a device it cannot see (ProgramSites::Opaque); false when
  /// programs define it and none does; nullopt when no program does.
  std::optional<bool> programsReachingMayUseCUDA(llvm::StringRef USR) const;

  /// For a user function or a field (by USR): the widening when every tensor it returns or holds,
  /// in every TU of the project, was widened on the host from the same narrow dtype (directly, or
  /// through functions and fields that were: the greatest fixpoint over the tensor flows, each
  /// grounded in a widening chain); nullopt when one source is anything else, or the function is
  /// defined / the field written in no TU of the project.
  std::optional<Widening> widenedHost(llvm::StringRef USR) const;
  /// For a parameter key (TUSummary.h paramKey, "USR#paramN"): true when the project calls the
  /// function at least once and every call passes a compile-time constant there
  /// (TUSummary.h Call::ConstArgs); false for a method that overrides another (a call through the
  /// base passes what it likes) and for a function no TU calls.
  bool constantAtEveryCall(llvm::StringRef Key) const;
  /// Whether parameter Key's function is called at least once and every call passes a null
  /// pointer constant there (nullptr, NULL, 0, a default of nullptr; TUSummary.h Call::ConstArgs
  /// 'n'); false for an override, a virtual method that is overridden, a function no TU calls.
  bool nullAtEveryCall(llvm::StringRef Key) const;
  /// "Camera::getImage() (input_data.cpp)", "the field Camera::image (input_data.hpp)".
  std::string flowName(llvm::StringRef USR) const;

private:
  /// constantAtEveryCall and nullAtEveryCall: parameter Key's function is called at least once,
  /// overrides nothing, and every call's Call::ConstArgs has Flag at the parameter's index; with
  /// OverriddenToo false, a virtual method that something overrides does not count either.
  bool flagAtEveryCall(llvm::StringRef Key, char Flag, bool OverriddenToo) const;
  /// A USR defined at several places (several programs in one database, each with its own main()
  /// or helper): the first definition (TUs in the order of their main files) keeps it, each other
  /// gets USR + DefinitionApart + "file:line", and its TU's calls, fields, flows and keys follow it
  /// (finish(), before anything is merged). Notes each such USR once.
  void keepDefinitionsApart();
  /// A finding's USR or key (HotBasis) as the model knows it: the definition of its file when the
  /// USR is defined at several places.
  std::string modelUSR(const std::string &USR, llvm::StringRef File) const;
  std::string modelKey(const std::string &Key, llvm::StringRef File) const;
  std::map<std::string, std::map<std::string, std::string>> Renamed; // plain USR -> file -> model USR
  struct Def {
    Function F;
    size_t TU = 0;
  };
  using LoopRef = std::pair<std::string, int>; // function USR, loop index

  std::vector<std::string> targets(const Call &C) const;
  /// Method and every override of it the project defines, transitively.
  std::vector<std::string> overridesOf(const std::string &Method) const;
  /// The main() TUs whose program (ProgramClosures) defines the function USR.
  std::vector<size_t> programsDefining(const std::string &USR) const;
  /// Whether Pred holds for a TU of the program of Programs[Main]: its own or one it calls into
  /// (no copy of the closure per question).
  template <typename P> bool inProgram(size_t Main, P Pred) const {
    return Pred(Main) || llvm::any_of(ProgramClosures[Main], Pred);
  }
  /// The first step loop among L and the loops around it, or -1.
  int stepLoopAround(const std::string &USR, int L) const;
  bool isStepLoop(const std::string &USR, int L) const { return StepLoops.count({USR, L}); }
  /// L past bounded loops (a loop over the parameters runs within its parent's iteration).
  int effectiveLoop(const Function &F, int L) const;

  std::vector<TUSummary> Pending;
  std::vector<std::string> Notes;
  std::map<std::string, Def> Defs;                            // USR -> definition
  std::map<std::string, std::vector<std::string>> Overriders; // method -> direct overrides
  std::set<std::string> DoesStep, HasStepLoop;
  std::set<LoopRef> StepLoops;
  std::map<std::tuple<std::string, unsigned, unsigned>, LoopRef> LoopAt; // file, line, col
  std::map<std::string, Hot> HotFunctions;
  // Field USR, paramKey, returnKey -> where every TU's writes put it (host-if chains resolved).
  std::map<std::string, FieldDevice> FieldDevices;
  std::map<std::string, TensorFlow> Flows;          // function or field USR -> its sources in every TU
  std::map<std::string, Widening> WidenedHost;      // the flows that are widened host tensors
  void decideWidenedHost();
  bool UsesCUDA = false;                            // some TU uses CUDA (TUSummary::UsesCUDA)
  struct ProgramTU {
    ProgramSites Sites;
    std::set<std::string> Defines; // the functions the TU defines, and the methods they override
    std::set<std::string> Calls;   // what its functions call
  };
  std::vector<ProgramTU> Programs; // each TU's, in the order of their main files
  /// The TUs without main() that the program of Programs[Main] calls into, transitively.
  std::vector<size_t> programTUs(size_t Main) const;
  /// programTUs of each TU with main() (empty for the others), computed once in finish(): every
  /// finding resolved asks them.
  std::vector<std::vector<size_t>> ProgramClosures;
  std::set<std::string> NeedGradients;              // the defined functions that may need gradients
  void decideGradients();
  /// FieldDevices from every TU's writes (TUSummary::Fields), after the programs and the
  /// overrides are known.
  void decideFieldDevices(std::vector<FieldFacts> Writes);
  static std::map<std::string, FieldDevice> resolveWrites(const std::vector<FieldFacts> &Writes);
  /// FieldDevices of each program (by the index of its main() TU) from its TUs' writes alone;
  /// empty for the TUs without main().
  std::vector<std::map<std::string, FieldDevice>> ProgramFieldDevices;
  /// Whether, in every program that defines the function USR (at least one), each key is host.
  bool hostInEveryProgram(const std::string &USR, const std::vector<std::string> &Keys) const;
  bool OneFile = false;
};

/// Between a USR and the place of a second definition (ProjectModel::keepDefinitionsApart).
constexpr const char *DefinitionApart = "\x1e@";
/// A key of TUSummary.h (paramKey, returnKey, movedKey) split into the USR and its tail
/// ("#param0", "#return", "#moved"); a plain USR and an empty tail otherwise.
std::pair<std::string, std::string> splitKey(const std::string &Key);

/// "metrics.cpp" for "/src/metrics.cpp".
std::string baseName(llvm::StringRef Path);
/// Why a call under a logging branch runs only on some steps: "Model::save() is called at
/// opensplat.cpp:174, where it only runs in the logging branch `if (step % 100 == 0)` at line 172"
/// (CalleeName qualified, C.Rare non-empty).
std::string rareCallWhy(llvm::StringRef CalleeName, const Call &C);
/// C as it runs relative to loop Stop of F (-1: F's body): under a condition, or rare, when a
/// loop between the two is (a call in a loop inside a logging branch runs only on logging steps).
Call gatedCall(const Function &F, const Call &C, int Stop);

} // namespace torchlint::model
