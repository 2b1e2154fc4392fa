#include "rules/OptimizerInLoopCheck.h"
#include "analysis/Autograd.h"
#include "analysis/NnModules.h"
#include "analysis/OptionsFlow.h"
#include "core/AstWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

AST_MATCHER(CXXRecordDecl, optimizerClass) { return isOptimizerClass(&Node); }

/// The optimizer class a make_unique / make_shared call creates.
const CXXRecordDecl *createdOptimizer(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getTemplateSpecializationArgs() || FD->getTemplateSpecializationArgs()->size() < 1)
    return nullptr;
  const TemplateArgument &A = FD->getTemplateSpecializationArgs()->get(0);
  if (A.getKind() != TemplateArgument::Type)
    return nullptr;
  const CXXRecordDecl *RD = A.getAsType()->getAsCXXRecordDecl();
  return RD && isOptimizerClass(RD) ? RD : nullptr;
}

/// How many loops that run training steps are nested in S (through the user functions it calls,
/// a few levels deep): 0 none, 1 a step loop, 2 an epoch loop around a step loop, ...
unsigned trainingLoopDepth(const Stmt *S, unsigned FnDepth, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen);

unsigned depthOfFunction(const FunctionDecl *FD, unsigned FnDepth, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!FD || FnDepth > 3)
    return 0;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || isTorchDecl(Def) || !Seen.insert(Def->getCanonicalDecl()).second)
    return 0;
  unsigned D = trainingLoopDepth(Def->getBody(), FnDepth + 1, Seen);
  Seen.erase(Def->getCanonicalDecl());
  return D;
}

/// True when S trains: it contains a training call (backward(), Optimizer::step()), directly or in
/// a user function it calls.
bool trains(const Stmt *S, unsigned FnDepth, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  bool Found = false;
  forEachCall(S, [&](const CallExpr *C) {
    if (Found)
      return;
    if (isTrainingCall(C)) {
      Found = true;
      return;
    }
    if (FnDepth <= 3)
      if (const FunctionDecl *Callee = C->getDirectCallee())
        if (const FunctionDecl *Def = Callee->getDefinition();
            Def && Def->getBody() && !isTorchDecl(Def) && Seen.insert(Def->getCanonicalDecl()).second) {
          Found = trains(Def->getBody(), FnDepth + 1, Seen);
          Seen.erase(Def->getCanonicalDecl());
        }
  });
  return Found;
}

unsigned trainingLoopDepth(const Stmt *S, unsigned FnDepth, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!S)
    return 0;
  unsigned Best = 0;
  if (isLoopStatement(S) && !isBoundedLoop(S)) {
    unsigned Inner = 0;
    for (const Stmt *C : S->children())
      Inner = std::max(Inner, trainingLoopDepth(C, FnDepth, Seen));
    if (Inner > 0)
      return Inner + 1;
    return trains(S, FnDepth, Seen) ? 1 : 0;
  }
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = C->getDirectCallee())
      Best = depthOfFunction(Callee, FnDepth, Seen);
  for (const Stmt *C : S->children())
    Best = std::max(Best, trainingLoopDepth(C, FnDepth, Seen));
  return Best;
}

/// True when E names a local variable declared inside Scope: the optimizer's parameters come from
/// a model built there, so model and optimizer are rebuilt together (a new training run).
bool namesLocalOf(const Stmt *E, const Stmt *Scope, const SourceManager &SM) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->hasLocalStorage()) {
      SourceRange R = Scope->getSourceRange();
      SourceLocation L = VD->getLocation();
      if (L.isValid() && R.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
          !SM.isBeforeInTranslationUnit(R.getEnd(), L))
        return true;
    }
  for (const Stmt *C : E->children())
    if (namesLocalOf(C, Scope, SM))
      return true;
  return false;
}

/// The state an optimizer class keeps between steps, for the message.
std::string stateOf(const CXXRecordDecl *RD) {
  std::string N = RD->getNameAsString();
  if (N == "Adam" || N == "AdamW")
    return "its moment estimates and step counts";
  if (N == "SGD")
    return "its momentum buffers";
  if (N == "RMSprop")
    return "its running averages of squared gradients";
  if (N == "Adagrad")
    return "its sums of squared gradients";
  if (N == "LBFGS")
    return "its curvature history";
  return "its per-parameter state";
}

/// For torch::optim::SGD: true when its momentum is provably 0 (the default, or set to 0): such an
/// SGD keeps no state, and rebuilding it changes nothing but a parameter list copy.
bool statelessSgd(const CXXRecordDecl *RD, const Expr *Options, ASTContext &Ctx) {
  if (RD->getNameAsString() != "SGD" || !Options)
    return false;
  OptionValue V = resolveOption(Options, "momentum", Ctx);
  if (V.K == OptionValue::Default)
    return true;
  if (V.K == OptionValue::Set && V.Constant && *V.Constant == 0) {
    // Constants are integers: 0.9 would read as 0; ask the written value.
    const Expr *Src = V.Source;
    llvm::APFloat F(0.0);
    if (Src && !Src->isValueDependent()) {
      Expr::EvalResult R;
      if (Src->EvaluateAsRValue(R, Ctx)) {
        if (R.Val.isFloat())
          return R.Val.getFloat().isZero();
        if (R.Val.isInt())
          return R.Val.getInt() == 0;
      }
    }
    return false;
  }
  return false;
}

} // namespace

void OptimizerInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxConstructExpr(hasDeclaration(cxxConstructorDecl(ofClass(optimizerClass()), unless(isCopyConstructor()),
                                                         unless(isMoveConstructor()))))
          .bind("construct"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("::std::make_unique", "::std::make_shared")))).bind("make"),
                     this);
}

void OptimizerInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const Expr *Site = nullptr;
  const CXXRecordDecl *RD = nullptr;
  const Expr *Params = nullptr, *Options = nullptr;
  if (const auto *CE = Result.Nodes.getNodeAs<CXXConstructExpr>("construct")) {
    Site = CE;
    RD = CE->getConstructor()->getParent();
    if (CE->getNumArgs() >= 1)
      Params = CE->getArg(0);
    if (CE->getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(CE->getArg(1)))
      Options = CE->getArg(1);
  } else if (const auto *C = Result.Nodes.getNodeAs<CallExpr>("make")) {
    RD = createdOptimizer(C);
    if (!RD)
      return;
    Site = C;
    if (C->getNumArgs() >= 1)
      Params = C->getArg(0);
    if (C->getNumArgs() >= 2)
      Options = C->getArg(1);
  }
  if (!Site || !RD || !inUserCode(Site->getBeginLoc(), SM))
    return;
  if (statelessSgd(RD, Options, Ctx))
    return;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *FD = HC.enclosingFunction(Site);
  if (!FD || HC.inTestBody(Site))
    return;
  std::string Class = "torch::optim::" + RD->getNameAsString();
  std::string Advice = "; construct it once, before the loop (to change the learning rate, set it on the existing "
                       "optimizer's param_groups(): group.options().set_lr(lr))";

  // Per epoch: the innermost loop around the construction (in this function, or around a call of
  // this function in its callers) runs a step loop once per iteration; not a loop over folds or
  // configurations, whose iterations run whole trainings (two levels of training loops inside).
  auto RepeatedBy = [&](const Stmt *At, const Stmt *Scope) -> const Stmt * {
    const Stmt *Loop = nullptr;
    for (const Stmt *P = HC.parentOf(At); P; P = HC.parentOf(P))
      if (isLoopStatement(P) && !isBoundedLoop(P)) {
        Loop = P;
        break;
      }
    if (!Loop)
      return nullptr;
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    unsigned Depth = trainingLoopDepth(Loop, 0, Seen);
    if (Depth != 2)
      return nullptr; // 1: not around a step loop (or the step loop itself, which is hot); 3+: folds
    if (namesLocalOf(Params, Scope ? Scope : Loop, SM))
      return nullptr;
    return Loop;
  };
  const Stmt *Loop = RepeatedBy(Site, nullptr);
  const FunctionDecl *Via = nullptr;
  if (!Loop && !HC.enclosingLoop(Site)) {
    // A function that builds its optimizer and runs an epoch, called from an epoch loop.
    for (const Expr *Call : HC.callsOf(FD->getCanonicalDecl())) {
      if (HC.inTestBody(Call))
        continue;
      llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
      if (trainingLoopDepth(FD->getBody(), 0, Seen) != 1)
        break; // the function runs whole trainings (or none)
      if (const Stmt *L = RepeatedBy(Call, FD->getBody())) {
        Loop = L;
        Via = HC.enclosingFunction(Call);
        break;
      }
    }
  }
  if (!Loop) {
    // Per step: the construction is hot (asked only now: in project mode, hotContext() makes
    // what is reported after it conditional on the function being hot in the project, which a
    // construction per epoch does not rest on).
    if (auto Hot = hotContext(Site, Ctx)) {
      const Stmt *Inner = HC.enclosingLoop(Site);
      if (Inner && namesLocalOf(Params, Inner, SM))
        return; // a model built per iteration with its optimizer
      report(Site->getBeginLoc(),
             Class + " constructed on every step starts with empty state each time: " + stateOf(RD) +
                 " are thrown away and allocated again, so every step is the optimizer's first (a different "
                 "training, not only a cost)" +
                 Advice,
             Hot);
    }
    return;
  }
  std::string Where = "on every iteration of the epoch loop at line " + std::to_string(HC.line(Loop->getBeginLoc()));
  if (Via)
    Where = "in " + HC.describe(FD) + ", called " + Where + " of " + HC.describe(Via);
  report(Site->getBeginLoc(),
         Class + " constructed " + Where + " starts with empty state each epoch: " + stateOf(RD) +
             " are thrown away, so every epoch restarts the optimizer (a different training, not only a cost)" +
             Advice);
}

} // namespace torchlint
