#include "rules/EvalNoGradCheck.h"
#include "analysis/Autograd.h"
#include "analysis/HotCode.h"
#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "fixits/SetupFixes.h"
#include "model/TUSummary.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// The words of an identifier, lower-cased: "runValidation_epoch" -> run, validation, epoch.
std::vector<std::string> identifierWords(llvm::StringRef Name) {
  std::vector<std::string> Words;
  std::string Cur;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    bool Upper = C >= 'A' && C <= 'Z';
    if (C == '_' || (Upper && !Cur.empty() && !(Name[I - 1] >= 'A' && Name[I - 1] <= 'Z'))) {
      if (!Cur.empty())
        Words.push_back(Cur);
      Cur.clear();
      if (C == '_')
        continue;
    }
    Cur += Upper ? char(C - 'A' + 'a') : C;
  }
  if (!Cur.empty())
    Words.push_back(Cur);
  return Words;
}

/// A function named as an evaluation or inference routine: one of its words is eval, evaluate,
/// validate, validation, val, test, infer, inference, predict, ...
AST_MATCHER(FunctionDecl, isNamedLikeEvaluation) {
  if (!Node.getDeclName().isIdentifier() || isa<CXXConstructorDecl, CXXDestructorDecl>(Node))
    return false;
  // Cheap filter first: matched against every function, libtorch's included.
  std::string Lower = Node.getName().lower();
  llvm::StringRef L(Lower);
  if (!L.contains("val") && !L.contains("test") && !L.contains("infer") && !L.contains("predict"))
    return false;
  static const llvm::StringRef Names[] = {"eval",      "evaluate", "evaluation", "validate", "validation",
                                          "val",       "valid",    "test",       "testing",  "infer",
                                          "inference", "predict",  "prediction"};
  for (const std::string &W : identifierWords(Node.getName()))
    for (llvm::StringRef N : Names)
      if (W == N)
        return true;
  return false;
}
} // namespace

void EvalNoGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("eval"), ofClass(hasName("::torch::nn::Module"))))).bind("call"),
      this);
  // Evaluation routines that never call eval() (a model without dropout or batch norm needs none).
  Finder->addMatcher(functionDecl(isDefinition(), isNamedLikeEvaluation()).bind("routine"), this);
  // The trained model run again after its training loop, in the function that trains it.
  Finder->addMatcher(functionDecl(isDefinition(), unless(isImplicit())).bind("trainer"), this);
  // model->eval() on a model whose type is a template parameter, in a template never instantiated.
  Finder->addMatcher(
      callExpr(callee(cxxDependentScopeMemberExpr(hasMemberName("eval"))), argumentCountIs(0)).bind("call"), this);
}

namespace {
bool isEvalCall(const CallExpr *C) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MD->getName() == "eval" && MD->getParent()->getQualifiedNameAsString() == "torch::nn::Module";
}

/// `m->train()` / `m->train(true)`: torch::nn::Module::train.
bool isTrainModeCall(const CallExpr *C) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MD->getDeclName().isIdentifier() && MD->getName() == "train" &&
         MD->getParent()->getQualifiedNameAsString() == "torch::nn::Module";
}

/// A call that manages grad mode by hand (GradMode::set_enabled, an AutoGradMode guard).
bool setsGradMode(const CallExpr *C) {
  const FunctionDecl *Callee = C->getDirectCallee();
  if (!Callee)
    return false;
  std::string Name = Callee->getQualifiedNameAsString();
  return Name == "c10::GradMode::set_enabled" || Name == "c10::AutoGradMode::AutoGradMode";
}

/// Void or a number: the function gives back no tensor (that the caller could train on, and whose
/// gradients a guard would stop).
bool returnsNoTensor(const FunctionDecl *FD) {
  QualType Ret = FD->getReturnType();
  return Ret->isVoidType() || Ret->isArithmeticType();
}

