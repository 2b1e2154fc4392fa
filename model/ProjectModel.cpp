#include "model/ProjectModel.h"
#include "core/Catalog.h"
#include "model/HotBasis.h"
#include "analysis/HostWidening.h"
#include "analysis/TensorDtype.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <deque>
#include <memory>

namespace torchlint::model {

namespace {
constexpr char Sep = '\x1e';
constexpr char FieldSep = '\x1d';
constexpr llvm::StringLiteral Tag = "torchlint-hot";
} // namespace

std::string encodeBasis(const HotBasis &B) {
  std::string S(1, BasisMarker);
  S += Tag;
  auto Join = [](const std::vector<std::string> &V) {
    std::string Out;
    for (const std::string &U : V)
      Out += (Out.empty() ? "" : std::string(1, FieldSep)) + U;
    return Out;
  };
  for (const std::string &Part :
       {std::string(1, B.K), B.FunctionUSR, B.File, std::to_string(B.Line), std::to_string(B.Column), B.Why,
        std::string(B.IfProjectUsesCUDA ? "1" : ""), Join(B.HostIfFields), Join(B.IfWidenedHost),
        std::string(B.InLoop ? "1" : ""), Join(B.ProgramNeeds), Join(B.IfNoGradients),
        std::string(B.IfProgramUsesCUDA ? "1" : ""), Join(B.IfConstantArgs), Join(B.UnlessNullArgs)}) {
    S += Sep;
    S += Part;
  }
  return S;
}

std::optional<HotBasis> takeBasis(std::string &Message) {
  size_t At = Message.find(BasisMarker);
  if (At == std::string::npos)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  llvm::StringRef(Message).substr(At + 1).split(Parts, Sep);
  if (Parts.size() != 16 || Parts[0] != Tag || Parts[1].size() != 1 || !llvm::StringRef("LFCP").contains(Parts[1][0]))
    return std::nullopt;
  HotBasis B;
  B.K = static_cast<HotBasis::Kind>(Parts[1][0]);
  B.FunctionUSR = Parts[2].str();
  B.File = Parts[3].str();
  if (Parts[4].getAsInteger(10, B.Line) || Parts[5].getAsInteger(10, B.Column))
    return std::nullopt;
  B.Why = Parts[6].str();
  B.IfProjectUsesCUDA = Parts[7] == "1";
  auto Split = [](llvm::StringRef Part, std::vector<std::string> &Out) {
    if (Part.empty())
      return;
    llvm::SmallVector<llvm::StringRef, 2> Items;
    Part.split(Items, FieldSep);
    for (llvm::StringRef I : Items)
      Out.push_back(I.str());
  };
  Split(Parts[8], B.HostIfFields);
  Split(Parts[9], B.IfWidenedHost);
  B.InLoop = Parts[10] == "1";
  Split(Parts[11], B.ProgramNeeds);
  Split(Parts[12], B.IfNoGradients);
  B.IfProgramUsesCUDA = Parts[13] == "1";
  Split(Parts[14], B.IfConstantArgs);
  Split(Parts[15], B.UnlessNullArgs);
  Message.resize(At);
  return B;
}

std::string baseName(llvm::StringRef Path) { return llvm::sys::path::filename(Path).str(); }

Call gatedCall(const Function &F, const Call &C, int Stop) {
  Call Out = C;
  int L = C.Loop;
  for (unsigned Guard = 0; L >= 0 && L != Stop && L < static_cast<int>(F.Loops.size()) && Guard < 1024;
       ++Guard, L = F.Loops[L].Parent) {
    const Loop &Lp = F.Loops[L];
    Out.Conditional |= Lp.Conditional;
    if (Out.Rare.empty() && !Lp.Rare.empty()) {
      Out.Rare = Lp.Rare;
      Out.RareOnce = false; // a loop between the branch and the call
    }
  }
  return Out;
}

std::string rareCallWhy(llvm::StringRef CalleeName, const Call &C) {
  return CalleeName.str() + "() is called at " + baseName(C.File) + ":" + std::to_string(C.Line) + ", where " + C.Rare;
}

void ProjectModel::add(TUSummary S) { Pending.push_back(std::move(S)); }

void ProjectModel::addJson(const llvm::json::Value &V, llvm::StringRef Origin) {
  std::string Err;
  if (std::optional<TUSummary> S = fromJson(V, Err))
    add(std::move(*S));
  else
    Notes.push_back("the project-model summary of '" + Origin.str() + "' is ignored: " + Err);
}

int ProjectModel::effectiveLoop(const Function &F, int L) const {
  while (L >= 0 && L < static_cast<int>(F.Loops.size()) && F.Loops[L].Bounded)
    L = F.Loops[L].Parent;
  return L;
}

std::vector<std::string> ProjectModel::targets(const Call &C) const {
  return C.Virtual ? overridesOf(C.Callee) : std::vector<std::string>{C.Callee};
}

std::vector<std::string> ProjectModel::overridesOf(const std::string &Method) const {
  std::vector<std::string> Out{Method};
  // Every override the project defines, transitively.
  for (size_t I = 0; I < Out.size() && I < 4096; ++I) {
    auto It = Overriders.find(Out[I]);
    if (It != Overriders.end())
      for (const std::string &O : It->second)
        if (std::find(Out.begin(), Out.end(), O) == Out.end())
          Out.push_back(O);
  }
  return Out;
}

int ProjectModel::stepLoopAround(const std::string &USR, int L) const {
  auto It = Defs.find(USR);
  if (It == Defs.end())
    return -1;
  const Function &F = It->second.F;
  for (unsigned Guard = 0; L >= 0 && L < static_cast<int>(F.Loops.size()) && Guard < 1024; ++Guard) {
    if (isStepLoop(USR, L))
      return L;
    L = F.Loops[L].Parent;
  }
  return -1;
}

std::pair<std::string, std::string> splitKey(const std::string &Key) {
  // TUSummary.h paramKey "USR#param0", returnKey "USR#return", movedKey "USR#moved"; a USR itself
  // holds '#' (before each parameter type), so only these tails split.
  size_t Hash = Key.rfind('#');
  if (Hash != std::string::npos && Hash > 0) {
    llvm::StringRef Tail = llvm::StringRef(Key).substr(Hash + 1);
    unsigned Index;
    if (Tail == "return" || Tail == "moved" ||
        (Tail.consume_front("param") && !Tail.empty() && !Tail.getAsInteger(10, Index)))
      return {Key.substr(0, Hash), Key.substr(Hash)};
  }
  return {Key, ""};
}

/// "a, b and c", or past Max items "a, b, c and 2 more": the first Max of N items, named by Name.
static std::string listSome(size_t N, size_t Max, llvm::function_ref<std::string(size_t)> Name) {
  std::string Out;
  for (size_t I = 0; I < N && I < Max; ++I)
    Out += (I == 0 ? "" : I + 1 == N ? " and " : ", ") + Name(I);
  if (N > Max)
    Out += " and " + std::to_string(N - Max) + " more";
  return Out;
}

void ProjectModel::keepDefinitionsApart() {
  // Each USR's distinct definitions (TUs in order): the first keeps the USR.
  std::map<std::string, std::vector<const Function *>> Places;
  auto SamePlace = [](const Function *A, const Function &B) { return A->File == B.File && A->Line == B.Line; };
  for (const TUSummary &S : Pending)
    for (const Function &F : S.Functions) {
      std::vector<const Function *> &P = Places[F.USR];
      if (llvm::none_of(P, [&](const Function *O) { return SamePlace(O, F); }))
        P.push_back(&F);
    }
  // One note: the function defined at the most places (main() in a tutorial collection), and the
  // names of the others.
  std::vector<const std::vector<const Function *> *> Several;
  for (auto &[USR, P] : Places)
    if (P.size() >= 2)
      Several.push_back(&P);
  if (!Several.empty()) {
    auto Most = llvm::max_element(Several, [](auto *A, auto *B) { return A->size() < B->size(); });
    const std::vector<const Function *> &P = **Most;
    std::set<std::string> Others;
    for (auto *O : Several)
      if (O != *Most)
        Others.insert(O->front()->Name + "()");
    std::vector<std::string> OtherNames(Others.begin(), Others.end());
    std::string Also;
    if (!Others.empty())
      Also = "; " + std::to_string(Others.size()) + " more function" + (Others.size() == 1 ? " is" : "s are") +
             " too: " + listSome(OtherNames.size(), 5, [&](size_t I) { return OtherNames[I]; });
    Notes.push_back(P.front()->Name + "() is defined at " + std::to_string(P.size()) + " places, " +
                    listSome(P.size(), 3,
                             [&](size_t I) { return P[I]->File + ":" + std::to_string(P[I]->Line); }) +
                    Also +
                    " (several programs in one compile database?); the project model keeps them apart: a file's "
                    "calls reach the definition it holds, or else the first");
  }
  // The second and later definitions get their own USR, and their TU's references follow them.
  for (TUSummary &S : Pending) {
    std::map<std::string, std::string> Own; // plain USR -> this TU's
    for (Function &F : S.Functions) {
      const std::vector<const Function *> &P = Places.at(F.USR);
      if (P.size() < 2 || SamePlace(P.front(), F))
        continue;
      std::string Apart = F.USR + DefinitionApart + F.File + ":" + std::to_string(F.Line);
      Own[F.USR] = Apart;
      Renamed[F.USR][F.File] = Apart;
      F.USR = Apart;
    }
    if (Own.empty())
      continue;
    auto Follow = [&](std::string &USR) {
      auto It = Own.find(USR);
      if (It != Own.end())
        USR = It->second;
    };
    auto FollowKey = [&](std::string &Key) {
      auto [Head, Tail] = splitKey(Key);
      auto It = Own.find(Head);
      if (It != Own.end())
        Key = It->second + Tail;
    };
    for (Function &F : S.Functions) {
      for (Call &C : F.Calls)
        Follow(C.Callee);
      for (std::string &O : F.Overrides)
        Follow(O);
    }
    for (FieldFacts &W : S.Fields) {
      FollowKey(W.USR);
      Follow(W.In);
      for (std::string &K : W.IfHost)
        FollowKey(K);
    }
    for (TensorFlow &T : S.Flows) {
      Follow(T.USR);
      for (TensorSource &Src : T.Sources)
        if (Src.K == TensorSource::Kind::Call)
          Follow(Src.USR);
    }
  }
}

std::string ProjectModel::modelUSR(const std::string &USR, llvm::StringRef File) const {
  auto It = Renamed.find(USR);
  if (It == Renamed.end())
    return USR;
  auto Mine = It->second.find(File.str());
  return Mine == It->second.end() ? USR : Mine->second;
}

std::string ProjectModel::modelKey(const std::string &Key, llvm::StringRef File) const {
  auto [Head, Tail] = splitKey(Key);
  return modelUSR(Head, File) + Tail;
}

void ProjectModel::finish() {
  // A stable order whatever order the TUs came in.
  std::stable_sort(Pending.begin(), Pending.end(),
                   [](const TUSummary &A, const TUSummary &B) { return A.MainFile < B.MainFile; });
  keepDefinitionsApart();
  std::vector<FieldFacts> Writes;
  for (size_t TU = 0; TU < Pending.size(); ++TU) {
    TUSummary &S = Pending[TU];
    UsesCUDA |= S.UsesCUDA;
    for (FieldFacts &F : S.Fields) {
      F.TU = static_cast<int>(TU);
      Writes.push_back(std::move(F));
    }
    S.Fields.clear();
  }
  // Tensor flows: a function's (its definition, or an inline one seen in several TUs) and a
  // field's sources from every TU.
  for (const TUSummary &S : Pending)
    for (const TensorFlow &F : S.Flows) {
      auto [It, New] = Flows.try_emplace(F.USR, F);
      if (New)
        continue;
      for (const TensorSource &Src : F.Sources)
        if (std::find(It->second.Sources.begin(), It->second.Sources.end(), Src) == It->second.Sources.end())
          It->second.Sources.push_back(Src);
    }
  decideWidenedHost();
  for (size_t TU = 0; TU < Pending.size(); ++TU) {
    for (Function &F : Pending[TU].Functions) {
      auto [It, New] = Defs.try_emplace(F.USR, Def{F, TU});
      if (New)
        continue;
      Def &D = It->second;
      if (D.F.File == F.File && D.F.Line == F.Line) {
        // The same definition: an inline function of a header (seen again in another TU), or a
        // template's pattern and its instantiations (the same TU): merge the latter's facts.
        if (D.TU != TU)
          continue;
        int Offset = static_cast<int>(D.F.Loops.size());
        auto Shift = [&](int L) { return L < 0 ? L : L + Offset; };
        for (Loop L : F.Loops) {
          L.Parent = Shift(L.Parent);
          D.F.Loops.push_back(L);
        }
        for (Call C : F.Calls) {
          C.Loop = Shift(C.Loop);
          D.F.Calls.push_back(std::move(C));
        }
        for (Step S : F.Steps) {
          S.Loop = Shift(S.Loop);
          D.F.Steps.push_back(S);
        }
        continue;
      }
      // Two definitions at different places were given different USRs (keepDefinitionsApart).
    }
  }
  for (const TUSummary &S : Pending) {
    ProgramTU T;
    T.Sites = S.Program;
    // The functions of the headers it includes (by USR, and by the methods they override): what
    // its own functions call of them, transitively, calls for it.
    std::multimap<std::string, const Function *> Header;
    std::vector<const Function *> Work;
    for (const Function &F : S.Functions) {
      // Defined in the TU's own file: a function of a header it includes is every includer's, and
      // its calls are the TU's only where the TU calls it (an inline helper it never calls does
      // not draw the helper's callees into its program).
      if (F.File == S.MainFile) {
        T.Defines.insert(F.USR);
        T.Defines.insert(F.Overrides.begin(), F.Overrides.end());
        Work.push_back(&F);
        continue;
      }
      Header.emplace(F.USR, &F);
      for (const std::string &O : F.Overrides)
        Header.emplace(O, &F);
    }
    if (Work.empty()) // no function in its own file (or its path spelled otherwise): all count
      for (auto &[USR, F] : Header)
        Work.push_back(F);
    std::set<const Function *> Reached(Work.begin(), Work.end());
    while (!Work.empty()) {
      const Function *F = Work.back();
      Work.pop_back();
      for (const Call &C : F->Calls) {
        T.Calls.insert(C.Callee);
        for (auto [It, End] = Header.equal_range(C.Callee); It != End; ++It)
          if ((C.Virtual || It->second->USR == C.Callee) && Reached.insert(It->second).second)
            Work.push_back(It->second);
      }
    }
    Programs.push_back(std::move(T));
  }
  Pending.clear();
  ProgramClosures.assign(Programs.size(), {});
  for (size_t M = 0; M < Programs.size(); ++M)
    if (Programs[M].Sites.Main)
      ProgramClosures[M] = programTUs(M);

  for (auto &[USR, D] : Defs) {
    for (const std::string &O : D.F.Overrides)
      Overriders[O].push_back(USR);
    for (int L = 0; L < static_cast<int>(D.F.Loops.size()); ++L) {
      const Loop &Lp = D.F.Loops[L];
      LoopAt.try_emplace({Lp.File, Lp.Line, Lp.Column}, LoopRef{USR, L});
    }
  }

  decideFieldDevices(std::move(Writes));
  decideGradients();

  // Callers: callee -> (caller, call index).
  std::map<std::string, std::vector<std::pair<std::string, size_t>>> Callers;
  for (auto &[USR, D] : Defs) {
    if (D.F.TestBody)
      continue;
    for (size_t I = 0; I < D.F.Calls.size(); ++I)
      for (const std::string &T : targets(D.F.Calls[I]))
        Callers[T].push_back({USR, I});
  }

  std::deque<std::string> Work;
  // The callers that call a function of Set outside their loops join Set, transitively (from Work).
  auto AddCallersOutsideLoops = [&](std::set<std::string> &Set) {
    while (!Work.empty()) {
      std::string F = Work.front();
      Work.pop_front();
      for (auto &[Caller, I] : Callers[F]) {
        const Function &CF = Defs[Caller].F;
        if (effectiveLoop(CF, CF.Calls[I].Loop) < 0 && Set.insert(Caller).second)
          Work.push_back(Caller);
      }
    }
  };
  // The functions that run a step Counts accepts on every call: one outside their loops, or a
  // call outside their loops of a function that does (Set).
  auto EveryCall = [&](std::set<std::string> &Set, auto Counts) {
    for (auto &[USR, D] : Defs)
      if (!D.F.TestBody)
        for (const Step &S : D.F.Steps)
          if (Counts(S) && effectiveLoop(D.F, S.Loop) < 0 && Set.insert(USR).second)
            Work.push_back(USR);
    AddCallersOutsideLoops(Set);
  };
  // The loops that run such a step: one, or a call of a function of Set, in the loop.
  auto LoopsRunning = [&](const std::set<std::string> &Set, auto Counts, std::set<LoopRef> &Loops) {
    for (auto &[USR, D] : Defs) {
      if (D.F.TestBody)
        continue;
      for (const Step &S : D.F.Steps)
        if (int L = effectiveLoop(D.F, S.Loop); L >= 0 && Counts(S))
          Loops.insert({USR, L});
      for (const Call &C : D.F.Calls)
        if (int L = effectiveLoop(D.F, C.Loop); L >= 0)
          for (const std::string &T : targets(C))
            if (Set.count(T))
              Loops.insert({USR, L});
    }
  };
  // Functions that do a step on every call, and the candidate step loops.
  auto AnyStep = [](const Step &) { return true; };
  EveryCall(DoesStep, AnyStep);
  LoopsRunning(DoesStep, AnyStep, StepLoops);
  // Functions that train on every call (a backward() or an optimizer's step() outside their
  // loops, directly or through calls), and the step loops that train: a loop that only runs
  // forward() (a recurrent network's loop over time steps inside its forward pass, an evaluation
  // loop) does not make the loops around it epoch loops.
  std::set<std::string> DoesTrain;
  auto Trains = [](const Step &S) { return S.Kind == StepKind::Backward || S.Kind == StepKind::OptimizerStep; };
  EveryCall(DoesTrain, Trains);
  std::set<LoopRef> TrainLoops;
  LoopsRunning(DoesTrain, Trains, TrainLoops);
  // Functions holding a training step loop, directly or through calls.
  for (const LoopRef &L : TrainLoops)
    if (HasStepLoop.insert(L.first).second)
      Work.push_back(L.first);
  while (!Work.empty()) {
    std::string F = Work.front();
    Work.pop_front();
    for (auto &[Caller, I] : Callers[F])
      if (HasStepLoop.insert(Caller).second)
        Work.push_back(Caller);
  }
  // Epoch loops: a loop around a training step loop, or one calling a function that holds one,
  // runs once per epoch: it is not a step loop itself (a loop over a model's heads inside the
  // step, calling forward() on each, leaves the step loop around it alone).
  std::set<LoopRef> Epoch;
  auto MarkAround = [&](const std::string &USR, const Function &F, int L) {
    for (unsigned Guard = 0; L >= 0 && Guard < 1024; ++Guard, L = F.Loops[L].Parent)
      Epoch.insert({USR, L});
  };
  for (auto &[USR, D] : Defs) {
    for (int L = 0; L < static_cast<int>(D.F.Loops.size()); ++L)
      if (TrainLoops.count({USR, L}))
        MarkAround(USR, D.F, D.F.Loops[L].Parent);
    // (A call under a condition of the loop body, `if (t % 2048 == 0) update(...)`, trains only
    // on some iterations: the loop is a rollout, whose iterations are steps, as analysis/HotCode.h
    // decides within one file.)
    for (const Call &Written : D.F.Calls) {
      Call C = gatedCall(D.F, Written, -1);
      for (const std::string &T : targets(C))
        if (HasStepLoop.count(T) && T != USR && !C.Conditional && C.Rare.empty())
          MarkAround(USR, D.F, C.Loop);
    }
  }
  // A loop that trains on every iteration itself (a step call, or a call of a function that does
  // one, outside the inner loops) stays a step loop: an update with an inner solve of its own
  // (MPO's 150-iteration dual optimisation inside each training step) is not an epoch.
  for (const LoopRef &L : Epoch)
    if (!TrainLoops.count(L))
      StepLoops.erase(L);

  // Hot functions: forward(), then the calls in step loops, then what hot functions call.
  auto Where = [&](const Function &F) { return F.Name + "() (" + baseName(F.File) + ")"; };
  for (auto &[USR, D] : Defs)
    if (D.F.Forward && !D.F.TestBody) {
      Hot H;
      H.Why = "in " + Where(D.F) + ", which runs on every forward pass";
      HotFunctions.emplace(USR, std::move(H));
      Work.push_back(USR);
    }
  struct Seed {
    std::string Callee, Caller;
    std::shared_ptr<const Call> C; // as gated by the loops between it and the step loop
    int Loop;
  };
  std::vector<Seed> Seeds;
  for (auto &[USR, D] : Defs) {
    if (D.F.TestBody)
      continue;
    for (const Call &C : D.F.Calls) {
      int L = stepLoopAround(USR, C.Loop);
      if (L < 0)
        continue;
      auto G = std::make_shared<const Call>(gatedCall(D.F, C, L));
      for (const std::string &T : targets(C))
        Seeds.push_back({T, USR, G, L});
    }
  }
  std::stable_sort(Seeds.begin(), Seeds.end(), [](const Seed &A, const Seed &B) {
    return std::tie(A.C->File, A.C->Line, A.C->Column) < std::tie(B.C->File, B.C->Line, B.C->Column);
  });
  // Why a call under a logging branch runs only on some steps, with its file.
  auto RareWhy = [&](const Call &C, const std::string &Callee) { return rareCallWhy(Defs[Callee].F.Name, C); };
  // Two rounds: first what the step loops reach through calls that run on every step (or under
  // an ordinary branch), then what they reach only through a call in a logging branch (rare).
  struct Deferred {
    std::string Callee;
    Hot H;
  };
  std::vector<Deferred> RareCalls;
  auto Propagate = [&]() {
    while (!Work.empty()) {
      std::string F = Work.front();
      Work.pop_front();
      const Hot Parent = HotFunctions[F];
      const Function &FF = Defs[F].F;
      for (const Call &Written : FF.Calls) {
        Call C = gatedCall(FF, Written, -1);
        for (const std::string &T : targets(C)) {
          auto It = Defs.find(T);
          if (It == Defs.end() || It->second.F.TestBody || HotFunctions.count(T))
            continue;
          Hot H;
          llvm::StringRef Rest = Parent.Why;
          Rest.consume_front("in ");
          H.Why = "in " + Where(It->second.F) + ", called from " + Rest.str();
          H.Path = Parent.Path;
          H.Path.push_back({C.File, C.Line, C.Column, "calls " + It->second.F.Name + "() here"});
          H.Rare = Parent.Rare;
          H.RareOnce = Parent.RareOnce && C.Loop < 0;
          if (H.Rare.empty() && !C.Rare.empty()) {
            H.Rare = RareWhy(C, T);
            H.RareOnce = C.RareOnce;
            RareCalls.push_back({T, std::move(H)});
            continue;
          }
          HotFunctions.emplace(T, std::move(H));
          Work.push_back(T);
        }
      }
    }
  };
  // The training step loops' calls first, with all they reach, then the other step loops' (an
  // evaluation or decoding loop): a function both reach is said to run in the training step
  // (libtorch-lm's mask helper, called by the training loop through create_mask() and directly by
  // an uncalled greedy decoder's token loop).
  auto Plant = [&](bool Training) {
  for (const Seed &S : Seeds) {
    if (TrainLoops.count({S.Caller, S.Loop}) != static_cast<size_t>(Training))
      continue;
    auto It = Defs.find(S.Callee);
    if (It == Defs.end() || HotFunctions.count(S.Callee))
      continue;
    const Function &Caller = Defs[S.Caller].F;
    const Loop &L = Caller.Loops[S.Loop];
    Hot H;
    std::string LoopText = "the loop in " + Caller.Name + "() at " + baseName(L.File) + ":" + std::to_string(L.Line);
    H.Why = "in " + Where(It->second.F) +
            (S.C->Conditional ? ", called in " + LoopText + " under a condition (not on every step)"
                              : ", called on every step of " + LoopText);
    H.Path.push_back({L.File, L.Line, L.Column, "the step loop in " + Caller.Name + "()"});
    H.Path.push_back({S.C->File, S.C->Line, S.C->Column, "calls " + It->second.F.Name + "() here"});
    if (!S.C->Rare.empty()) {
      H.Rare = RareWhy(*S.C, S.Callee);
      H.RareOnce = S.C->RareOnce;
      RareCalls.push_back({S.Callee, std::move(H)});
      continue;
    }
    HotFunctions.emplace(S.Callee, std::move(H));
    Work.push_back(S.Callee);
  }
  };
  Plant(true);
  Propagate(); // from forward() and the training step loops' calls, breadth first
  Plant(false);
  Propagate();
  // What only logging branches reach: hot, and rare.
  for (size_t I = 0; I < RareCalls.size(); ++I) {
    if (HotFunctions.count(RareCalls[I].Callee))
      continue;
    std::string Callee = RareCalls[I].Callee;
    HotFunctions.emplace(Callee, RareCalls[I].H);
    Work.push_back(Callee);
    Propagate();
  }
  // A function reached along several rare paths runs once per logging interval only if every
  // path says so (the paths above are the first ones found): a rare path through a loop, or a
  // call in a loop of a rare function, makes its callee run more often, down every call it makes.
  auto NotOnce = [&](const std::string &USR) {
    auto It = HotFunctions.find(USR);
    if (It == HotFunctions.end() || It->second.Rare.empty() || !It->second.RareOnce)
      return false;
    It->second.RareOnce = false;
    return true;
  };
  for (const Deferred &D : RareCalls)
    if (!D.H.RareOnce)
      NotOnce(D.Callee);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[USR, H] : HotFunctions) {
      auto D = Defs.find(USR);
      if (H.Rare.empty() || D == Defs.end())
        continue;
      for (const Call &C : D->second.F.Calls)
        if (!H.RareOnce || C.Loop >= 0)
          for (const std::string &T : targets(C))
            Changed |= NotOnce(T);
    }
  }
}

