#include "model/LocalModel.h"
#include "core/PerTU.h"
#include "clang/AST/ASTContext.h"
#include <map>
#include <vector>

namespace torchlint::model {

LocalModel::LocalModel(TUSummary Summary) : S(std::move(Summary)) {
  M.add(S);
  M.finish();
  const Function *Main = nullptr;
  for (const Function &F : S.Functions)
    if (F.Name == "main" && !F.TestBody)
      Main = &F;
  if (!Main)
    return;
  MainTrains = M.holdsStepLoop(Main->USR);
  // Once: main(), then every function whose calls in this TU all sit outside loops of once-only
  // functions. A function nobody here calls (other files may), one reached through a virtual
  // call or overriding another, forward(), and a test body are never once.
  struct Caller {
    std::string USR;
    int Loop;
    bool Virtual;
  };
  std::map<std::string, std::vector<Caller>> Callers;
  for (const Function &F : S.Functions)
    for (const Call &C : F.Calls)
      Callers[C.Callee].push_back({F.USR, C.Loop, C.Virtual});
  Once.insert(Main->USR);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : S.Functions) {
      if (Once.count(F.USR) || F.Forward || F.TestBody || !F.Overrides.empty())
        continue;
      auto It = Callers.find(F.USR);
      if (It == Callers.end() || It->second.empty())
        continue;
      bool AllOnce = true;
      for (const Caller &C : It->second)
        AllOnce &= C.Loop < 0 && !C.Virtual && C.USR != F.USR && Once.count(C.USR);
      if (AllOnce) {
        Once.insert(F.USR);
        Changed = true;
      }
    }
  }
}

namespace {
/// What perTU builds: the model of the TU of Ctx.
struct LocalModelOfTU {
  LocalModel Model;
  explicit LocalModelOfTU(clang::ASTContext &Ctx) : Model(buildTUSummary(Ctx)) {}
};
} // namespace

const LocalModel &LocalModel::get(clang::ASTContext &Ctx) { return perTU<LocalModelOfTU>(Ctx).Model; }

bool LocalModel::loopRunsOnceOutsideTraining(llvm::StringRef FunctionUSR, llvm::StringRef File, unsigned Line,
                                             unsigned Column) const {
  if (!MainTrains || !Once.count(FunctionUSR.str()))
    return false;
  const Function *F = nullptr;
  for (const Function &G : S.Functions)
    if (G.USR == FunctionUSR)
      F = &G;
  if (!F)
    return false;
  int L = -1;
  for (int I = 0; I < static_cast<int>(F->Loops.size()); ++I)
    if (F->Loops[I].File == File && F->Loops[I].Line == Line && F->Loops[I].Column == Column)
      L = I;
  if (L < 0)
    return false;
  // Not a step loop, nor inside one.
  std::optional<bool> InStep = M.inStepLoop(File, Line, Column);
  if (!InStep || *InStep)
    return false;
  // Holds no step loop: none of the loops inside it, no function called in it that holds one.
  auto Inside = [&](int J) {
    for (unsigned Guard = 0; J >= 0 && Guard < 1024; ++Guard, J = F->Loops[J].Parent)
      if (J == L)
        return true;
    return false;
  };
  for (int J = 0; J < static_cast<int>(F->Loops.size()); ++J)
    if (J != L && Inside(J)) {
      const Loop &Inner = F->Loops[J];
      if (M.inStepLoop(Inner.File, Inner.Line, Inner.Column).value_or(true))
        return false;
    }
  for (const Call &C : F->Calls)
    if (Inside(C.Loop) && (M.holdsStepLoop(C.Callee) || M.doesStep(C.Callee)))
      return false;
  for (const Step &St : F->Steps)
    if (Inside(St.Loop))
      return false;
  return true;
}

} // namespace torchlint::model