/// The fix of both shapes: `torch::NoGradGuard no_grad;` at the start of FD, unless FD already
/// declares a `no_grad`.
void addGuardFix(DiagnosticBuilder &D, const FunctionDecl *FD, const ASTContext &Ctx) {
  if (declaresName(FD->getBody(), "no_grad"))
    return;
  std::vector<FixItHint> Fixes;
  if (insertAtFunctionStart(FD, "torch::NoGradGuard no_grad;", Ctx, Fixes))
    for (const FixItHint &F : Fixes)
      D << F;
}

/// The variable E names, through member accesses and dereferences: `x`, `this->m`, `*p`.
const ValueDecl *baseDecl(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return ME->getMemberDecl();
      E = ME->getBase();
      continue;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getNumArgs() >= 1 && (OC->getOperator() == OO_Star || OC->getOperator() == OO_Arrow))
      E = OC->getArg(0);
    else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

bool isLocalOf(const ValueDecl *D, const FunctionDecl *FD) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->getParentFunctionOrMethod() == FD;
}

/// True when FD may hand a tensor it computes to code outside it: an out-parameter (non-const
/// reference or pointer to anything that can hold tensors), or a tensor assigned to or pushed
/// into something that is not one of its locals (a member, a global, a parameter).
bool mayStoreTensorsOutside(const FunctionDecl *FD) {
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (!(T->isReferenceType() || T->isPointerType()))
      continue;
    QualType Pointee = T->getPointeeType();
    if (Pointee.isConstQualified() || Pointee->isArithmeticType())
      continue;
    const CXXRecordDecl *RD = Pointee->getAsCXXRecordDecl();
    // Modules and data loaders are taken by reference as a matter of course; anything else that
    // may hold a tensor (a Tensor, a container, a user struct) is a possible out-parameter.
    if (moduleImplOf(Pointee) || isDataLoaderType(Pointee) || (RD && isOptimizerClass(RD)))
      continue;
    if (RD && isTensorType(Pointee))
      return true;
    if (RD && (RD->getQualifiedNameAsString().find("std::") == 0 || !isTorchDecl(RD)))
      return true;
  }
  // Tensor assignments (operator=) and container insertions are both calls.
  bool Stores = false;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
        OC && OC->isAssignmentOp() && OC->getNumArgs() == 2 && isTensorType(OC->getArg(0)->getType()))
      if (!isLocalOf(baseDecl(OC->getArg(0)), FD))
        Stores = true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      if (const CXXMethodDecl *MD = MC->getMethodDecl())
        if (MD->getDeclName().isIdentifier() &&
            llvm::is_contained({"push_back", "emplace_back", "insert", "emplace", "append"}, MD->getName()))
          for (const Expr *A : MC->arguments())
            if (isTensorType(A->getType()) && !isLocalOf(baseDecl(MC->getImplicitObjectArgument()), FD))
              Stores = true;
  });
  return Stores;
}
} // namespace

bool EvalNoGradCheck::mayNeedGradientsHere(const FunctionDecl *FD, std::vector<std::string> &Elsewhere) const {
  if (!projectMode())
    return mayNeedGradients(FD);
  std::vector<GradientCallee> Callees;
  if (mayNeedGradients(FD, Callees))
    return true;
  for (const GradientCallee &C : Callees) {
    std::string U = model::usrOf(C.Callee);
    if (U.empty())
      return true;
    Elsewhere.push_back(model::gradientCalleeKey(std::move(U), C.HandedNoTensors));
  }
  return false;
}

DiagnosticBuilder EvalNoGradCheck::reportFinding(SourceLocation Loc, llvm::StringRef Msg,
                                                 const std::vector<std::string> &Elsewhere) {
  if (Elsewhere.empty())
    return report(Loc, Msg);
  // Functions it calls are defined in other files (a module's forward() in net.cpp): the project
  // model says whether any of them needs gradients.
  model::HotBasis B;
  B.IfNoGradients = Elsewhere;
  return reportForProject(Loc, Msg, B);
}