void ProjectModel::decideGradients() {
  // The least fixpoint: a function needs gradients if its TU says so, or a function it calls in
  // another TU does (or may: defined nowhere).
  auto Callee = [&](const std::string &Key) { return needsGradients(Key); };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[USR, D] : Defs)
      if (!NeedGradients.count(USR) &&
          (D.F.NeedsGradients || llvm::any_of(D.F.GradientsElsewhere, Callee))) {
        NeedGradients.insert(USR);
        Changed = true;
      }
  }
}

bool ProjectModel::flagAtEveryCall(llvm::StringRef Key, char Flag, bool OverriddenToo) const {
  auto [USR, Param] = Key.rsplit("#param");
  unsigned Index = 0;
  if (Param.empty() || Param.getAsInteger(10, Index))
    return false;
  if (auto It = Defs.find(USR.str()); It != Defs.end() && !It->second.F.Overrides.empty())
    return false;
  if (!OverriddenToo && Overriders.count(USR.str()))
    return false; // a virtual method's overrides are called through it with what they like
  unsigned Calls = 0;
  for (const auto &[U, D] : Defs)
    for (const Call &C : D.F.Calls) {
      if (C.Callee != USR)
        continue;
      if (C.ConstArgs.size() <= Index || C.ConstArgs[Index] != Flag)
        return false;
      ++Calls;
    }
  return Calls > 0;
}

