#include "model/LocalModel.h"
#include "analysis/DeviceProvenance.h"
#include "core/PerTU.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include <map>
#include <vector>

namespace torchlint::model {

bool isDataSetConstructor(llvm::StringRef QualifiedName) {
  llvm::SmallVector<llvm::StringRef> Parts;
  QualifiedName.split(Parts, "::");
  if (Parts.size() < 2 || Parts.back() != Parts[Parts.size() - 2])
    return false;
  std::string Class = Parts.back().lower();
  return llvm::StringRef(Class).contains("dataset") || llvm::StringRef(Class).contains("data_set") ||
         llvm::StringRef(Class).contains("loader");
}

LocalModel::LocalModel(TUSummary S) {
  M.oneFileOnly();
  M.add(S);
  M.finish();
  // The roots: main() and the functions that hold a training step loop (they run once per run,
  // or once per epoch when a loop of another file calls them: never per step).
  for (const Function &F : S.Functions) {
    if (F.TestBody)
      continue;
    bool Holds = M.holdsStepLoop(F.USR);
    Trains |= Holds;
    if (Holds || F.Name == "main")
      NotPerStep.insert(F.USR);
  }
  if (!Trains) {
    // A file that does not train: only a data set's constructor (it loads once per data set,
    // wherever the step is) and what it alone calls.
    NotPerStep.clear();
    for (const Function &F : S.Functions)
      if (!F.TestBody && isDataSetConstructor(F.Name))
        NotPerStep.insert(F.USR);
    if (NotPerStep.empty())
      return;
  }
  struct Caller {
    std::string USR;
    const Call *C;
    const Function *F;
  };
  std::map<std::string, std::vector<Caller>> Callers;
  for (const Function &F : S.Functions)
    for (const Call &C : F.Calls)
      Callers[C.Callee].push_back({F.USR, &C, &F});
  // A call that runs outside training: in such a function, outside its loops or in a quiet loop.
  auto Quiet = [&](const Caller &C) {
    if (C.C->Virtual || C.USR == C.C->Callee || !NotPerStep.count(C.USR))
      return false;
    if (C.C->Loop < 0)
      return true;
    const Loop &L = C.F->Loops.at(C.C->Loop);
    return quietLoop({L.File, L.Line, L.Column});
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : S.Functions) {
      if (NotPerStep.count(F.USR) || F.Forward || F.TestBody || !F.Overrides.empty())
        continue;
      auto It = Callers.find(F.USR);
      if (It == Callers.end() || It->second.empty())
        continue;
      if (llvm::all_of(It->second, Quiet)) {
        NotPerStep.insert(F.USR);
        Changed = true;
      }
    }
  }
  // Then the functions reached only outside training or through a logging branch (at least once
  // so): a call under such a branch, or any call of a function that is itself rare.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : S.Functions) {
      if (NotPerStep.count(F.USR) || RareOnly.count(F.USR) || F.Forward || F.TestBody || !F.Overrides.empty())
        continue;
      auto It = Callers.find(F.USR);
      if (It == Callers.end() || It->second.empty())
        continue;
      Rare R;
      bool All = true, Any = false;
      for (const Caller &C : It->second) {
        if (C.C->Virtual || C.USR == F.USR) {
          All = false;
          break;
        }
        if (Quiet(C))
          continue;
        // As the project model gates it: a call in a loop under a logging branch runs only on
        // logging steps (`if (step % 1000 == 0) for (i < n) save(out[i]);`).
        Call G = gatedCall(*C.F, *C.C, -1);
        if (!G.Rare.empty()) {
          R.OncePerInterval &= G.RareOnce;
          if (!Any)
            R.Why = rareCallWhy(F.Name, G);
          Any = true;
          continue;
        }
        auto Up = RareOnly.find(C.USR);
        if (Up == RareOnly.end()) {
          All = false;
          break;
        }
        R.OncePerInterval &= Up->second.OncePerInterval && C.C->Loop < 0;
        if (!Any)
          R.Why = Up->second.Why;
        Any = true;
      }
      if (All && Any) {
        RareOnly.emplace(F.USR, std::move(R));
        Changed = true;
      }
    }
  }
}

const LocalModel::Rare *LocalModel::rareOnly(llvm::StringRef FunctionUSR) const {
  auto It = RareOnly.find(FunctionUSR.str());
  return It == RareOnly.end() ? nullptr : &It->second;
}

namespace {
/// What perTU builds: the model of the TU of Ctx.
struct LocalModelOfTU {
  LocalModel Model;
  explicit LocalModelOfTU(clang::ASTContext &Ctx) : Model(buildTUSummary(Ctx)) {}
};
} // namespace

const LocalModel &LocalModel::get(clang::ASTContext &Ctx) { return perTU<LocalModelOfTU>(Ctx).Model; }

bool LocalModel::quietLoop(const Position &P) const {
  std::optional<bool> InStep = M.inStepLoop(P.File, P.Line, P.Column);
  if (!InStep || *InStep)
    return false;
  std::optional<std::pair<std::string, int>> At = M.loopAt(P.File, P.Line, P.Column);
  const Function *Def = At ? M.definition(At->first) : nullptr;
  if (!Def)
    return false;
  // Nor does it or a loop around it run a step on each iteration itself: the project model counts
  // a loop that calls the training function on every iteration as an epoch loop even when it also
  // runs forward() itself; one file alone keeps such a loop's answer. (Holding a training loop is
  // fine: the calls beside it run once per epoch.)
  const Function &F = *Def;
  for (int L = At->second, Guard = 0; L >= 0 && Guard < 1024; L = F.Loops[L].Parent, ++Guard) {
    for (const Step &St : F.Steps)
      if (St.Loop == L)
        return false;
    for (const Call &C : F.Calls)
      if (C.Loop == L && M.doesStep(C.Callee))
        return false;
  }
  return true;
}

bool LocalModel::outsideTraining(llvm::StringRef FunctionUSR, const std::optional<Position> &Loop) const {
  if (!NotPerStep.count(FunctionUSR.str()))
    return false;
  return !Loop || quietLoop(*Loop);
}

bool LocalModel::hostInThisFile(const HostAssumptions &If, clang::ASTContext &Ctx) const {
  if (If.empty() || !If.Params.empty() || !If.Returns.empty() || !If.Moved.empty())
    return false;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (const clang::FieldDecl *F : If.Fields) {
    const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(F->getParent());
    const clang::CXXRecordDecl *Def = RD ? RD->getDefinition() : nullptr;
    if (!Def || !SM.isInMainFile(SM.getExpansionLoc(Def->getLocation())))
      return false;
  }
  for (const std::string &Key : hostKeys(If))
    if (M.deviceOfKey(Key) != FieldDevice::Host)
      return false;
  return true;
}

} // namespace torchlint::model