void EvalNoGradCheck::checkRoutine(const FunctionDecl *FD, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = FD->getLocation();
  // Templates are analysed in their instantiations (a data loader's type is a template
  // parameter in most evaluation loops); identical findings from several are reported once.
  if (!FD->getBody() || Loc.isMacroID() || !inUserCode(Loc, SM) || FD->isDependentContext())
    return;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getName() == "forward")
    return;
  // Only routines that give back no tensor: a returned tensor may be trained on by the caller.
  if (!returnsNoTensor(FD))
    return;
  std::vector<std::string> Elsewhere;
  if (inTestCode(FD->getBody(), Ctx) || mayNeedGradientsHere(FD, Elsewhere) || mayStoreTensorsOutside(FD))
    return;
  bool SkipRoutine = false;
  const CallExpr *Forward = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (isEvalCall(C) || setsGradMode(C))
      SkipRoutine = true; // the eval() path reports it, or grad mode is managed by hand
    if (!Forward && moduleOfForwardCall(C) && !C->getBeginLoc().isMacroID() && !gradDisabledAt(C, Ctx))
      Forward = C;
  });
  if (SkipRoutine || !Forward)
    return;
  // The absence of a guard in every caller of the routine: code with errors in it or in a function that leads
  // to it, or that names one of them, may hold one (the check's evidence, EvalNoGradCheck.h).
  if (callChainRestsOnErrors(Forward, Ctx))
    return;
  std::string Msg = "evaluation routine " + FD->getNameAsString() +
                    "() runs forward() with gradient recording on: it trains nothing and returns no tensor, yet "
                    "autograd saves every activation for a backward() that never comes; add `torch::NoGradGuard "
                    "no_grad;` (or c10::InferenceMode) to it";
  auto D = reportFinding(Forward->getBeginLoc(), Msg, Elsewhere);
  addGuardFix(D, FD, Ctx);
}

namespace {
/// A call of FD's body with the loops around it (innermost last). Lambda bodies are not FD's code.
struct CallSite {
  const CallExpr *Call;
  llvm::SmallVector<const Stmt *, 4> Loops;
};
void collectCalls(const Stmt *S, llvm::SmallVectorImpl<const Stmt *> &Loops, std::vector<CallSite> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *C = dyn_cast<CallExpr>(S))
    Out.push_back({C, {Loops.begin(), Loops.end()}});
  bool Loop = isLoopStatement(S); // HotCode's: not the `do { } while (0)` of macros
  if (Loop)
    Loops.push_back(S);
  for (const Stmt *Ch : S->children())
    collectCalls(Ch, Loops, Out);
  if (Loop)
    Loops.pop_back();
}

/// The model whose forward() C runs, as the variable or member that holds it: a module
/// (moduleOfForwardCall), or the object of a user class's own `forward` method (a model that is
/// not an nn::Module, e.g. a renderer with its parameters in tensors).
const ValueDecl *forwardedModel(const CallExpr *C) {
  if (const Expr *M = moduleOfForwardCall(C))
    return baseDecl(M);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() || MD->getName() != "forward" || isTorchDecl(MD) ||
      MD->getReturnType()->isVoidType())
    return nullptr;
  return baseDecl(MC->getImplicitObjectArgument());
}

/// A user function whose name says it trains: one of its words is train, fit, tune, step, update,
/// backward, optimize, learn.
bool namedLikeTraining(const FunctionDecl *FD) {
  if (!FD->getDeclName().isIdentifier())
    return false;
  for (const std::string &W : identifierWords(FD->getName()))
    if (llvm::is_contained({"train", "training", "fit", "finetune", "tune", "step", "update", "backward", "optimize", "optimise",
                            "learn"},
                           W) ||
        llvm::StringRef(W).starts_with("optimiz"))
      return true;
  return false;
}