bool ProjectModel::constantAtEveryCall(llvm::StringRef Key) const { return flagAtEveryCall(Key, '1', true); }

bool ProjectModel::nullAtEveryCall(llvm::StringRef Key) const { return flagAtEveryCall(Key, 'n', false); }

bool ProjectModel::needsGradients(llvm::StringRef Key) const {
  // "?USR": handed no tensor (TUSummary.h gradientCalleeKey).
  bool HandedNoTensors = Key.consume_front("?");
  std::string U = Key.str();
  if (!Defs.count(U) && !Overriders.count(U))
    return !HandedNoTensors; // defined in no TU (a library): may need them if handed tensors
  for (const std::string &T : targets(Call{U, "", 0, 0, -1, /*Virtual=*/true}))
    if (NeedGradients.count(T))
      return true;
  return false;
}

std::optional<ProgramSites> ProjectModel::programFacts(llvm::StringRef File, unsigned Line) const {
  auto Own = llvm::find_if(
      Programs, [&](const ProgramTU &T) { return T.Sites.Main && T.Sites.Main.File == File && T.Sites.Main.Line == Line; });
  if (Own == Programs.end())
    return std::nullopt;
  ProgramSites Out = Own->Sites;
  for (size_t I : ProgramClosures[Own - Programs.begin()])
    for (auto [Mine, Theirs] : {std::pair<Site *, const Site *>{&Out.Conv, &Programs[I].Sites.Conv},
                                {&Out.CUDA, &Programs[I].Sites.CUDA},
                                {&Out.Trains, &Programs[I].Sites.Trains},
                                {&Out.Cudnn, &Programs[I].Sites.Cudnn},
                                {&Out.Opaque, &Programs[I].Sites.Opaque}})
      if (!*Mine && *Theirs)
        *Mine = *Theirs;
  return Out;
}