/// A function of the user's code: not libtorch's, nor the standard library's or another library's
/// (a member of std::basic_ostream is not in namespace std itself, but in a system header).
bool isUserFunction(const FunctionDecl *F, const SourceManager &SM) {
  return F && !isTorchDecl(F) && !F->isInStdNamespace() && !isLibraryLocation(SM, F->getLocation());
}

/// True when Call (after the evaluation) may need gradients: a user function whose body in this TU
/// does (mayNeedGradients), or whose body is elsewhere and whose name says it trains.
bool laterCallMayTrain(const CallExpr *Call, const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!isUserFunction(Callee, SM))
    return false;
  if (const FunctionDecl *Def = Callee->getDefinition(); Def && Def->hasBody())
    return mayNeedGradients(Def);
  return namedLikeTraining(Callee);
}

/// The statement of a compound (block) that contains E.
const Stmt *statementOf(const Expr *E, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Cur = E;
  for (unsigned Depth = 0; Cur && Depth < 64; ++Depth) {
    const Stmt *P = HC.parentOf(Cur);
    if (!P)
      return nullptr;
    if (isa<CompoundStmt>(P))
      return Cur;
    Cur = P;
  }
  return nullptr;
}

/// True when E's value is stored in a variable declared before Before (an assignment to it, or a
/// push into it): it may outlive the evaluation and feed later training. Not an assignment to a
/// plain local tensor of the function (`output = net->forward(image);` reusing the training
/// loop's `output`): the function's later code trains nothing (checkAfterTraining), and the local
/// dies with the call.
bool storedBeyond(const Expr *E, SourceLocation Before, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Expr *Cur = E;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *P = dyn_cast_or_null<Expr>(HC.parentOf(Cur));
    if (!P)
      return false;
    const Expr *Target = nullptr;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P); OC && OC->isAssignmentOp() && OC->getNumArgs() == 2)
      Target = OC->getArg(0);
    else if (const auto *BO = dyn_cast<BinaryOperator>(P); BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P); MC && MC->getImplicitObjectArgument() != Cur)
      if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && MD->getDeclName().isIdentifier() &&
          llvm::is_contained({"push_back", "emplace_back", "insert", "emplace", "append"}, MD->getName()))
        Target = MC->getImplicitObjectArgument();
    if (Target && Target != Cur) {
      const ValueDecl *D = baseDecl(Target);
      if (const auto *VD = dyn_cast_or_null<VarDecl>(D); VD && VD->isLocalVarDecl() && !VD->isStaticLocal() &&
          !VD->getType()->isReferenceType() && isTensorType(VD->getType()) && !isa<CXXMemberCallExpr>(P) &&
          isa<DeclRefExpr>(Target->IgnoreParenImpCasts()))
        return false;
      return !D || !isa<VarDecl>(D) || !cast<VarDecl>(D)->isLocalVarDecl() ||
             SM.isBeforeInTranslationUnit(D->getLocation(), Before);
    }
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr, CXXConstructExpr,
             ExprWithCleanups>(P))
      return false;
    Cur = P;
  }
  return false;
}

/// True when Def's code, or that of a user function it calls (transitively, as deep as
/// mayNeedGradients looks), has compiler errors: a backward() there would not be seen.
bool codeHasErrors(const FunctionDecl *Def, ASTContext &Ctx, unsigned Depth,
                   llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!Def || !Def->getBody() || Def->isImplicit() || Def->isDefaulted() ||
      !isUserFunction(Def, Ctx.getSourceManager()) || !Seen.insert(Def->getCanonicalDecl()).second)
    return false;
  if (scopeHasErrors(Ctx, Def->getBody()->getBeginLoc(), /*WholeTU=*/false))
    return true;
  if (Depth >= 4)
    return false;
  bool Errors = false;
  forEachCall(Def->getBody(), [&](const CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    const FunctionDecl *CalleeDef = nullptr;
    if (!Errors && isUserFunction(Callee, Ctx.getSourceManager()) && Callee->hasBody(CalleeDef))
      Errors = codeHasErrors(CalleeDef, Ctx, Depth + 1, Seen);
  });
  return Errors;
}