std::vector<size_t> ProjectModel::programTUs(size_t Main) const {
  // The TUs without main() that the program calls into, transitively, in the order they are reached.
  std::vector<size_t> Out;
  std::set<std::string> Called = Programs[Main].Calls;
  std::vector<bool> In(Programs.size(), false);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < Programs.size(); ++I) {
      const ProgramTU &T = Programs[I];
      if (In[I] || T.Sites.Main ||
          !llvm::any_of(T.Defines, [&](const std::string &USR) { return Called.count(USR) != 0; }))
        continue;
      In[I] = Grew = true;
      Out.push_back(I);
      Called.insert(T.Calls.begin(), T.Calls.end());
    }
  }
  return Out;
}

void ProjectModel::decideFieldDevices(std::vector<FieldFacts> Writes) {
  // One file alone does not see every move of a module (its buffers' keys stay unknown).
  if (OneFile)
    llvm::erase_if(Writes, [](const FieldFacts &F) { return llvm::StringRef(F.USR).ends_with("#moved"); });
  // A call's argument or a return value that its TU cannot place (or places on the host only if
  // other keys are), in a function that only programs never using CUDA (nor a device they cannot
  // see) reach: every tensor of those programs is on the host (a CPU-only trainer's rollout
  // handing its actions to the environments that CUDA programs also step).
  if (!OneFile)
    for (FieldFacts &F : Writes)
      if (F.Device != FieldDevice::Device && !F.In.empty() && programsReachingMayUseCUDA(F.In) == false) {
        F.Device = FieldDevice::Host; // whatever it would rest on
        F.IfHost.clear();
      }
  // A virtual method's parameter holds what the calls of every method it overrides pass: a call
  // through the base reaches each override.
  size_t Own = Writes.size();
  for (size_t I = 0; I < Own; ++I) {
    size_t At = Writes[I].USR.rfind("#param");
    if (At == std::string::npos)
      continue;
    std::vector<std::string> Overrides = overridesOf(Writes[I].USR.substr(0, At));
    for (size_t J = 1; J < Overrides.size(); ++J) {
      FieldFacts Copy = Writes[I];
      Copy.USR = Overrides[J] + Writes[I].USR.substr(At);
      Writes.push_back(std::move(Copy));
    }
  }
  // A virtual method's return values are those of every override: a call through the base
  // returns what any of them returns.
  for (size_t I = 0; I < Own; ++I) {
    llvm::StringRef Key = Writes[I].USR;
    if (!Key.ends_with("#return"))
      continue;
    std::string Method = Key.drop_back(strlen("#return")).str();
    std::vector<std::string> Up{Method};
    for (size_t J = 0; J < Up.size() && J < 256; ++J) {
      auto D = Defs.find(Up[J]);
      if (D == Defs.end())
        continue;
      for (const std::string &O : D->second.F.Overrides)
        if (std::find(Up.begin(), Up.end(), O) == Up.end())
          Up.push_back(O);
    }
    for (size_t J = 1; J < Up.size(); ++J) {
      FieldFacts Copy = Writes[I];
      Copy.USR = Up[J] + "#return";
      Writes.push_back(std::move(Copy));
    }
  }
  FieldDevices = resolveWrites(Writes);
  // Each program's own answer, from the writes of its TUs (a library's class that one program
  // moves to the GPU stays on the host in a program that never does).
  ProgramFieldDevices.assign(Programs.size(), {});
  for (size_t M = 0; M < Programs.size(); ++M) {
    if (!Programs[M].Sites.Main)
      continue;
    std::vector<bool> In(Programs.size(), false);
    In[M] = true;
    for (size_t T : ProgramClosures[M])
      In[T] = true;
    std::vector<FieldFacts> Mine;
    for (const FieldFacts &F : Writes)
      if (F.TU >= 0 && static_cast<size_t>(F.TU) < In.size() && In[F.TU])
        Mine.push_back(F);
    ProgramFieldDevices[M] = resolveWrites(Mine);
  }
}

std::map<std::string, FieldDevice> ProjectModel::resolveWrites(const std::vector<FieldFacts> &Writes) {
  // Where each field's tensors live (and each parameter's, each function's return values, each
  // device field's device): host only if every TU that writes it stores host values, and every
  // key such a write rests on is host in turn. A cycle of keys with no other source holds no
  // value from anywhere else: host (the largest solution; a device source anywhere in the cycle
  // makes all of it unknown).
  std::map<std::string, FieldDevice> Devices;
  std::map<std::string, std::set<std::string>> IfHost;
  for (const FieldFacts &F : Writes) {
    auto [It, New] = Devices.try_emplace(F.USR, F.Device);
    if (!New && It->second != F.Device)
      It->second = FieldDevice::Unknown;
    if (F.Device == FieldDevice::Host)
      IfHost[F.USR].insert(F.IfHost.begin(), F.IfHost.end());
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[U, Keys] : IfHost) {
      FieldDevice &D = Devices[U];
      if (D != FieldDevice::Host)
        continue;
      for (const std::string &K : Keys) {
        auto It = Devices.find(K);
        if (It == Devices.end() || It->second != FieldDevice::Host) {
          D = FieldDevice::Unknown;
          Changed = true;
          break;
        }
      }
    }
  }
  return Devices;
}