/// The scope of distrust of an after-training finding at forward() C of FD (issue 25): FD's own
/// code, and the user functions FD calls after C (Later), which decide whether the model is
/// trained again. Code with errors elsewhere in the TU does not matter. (gradDisabledAt also asks
/// FD's callers, but a caller's guard would stop the training in FD too: no caller of a function
/// that trains holds one, and code with errors there cannot hide one that matters.) Code of FD
/// typed through synthesised declarations (a plotting library's calls after the test pass) is
/// judged: it is distrusted only when the model (Model) is handed to it, which might train it.
bool afterTrainingRestsOnErrors(const CallExpr *C, const ValueDecl *Model, llvm::ArrayRef<const FunctionDecl *> Later,
                                ASTContext &Ctx) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  if (functionHasRealErrors(Ctx, C->getBeginLoc()) || declRestsOnErrors(Ctx, Model))
    return true;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  return llvm::any_of(Later, [&](const FunctionDecl *Def) { return codeHasErrors(Def, Ctx, 0, Seen); });
}
} // namespace

void EvalNoGradCheck::checkAfterTraining(const FunctionDecl *FD, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = FD->getLocation();
  if (!FD->getBody() || Loc.isMacroID() || !inUserCode(Loc, SM) || FD->isDependentContext() || !returnsNoTensor(FD))
    return;
  std::vector<CallSite> Calls;
  llvm::SmallVector<const Stmt *, 4> Loops;
  collectCalls(FD->getBody(), Loops, Calls);
  // Loops that train (a backward() or an optimizer step in them, directly).
  llvm::SmallPtrSet<const Stmt *, 8> TrainingLoops;
  const CallExpr *LastTraining = nullptr;
  for (const CallSite &S : Calls) {
    if (setsGradMode(S.Call))
      return; // grad mode is managed by hand
    if (isTrainingCall(S.Call)) {
      TrainingLoops.insert(S.Loops.begin(), S.Loops.end());
      if (!LastTraining || SM.isBeforeInTranslationUnit(LastTraining->getBeginLoc(), S.Call->getBeginLoc()))
        LastTraining = S.Call;
    }
  }
  if (TrainingLoops.empty())
    return;
  // The model each call runs forward() of (null: none), and the training loops that run each.
  std::vector<const ValueDecl *> Models(Calls.size());
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const Stmt *, 2>> TrainedIn;
  for (size_t I = 0; I < Calls.size(); ++I)
    if ((Models[I] = forwardedModel(Calls[I].Call)))
      for (const Stmt *L : Calls[I].Loops)
        if (TrainingLoops.count(L))
          TrainedIn[Models[I]].push_back(L);
  for (size_t I = 0; I < Calls.size(); ++I) {
    const CallSite &S = Calls[I];
    const CallExpr *C = S.Call;
    const ValueDecl *M = Models[I];
    if (!M || !TrainedIn.count(M) || C->getBeginLoc().isMacroID())
      continue;
    // After every training call of the function, in no loop that trains.
    if (llvm::any_of(S.Loops, [&](const Stmt *L) { return TrainingLoops.count(L) > 0; }) ||
        !SM.isBeforeInTranslationUnit(LastTraining->getBeginLoc(), C->getBeginLoc()))
      continue;
    const Stmt *Trained = nullptr;
    for (const Stmt *L : TrainedIn[M])
      if (!Trained && SM.isBeforeInTranslationUnit(L->getEndLoc(), C->getBeginLoc()))
        Trained = L; // the outermost (an epoch loop rather than its batch loop)
    if (!Trained || gradDisabledAt(C, Ctx) || inTestCode(C, Ctx) || storedBeyond(C, Trained->getEndLoc(), Ctx))
      continue;
    bool Trains = false, FixSafe = true;
    llvm::SmallVector<const FunctionDecl *, 8> LaterBodies; // the later user functions with a body in the TU
    for (const CallSite &Later : Calls) {
      if (!SM.isBeforeInTranslationUnit(C->getEndLoc(), Later.Call->getBeginLoc()))
        continue;
      if (laterCallMayTrain(Later.Call, SM))
        Trains = true;
      if (const FunctionDecl *Callee = Later.Call->getDirectCallee(); isUserFunction(Callee, SM)) {
        if (const FunctionDecl *Def = Callee->getDefinition(); Def && Def->hasBody())
          LaterBodies.push_back(Def);
        else
          FixSafe = false; // the guard would also cover later calls into user code it cannot see
      }
    }
    if (Trains)
      continue;
    // Errors in this function, or in what decides that nothing trains later, drop the finding
    // (reported once per function: not at a later forward() either).
    if (afterTrainingRestsOnErrors(C, M, LaterBodies, Ctx))
      return;
    std::string Msg = "the model trained by the loop at line " + std::to_string(SM.getSpellingLineNumber(Trained->getBeginLoc())) +
                      " runs forward() again after training with gradient recording on: nothing back-propagates "
                      "through it, yet autograd saves every activation; evaluate under `torch::NoGradGuard no_grad;` "
                      "(or c10::InferenceMode)";
    auto D = report(C->getBeginLoc(), Msg);
    std::vector<FixItHint> Fixes;
    if (FixSafe && !declaresName(FD->getBody(), "no_grad"))
      if (const Stmt *St = statementOf(C, Ctx); St && insertBeforeStatement(St, "torch::NoGradGuard no_grad;", Ctx, Fixes))
        for (const FixItHint &F : Fixes)
          D << F;
    return; // one finding per function: the guard covers the rest
  }
}