bool ProjectModel::hostInEveryProgram(const std::string &USR, const std::vector<std::string> &Keys) const {
  std::vector<size_t> Ps = programsDefining(USR);
  return !Ps.empty() && llvm::all_of(Ps, [&](size_t M) {
           const std::map<std::string, FieldDevice> &D = ProgramFieldDevices[M];
           return llvm::all_of(Keys, [&](const std::string &K) {
             auto It = D.find(K);
             return It != D.end() && It->second == FieldDevice::Host;
           });
         });
}

std::vector<size_t> ProjectModel::programsDefining(const std::string &USR) const {
  std::vector<size_t> Out;
  for (size_t M = 0; M < Programs.size(); ++M)
    if (Programs[M].Sites.Main && inProgram(M, [&](size_t I) { return Programs[I].Defines.count(USR) != 0; }))
      Out.push_back(M);
  return Out;
}

std::optional<bool> ProjectModel::programsReachingMayUseCUDA(llvm::StringRef USR) const {
  std::vector<size_t> Ps = programsDefining(USR.str());
  if (Ps.empty())
    return std::nullopt;
  return llvm::any_of(Ps, [&](size_t M) {
    return inProgram(M, [&](size_t I) { return Programs[I].Sites.CUDA || Programs[I].Sites.Opaque; });
  });
}

void ProjectModel::decideWidenedHost() {
  using Kind = TensorSource::Kind;
  auto Refers = [](const TensorSource &S) { return S.K == Kind::Call || S.K == Kind::Field; };
  // Candidates: every source a widening chain or a function / field of the project.
  std::set<std::string> Cand;
  for (const auto &[USR, F] : Flows)
    if (!F.Sources.empty() && llvm::all_of(F.Sources, [&](const TensorSource &S) {
          return S.K == Kind::Widened || (Refers(S) && Flows.count(S.USR));
        }))
      Cand.insert(USR);
  std::map<std::string, Widening> W;
  for (size_t Round = 0; Round <= Flows.size() + 1; ++Round) {
    // The greatest fixpoint: a candidate with a source that is not one goes.
    for (bool Removed = true; Removed;) {
      Removed = false;
      for (auto It = Cand.begin(); It != Cand.end();) {
        const TensorFlow &F = Flows.at(*It);
        if (llvm::any_of(F.Sources, [&](const TensorSource &S) { return Refers(S) && !Cand.count(S.USR); })) {
          It = Cand.erase(It);
          Removed = true;
        } else {
          ++It;
        }
      }
    }
    // Grounded in a widening chain (a cycle of fields and functions alone holds no tensor), with
    // the dtypes and place of the first widening reached.
    W.clear();
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const std::string &USR : Cand) {
        if (W.count(USR))
          continue;
        for (const TensorSource &S : Flows.at(USR).Sources) {
          if (S.K == Kind::Widened) {
            W[USR] = Widening{S.From, S.To, S.In, S.File, S.Line};
          } else if (auto It = W.find(S.USR); It != W.end()) {
            Widening Copy = It->second;
            W[USR] = std::move(Copy);
          } else {
            continue;
          }
          Grew = true;
          break;
        }
      }
    }
    // One narrow dtype and one wide one for all the sources of each.
    std::set<std::string> Bad;
    for (const std::string &USR : Cand) {
      auto Mine = W.find(USR);
      if (Mine == W.end()) {
        Bad.insert(USR);
        continue;
      }
      for (const TensorSource &S : Flows.at(USR).Sources) {
        std::pair<std::string, std::string> Pair;
        if (S.K == Kind::Widened)
          Pair = {S.From, S.To};
        else if (auto It = W.find(S.USR); It != W.end())
          Pair = {It->second.From, It->second.To};
        else
          continue;
        if (Pair != std::make_pair(Mine->second.From, Mine->second.To))
          Bad.insert(USR);
      }
    }
    if (Bad.empty())
      break;
    for (const std::string &USR : Bad)
      Cand.erase(USR);
  }
  for (const std::string &USR : Cand)
    if (auto It = W.find(USR); It != W.end())
      WidenedHost.emplace(USR, It->second);
}

std::optional<Widening> ProjectModel::widenedHost(llvm::StringRef USR) const {
  auto It = WidenedHost.find(USR.str());
  if (It == WidenedHost.end())
    return std::nullopt;
  return It->second;
}

std::string ProjectModel::flowName(llvm::StringRef USR) const {
  auto It = Flows.find(USR.str());
  if (It == Flows.end())
    return "";
  const TensorFlow &F = It->second;
  if (llvm::StringRef(USR).rsplit('#').second.starts_with("example"))
    return "the data set's " + F.Name + "() (" + baseName(F.File) + ")";
  return (F.IsField ? "the field " + F.Name : F.Name + "()") + " (" + baseName(F.File) + ")";
}

std::optional<Hot> ProjectModel::functionHot(llvm::StringRef USR) const {
  auto It = HotFunctions.find(USR.str());
  if (It == HotFunctions.end())
    return std::nullopt;
  return It->second;
}

std::optional<bool> ProjectModel::inStepLoop(llvm::StringRef File, unsigned Line, unsigned Column) const {
  std::optional<LoopRef> L = loopAt(File, Line, Column);
  if (!L)
    return std::nullopt;
  return stepLoopAround(L->first, L->second) >= 0;
}