bool EvalNoGradCheck::evaluationRegion(const CallExpr *Eval, const FunctionDecl *FD, ASTContext &Ctx,
                                       SourceLocation &End, std::vector<std::string> *Elsewhere) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  // The end: the first train() after eval() within the innermost loop around it, else the end of
  // that loop's body (the next iteration trains again).
  const CallExpr *NextTrain = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (isTrainModeCall(C) && SM.isBeforeInTranslationUnit(Eval->getEndLoc(), C->getBeginLoc()) &&
        (!NextTrain || SM.isBeforeInTranslationUnit(C->getBeginLoc(), NextTrain->getBeginLoc())))
      NextTrain = C;
  });
  const Stmt *Loop = HC.enclosingLoop(Eval);
  if (!Loop)
    return false; // evaluation after the training loops: checkAfterTraining's shape (with its fix-it)
  End = NextTrain && SM.isBeforeInTranslationUnit(NextTrain->getBeginLoc(), Loop->getEndLoc())
            ? NextTrain->getBeginLoc()
            : Loop->getEndLoc();
  // Nothing in the region may need gradients: no backward(), optimizer step, autograd::grad,
  // requires_grad switch, nor a user function that might (or whose body is not here).
  bool Needs = false;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (Needs || SM.isBeforeInTranslationUnit(C->getBeginLoc(), Eval->getEndLoc()) ||
        !SM.isBeforeInTranslationUnit(C->getBeginLoc(), End))
      return;
    if (isTrainingCall(C) || setsGradMode(C)) {
      Needs = true;
      return;
    }
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return;
    if (Callee->getDeclName().isIdentifier() &&
        llvm::is_contained({"requires_grad_", "set_requires_grad", "grad", "backward"}, Callee->getName())) {
      Needs = true;
    } else if (Elsewhere && isUserFunction(Callee, SM)) {
      // With the project model: a user function whose body is in another file (the module's
      // forward() in net.cpp), or in no file of the database (a model written in CUDA files the
      // database leaves out, which may call autograd::grad for forces), is answered by the model
      // (model/ProjectModel.h needsGradients), as for a whole evaluation function.
      const FunctionDecl *Def = nullptr;
      if (Callee->hasBody(Def) && Def) {
        if (mayNeedGradientsHere(Def, *Elsewhere))
          Needs = true;
      } else if (std::string U = model::usrOf(Callee->getCanonicalDecl()); U.empty()) {
        Needs = true;
      } else {
        Elsewhere->push_back(model::gradientCalleeKey(std::move(U), handedNoTensors(C)));
      }
    } else if (laterCallMayTrain(C, SM)) { // a body here that may need gradients, or one elsewhere named like training
      Needs = true;
    }
  });
  return !Needs;
}

void EvalNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("trainer")) {
    checkAfterTraining(FD, *Result.Context);
    return;
  }
  if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("routine")) {
    checkRoutine(FD, *Result.Context);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, SM) || Loc.isMacroID())
    return;
  const FunctionDecl *FD = enclosingFunction(Call, Ctx);
  if (!FD || !FD->getBody())
    return;
  // The dependent `model->eval()` of a template never instantiated: its forward() is a dependent
  // `model->forward(x)` (or `model(x)`, not recognised) on the same model.
  const ValueDecl *DependentModel = nullptr;
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreImplicit())) {
    DependentModel = DM->isImplicitAccess() ? nullptr : baseDecl(DM->getBase());
    if (!DependentModel || !isUninstantiatedTemplate(FD))
      return;
    Loc = DM->getMemberLoc(); // at `eval`, as for a typed call
  }
  auto IsForward = [&](const CallExpr *C) {
    if (!DependentModel)
      return moduleOfForwardCall(C) != nullptr;
    const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(C->getCallee()->IgnoreImplicit());
    return DM && !DM->isImplicitAccess() && DM->getMember().getAsString() == "forward" &&
           baseDecl(DM->getBase()) == DependentModel;
  };
  // Quiet where gradients are needed or grad mode is managed by hand. A function that also trains
  // (validation inside the epoch loop, a test pass after it) is judged on the evaluation region
  // alone: from eval() to the next train() (or the end of the loop body around eval()), which must
  // need no gradients.
  std::vector<std::string> Elsewhere;
  SourceLocation RegionEnd; // invalid: the whole function after eval()
  if (mayNeedGradientsHere(FD, Elsewhere)) {
    Elsewhere.clear();
    if (DependentModel || !evaluationRegion(Call, FD, Ctx, RegionEnd, projectMode() ? &Elsewhere : nullptr))
      return;
  }
  auto InRegion = [&](const Stmt *C) {
    return !SM.isBeforeInTranslationUnit(C->getBeginLoc(), Call->getBeginLoc()) &&
           (RegionEnd.isInvalid() || SM.isBeforeInTranslationUnit(C->getBeginLoc(), RegionEnd));
  };
  bool Manual = false;
  const CallExpr *Forward = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (setsGradMode(C))
      Manual = true;
    if (Forward || !InRegion(C))
      return;
    if (IsForward(C) && !gradDisabledAt(C, Ctx))
      Forward = C;
  });
  if (Manual || !Forward || gradDisabledAt(Call, Ctx))
    return;
  // As for a routine: no guard in any caller.
  if (callChainRestsOnErrors(Call, Ctx))
    return;

  std::string Msg = "module evaluated after eval() with gradient recording on: forward() at line " +
                    std::to_string(SM.getSpellingLineNumber(Forward->getBeginLoc())) +
                    " saves every activation for a backward() that never comes; add `torch::NoGradGuard "
                    "no_grad;` (or c10::InferenceMode) to the evaluation scope";
  auto D = reportFinding(Loc, Msg, Elsewhere);
  // The guard also stops gradients of what the function returns: only fix functions that return
  // no tensors; a function that also trains gets no fix (the guard belongs to the region).
  if (RegionEnd.isInvalid() && returnsNoTensor(FD) && !mayNeedGradients(FD))
    addGuardFix(D, FD, Ctx);
}

} // namespace torchlint