bool ProjectModel::resolve(Finding &F) const {
  std::optional<HotBasis> B = takeBasis(F.Message);
  if (!B)
    return true;
  if (!Renamed.empty()) { // the definition of the finding's file, among several of one USR
    B->FunctionUSR = modelUSR(B->FunctionUSR, F.File);
    for (std::vector<std::string> *Keys : {&B->HostIfFields, &B->IfConstantArgs, &B->UnlessNullArgs})
      for (std::string &K : *Keys)
        K = modelKey(K, F.File);
    for (std::string &U : B->IfWidenedHost)
      U = modelUSR(U, F.File);
  }
  auto Keep = [&](const std::string &Why, const std::vector<PathStep> *Path) {
    if (!Why.empty())
      F.Message += " (" + Why + ")";
    if (Path)
      for (const PathStep &P : *Path)
        F.Notes.push_back({P.Message, P.File, P.Line, P.Column, 0});
    return true;
  };
  // Reached only through a logging branch: the sync checks report it as a remark, saying why (as
  // SyncCheck::reportSync does within one file), and say nothing when it runs once per logging
  // interval (no loop from the branch down to the sync), which is what they advise.
  auto KeepHot = [&](const Hot &H) {
    const CheckInfo *Info = findCheck(F.Check);
    bool Sync = Info && Info->Category == "host-device-sync";
    if (Sync && H.RareOnce && !B->InLoop)
      return false;
    // An allocation or a launch per call, reached only through logging branches: paid once per
    // interval (CheckInfo::costsPerCall; diffusion-cpp's sampler schedule, built every
    // sampleEveryStep steps).
    if (Info && Info->costsPerCall() && !H.Rare.empty())
      return false;
    if (!H.Rare.empty() && F.Level == "warning" && Sync &&
        F.Message.find("; a remark, not a warning: ") == std::string::npos) {
      F.Level = "remark";
      F.Message += "; a remark, not a warning: " + H.Rare;
    }
    return Keep(H.Why, &H.Path);
  };
  // Advice for CUDA programs in a TU that does not use CUDA itself, in a project no TU of which does.
  if (B->IfProjectUsesCUDA && !UsesCUDA)
    return false;
  // A sync in a TU that names no device, run only by programs that never use CUDA (an agent
  // library driven by a CPU example, beside other programs that use CUDA).
  if (B->IfProgramUsesCUDA && !B->FunctionUSR.empty() && programsReachingMayUseCUDA(B->FunctionUSR) == false)
    return false;
  // A sync on tensors read from fields that the project only ever fills with host tensors, or
  // that every program running the code fills so.
  if (!B->HostIfFields.empty() &&
      (llvm::all_of(B->HostIfFields, [&](const std::string &U) { return deviceOfKey(U) == FieldDevice::Host; }) ||
       (!B->FunctionUSR.empty() && hostInEveryProgram(B->FunctionUSR, B->HostIfFields))))
    return false;
  // A constant built from parameters: reported only if every call in the project passes constants.
  if (!llvm::all_of(B->IfConstantArgs, [&](const std::string &K) { return constantAtEveryCall(K); }))
    return false;
  // Code under `if (p != nullptr)` where every call in the project passes null for p never runs.
  if (llvm::any_of(B->UnlessNullArgs, [&](const std::string &K) { return nullAtEveryCall(K); }))
    return false;
  // A copy of tensors from functions and fields of other files: reported only if the project
  // widens every one of them on the host, from one narrow dtype to one wide one.
  if (!B->IfWidenedHost.empty()) {
    std::optional<Widening> W;
    for (const std::string &U : B->IfWidenedHost) {
      std::optional<Widening> Mine = widenedHost(U);
      if (!Mine || (W && (Mine->From != W->From || Mine->To != W->To)))
        return false;
      if (!W)
        W = Mine;
    }
    std::string From = dtypeWord(W->From), To = dtypeWord(W->To);
    std::string Names =
        listSome(B->IfWidenedHost.size(), 3, [&](size_t I) { return flowName(B->IfWidenedHost[I]); });
    std::string What = "the " + To + " tensor from " + Names + " was converted from " + From + " on the host (in " +
                       W->In + "(), " + baseName(W->File) + ":" + std::to_string(W->Line) + ")";
    unsigned FromSize = scalarTypeSize(W->From);
    std::string Factor = FromSize ? std::to_string(scalarTypeSize(W->To) / FromSize) : "more";
    for (auto [Token, Text] : {std::pair<llvm::StringRef, const std::string &>{WidenedWhat, What},
                               {WidenedFrom, From},
                               {WidenedFactor, Factor}})
      for (size_t At; (At = F.Message.find(Token.str())) != std::string::npos;)
        F.Message.replace(At, Token.size(), Text);
  }
  // Decided on facts of other files, not on hotness.
  if (B->K == HotBasis::Project) {
    if (llvm::any_of(B->IfNoGradients, [&](const std::string &U) { return needsGradients(U); }))
      return false;
    if (B->ProgramNeeds.empty())
      return true;
    std::optional<ProgramSites> P = programFacts(B->File, B->Line);
    if (!P) { // a main() the model does not know (an index older than the file): the TU's answer
      if (B->Why.empty())
        return false;
      F.Message = B->Why;
      return true;
    }
    for (llvm::StringRef Need : B->ProgramNeeds) {
      bool Absent = Need.consume_front("!");
      const Site *S = Need == "conv" ? &P->Conv : Need == "cuda" ? &P->CUDA : Need == "trains" ? &P->Trains
                      : Need == "cudnn"                          ? &P->Cudnn
                                                                 : nullptr;
      if (!S || bool(*S) == Absent)
        return false;
    }
    // Where each fact is: "line 12" in main()'s file, "model.cpp:12" elsewhere, with a note there.
    auto At = [&](const Site &S, llvm::StringRef Note) {
      if (S.File == P->Main.File)
        return "line " + std::to_string(S.Line);
      F.Notes.push_back({Note.str(), S.File, S.Line, S.Column, 0});
      return baseName(S.File) + ":" + std::to_string(S.Line);
    };
    std::vector<std::pair<llvm::StringRef, std::string>> Fill;
    if (P->Conv)
      Fill.push_back({ProgramConvName, P->Conv.What});
    if (F.Message.find(ProgramConvAt) != std::string::npos && P->Conv)
      Fill.push_back({ProgramConvAt, At(P->Conv, "builds " + P->Conv.What + " here")});
    if (F.Message.find(ProgramCudaAt) != std::string::npos && P->CUDA)
      Fill.push_back({ProgramCudaAt, At(P->CUDA, "uses CUDA here")});
    if (F.Message.find(ProgramTrainsAt) != std::string::npos && P->Trains)
      Fill.push_back({ProgramTrainsAt, At(P->Trains, "trains here")});
    for (const auto &[Token, Text] : Fill)
      for (size_t Pos; (Pos = F.Message.find(Token.str())) != std::string::npos;)
        F.Message.replace(Pos, Token.size(), Text);
    return true;
  }
  // Nothing in the project trains (a snippet, an inference tool): the model cannot tell which
  // loop is a step, and this TU's answer stands.
  if (!hasStepLoops()) {
    if (B->K == HotBasis::Conditional)
      return false;
    return Keep(B->Why, nullptr);
  }
  std::optional<Hot> H = functionHot(B->FunctionUSR);
  switch (B->K) {
  case HotBasis::Loop: {
    std::optional<bool> InStep = inStepLoop(B->File, B->Line, B->Column);
    if (!InStep || *InStep)
      return Keep(B->Why, nullptr);
    if (H)
      return KeepHot(*H);
    return false; // a loop that runs no training step (loading, parsing, saving), in code that is not hot
  }
  case HotBasis::Function:
    if (H)
      return KeepHot(*H);
    return !knowsFunction(B->FunctionUSR) && Keep(B->Why, nullptr);
  case HotBasis::Conditional:
    if (H)
      return KeepHot(*H);
    return false;
  }
  return true;
}

} // namespace torchlint::model
