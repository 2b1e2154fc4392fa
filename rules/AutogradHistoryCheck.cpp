#include "rules/AutogradHistoryCheck.h"
#include "analysis/Autograd.h"
#include "analysis/LocalDataflow.h"
#include "analysis/NnModules.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

const llvm::StringRef StoreMethods[] = {"push_back", "emplace_back", "push_front", "emplace_front"};

/// Tensor methods whose result records no history whatever their object: detached copies, host
/// values, and results that are not differentiable (indices, comparisons, sizes).
bool dropsHistory(llvm::StringRef M) {
  static const llvm::StringRef Names[] = {
      "detach", "detach_", "item", "data", "argmax", "argmin", "eq", "ne", "gt", "lt", "ge", "le",
      "isnan", "isinf", "isfinite", "sign", "nonzero", "logical_and", "logical_or", "logical_not", "logical_xor",
      "round", "floor", "ceil", "trunc", "to_dense", "numel", "size", "sizes", "requires_grad_", "eq_", "bool"};
  for (llvm::StringRef N : Names)
    if (M == N)
      return true;
  return false;
}

/// A libtorch loss function: torch::nn::functional::*_loss, cross_entropy, kl_div, ...; at::/torch::
/// *_loss, binary_cross_entropy*, cross_entropy.
bool isLossFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier() || !isTorchDecl(FD))
    return false;
  llvm::StringRef N = FD->getName();
  return N.ends_with("_loss") || N.starts_with("binary_cross_entropy") || N == "cross_entropy" || N == "kl_div" ||
         N == "nll_loss2d" || N == "poisson_nll_loss" || N == "ctc_loss";
}

/// Backwarded: a loss that backward() was called on, read from the field that holds it
/// (analysis/Autograd.h isDifferentiatedField), or a tensor computed from one. Its graph's saved
/// tensors are freed by that backward(), so nothing can differentiate it again (short of
/// retain_graph): a copy kept past the step only keeps its nodes alive.
enum class Origin { None, Forward, Method, Loss, Derived, Backwarded };

/// The origin of a tensor computed from one of origin O.
Origin derivedFrom(Origin O) { return O == Origin::None || O == Origin::Backwarded ? O : Origin::Derived; }

Origin historyOf(const Expr *E, ASTContext &Ctx, int Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen);

/// A tuple (or pair) of tensors that a module's forward() returned, directly or through a local:
/// Origin::Forward when not under a grad-disabling guard.
Origin tupleHistoryOf(const Expr *E, ASTContext &Ctx, int Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!E || Depth > 8)
    return Origin::None;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1)
    E = CE->getArg(0)->IgnoreImplicit()->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !Seen.insert(VD).second)
      return Origin::None;
    // (std::get takes the tuple by non-const reference, so a tuple read with it "escapes" there:
    // the values it was given before are still what it holds.)
    const VarValues &VV = valuesOf(VD, Ctx);
    for (const Expr *V : VV.Values)
      if (Origin O = tupleHistoryOf(V, Ctx, Depth + 1, Seen); O != Origin::None)
        return O;
    return Origin::None;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    bool Forward = moduleOfForwardCall(Call);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call); !Forward && MC && MC->getMethodDecl())
      Forward = isModuleForward(MC->getMethodDecl());
    if (Forward)
      return gradDisabledAt(Call, Ctx) ? Origin::None : Origin::Forward;
  }
  return Origin::None;
}

/// Whether E records autograd history in a training step: the output of a module's forward()
/// (m(x), m->forward(x)), a loss, a tensor computed from one of these (arithmetic, Tensor methods
/// that keep history), or a local variable one of whose values is such. Not under a grad-disabling
/// guard. Depth-limited.
Origin historyOf(const Expr *E, ASTContext &Ctx, int Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!E || Depth > 8)
    return Origin::None;
  E = stripCopies(E);
  if (!E || !isTensorType(E->getType()))
    return Origin::None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !Seen.insert(VD).second)
      return Origin::None;
    const VarValues &VV = valuesOf(VD, Ctx);
    if (!VV.Known)
      return Origin::None;
    for (const Expr *V : VV.Values) {
      Origin O = historyOf(V, Ctx, Depth + 1, Seen);
      if (O != Origin::None)
        return O == Origin::Derived ? Origin::Derived : O;
    }
    return Origin::None;
  }
  // `result.ppo.loss`: a field that this file calls backward() on (a struct of losses returned
  // by the update and handed on to a recorder).
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()); F && isDifferentiatedField(F, Ctx))
      return gradDisabledAt(E, Ctx) ? Origin::None : Origin::Backwarded;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (moduleOfForwardCall(Call))
      return gradDisabledAt(Call, Ctx) ? Origin::None : Origin::Forward;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD)
        return Origin::None;
      if (isModuleForward(MD))
        return gradDisabledAt(Call, Ctx) ? Origin::None : Origin::Forward;
      // A user module's own method that computes a tensor (`ac->log_prob(a)`, `net->encode(x)`):
      // computed from its parameters like forward().
      if (!isTorchDecl(MD) && isModuleOrDerived(MD->getParent()) && isTensorType(MD->getReturnType()) &&
          !MD->isStatic())
        return gradDisabledAt(Call, Ctx) ? Origin::None : Origin::Method;
      if (!isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)))
        return Origin::None;
      if (!MD->getDeclName().isIdentifier() || dropsHistory(MD->getName()))
        return Origin::None;
      Origin O = historyOf(MC->getImplicitObjectArgument(), Ctx, Depth + 1, Seen);
      for (const Expr *A : MC->arguments())
        if (O == Origin::None)
          O = historyOf(A, Ctx, Depth + 1, Seen);
      return derivedFrom(O);
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
      switch (OC->getOperator()) {
      case OO_Plus:
      case OO_Minus:
      case OO_Star:
      case OO_Slash:
        for (const Expr *A : OC->arguments())
          if (Origin O = historyOf(A, Ctx, Depth + 1, Seen); O != Origin::None)
            return derivedFrom(O);
        return Origin::None;
      default:
        return Origin::None;
      }
    }
    const FunctionDecl *FD = Call->getDirectCallee();
    // `std::get<1>(av)` of the tuple a forward() returned (`auto av = ac->forward(s)`: action and
    // value): an element of the forward's output.
    if (FD && FD->getName() == "get" && FD->isInStdNamespace() && Call->getNumArgs() == 1) {
      Origin O = tupleHistoryOf(Call->getArg(0), Ctx, Depth + 1, Seen);
      return O;
    }
    if (isLossFunction(FD)) {
      if (gradDisabledAt(Call, Ctx))
        return Origin::None;
      // A loss of inputs that are provably detached records nothing; otherwise it is the loss of
      // the step's predictions.
      return Origin::Loss;
    }
    // Other libtorch functions (torch::sum, torch::stack, torch::cat, torch::mean): history
    // when a tensor argument has it.
    if (FD && isTorchDecl(FD) && FD->getDeclName().isIdentifier() && !dropsHistory(FD->getName()) &&
        !FD->getName().starts_with("arg")) {
      for (const Expr *A : Call->arguments())
        if (Origin O = historyOf(A, Ctx, Depth + 1, Seen); O != Origin::None)
          return derivedFrom(O);
    }
    return Origin::None;
  }
  return Origin::None;
}

/// The variable or field an accumulator expression names: `total`, `this->losses_`, `s.history`.
const ValueDecl *accumulatorDecl(const Expr *A) {
  A = A->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(A))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(A))
    return ME->getMemberDecl();
  return nullptr;
}

/// True when local VD is declared within Loop's source range: it is created and destroyed with each
/// iteration.
bool declaredIn(const VarDecl *VD, const Stmt *Loop, const SourceManager &SM) {
  SourceRange R = Loop->getSourceRange();
  SourceLocation L = VD->getLocation();
  if (L.isInvalid() || R.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) && !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

/// True when the accumulator outlives one iteration of the loop around Site: a field, a global or
/// static, a reference (a caller's container), or a local declared outside the innermost loop.
bool outlivesStep(const ValueDecl *D, const Stmt *Site, const HotCodeAnalysis &HC, const SourceManager &SM) {
  if (isa<FieldDecl>(D))
    return true;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return false;
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return true;
  const Stmt *Loop = HC.enclosingLoop(Site);
  return Loop && !declaredIn(VD, Loop, SM);
}

/// Tensor::detach().
bool isTensorDetach(const CXXMethodDecl *MD) {
  return MD && MD->getDeclName().isIdentifier() && MD->getName() == "detach" &&
         isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
}

/// True when D is referenced in S; with OutsideDetach, not counting references inside a
/// `.detach()` (whose result has no history of D's).
bool references(const Stmt *S, const ValueDecl *D, bool OutsideDetach = false) {
  return refersTo(S, D, [&](const Stmt *X) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
    return OutsideDetach && MC && isTensorDetach(MC->getMethodDecl());
  });
}

/// The accumulated history is wanted: the accumulator (or a local computed from it) is
/// differentiated in the function (`total.backward()`, `torch::stack(losses).sum().backward()`,
/// torch::autograd::grad / backward): gradient accumulation over micro-batches, a sequence loss
/// summed over time steps. A read through `.detach()` (`torch::cat(values).detach()` as a
/// baseline) carries none of it.
bool differentiatedLater(const ValueDecl *D, const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return false;
  llvm::SmallVector<const ValueDecl *, 4> Set{D};
  // Locals whose initializer reads the accumulator (a fixed point over the body's declarations).
  for (bool Grew = true; Grew;) {
    Grew = false;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *Dc : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(Dc); VD && VD->getInit() && !llvm::is_contained(Set, VD))
            for (const ValueDecl *X : Set)
              if (references(VD->getInit(), X, /*OutsideDetach=*/true)) {
                Set.push_back(VD);
                Grew = true;
                break;
              }
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(FD->getBody());
  }
  bool Found = false;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (Found)
      return;
    bool Grad = false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      Grad = MD && MD->getDeclName().isIdentifier() && MD->getName() == "backward" &&
             isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
    } else if (const FunctionDecl *Callee = C->getDirectCallee()) {
      std::string N = Callee->getQualifiedNameAsString();
      Grad = N == "torch::autograd::backward" || N == "torch::autograd::grad";
    }
    if (Grad)
      for (const ValueDecl *X : Set)
        if (references(C, X, /*OutsideDetach=*/true))
          Found = true;
  });
  return Found;
}

enum class Reset { Never, EveryIteration, Sometimes };

/// S empties or replaces D: `D.clear()`, `D.zero_()`, `D = zeros(...)` (not `D = D + t`).
bool isResetOf(const Stmt *S, const ValueDecl *D) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() &&
        (MD->getName() == "clear" || MD->getName() == "zero_" || MD->getName() == "detach_" ||
         MD->getName() == "pop_back" || MD->getName() == "erase") &&
        accumulatorDecl(MC->getImplicitObjectArgument()) == D)
      return true;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
      OC && OC->getOperator() == OO_Equal && accumulatorDecl(OC->getArg(0)) == D && !references(OC->getArg(1), D))
    return true;
  return false;
}

/// A statement after Site's, in the block that holds Site inside its loop, empties D on every
/// path (not under a branch or a loop of its own): a store followed by the reset in the same
/// block (`if (c % n == 0) { v.push_back(last); update(v); v.clear(); }`) keeps one graph only
/// until then.
bool resetLaterInBlock(const ValueDecl *D, const Stmt *Site, const HotCodeAnalysis &HC) {
  const Stmt *Loop = HC.enclosingLoop(Site);
  const Stmt *Cur = Site;
  for (const Stmt *P = HC.parentOf(Cur); P && Cur != Loop; Cur = P, P = HC.parentOf(P)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    bool After = false;
    for (const Stmt *Child : Block->body()) {
      if (Child == Cur) {
        After = true;
        continue;
      }
      if (After && isResetOf(Child->IgnoreContainers(), D))
        return true;
      if (const auto *E = dyn_cast<ExprWithCleanups>(Child); After && E && isResetOf(E->getSubExpr(), D))
        return true;
    }
    return false; // the innermost block only
  }
  return false;
}

/// The accumulator is reset or emptied in the same loop (`losses.clear()`, `total = zeros(...)`
/// other than the accumulation itself): on every iteration it holds one step's history at a time;
/// under a condition (`if (c % n_steps == 0) { ...; buffer.clear(); }`) the history of the steps
/// in between.
Reset resetInLoop(const ValueDecl *D, const Stmt *Site, const Stmt *Accum, const HotCodeAnalysis &HC) {
  const Stmt *Loop = HC.enclosingLoop(Site);
  if (!Loop)
    return Reset::Never;
  Reset R = Reset::Never;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Conditional) {
    if (!S || R == Reset::EveryIteration || S == Accum)
      return;
    if (isResetOf(S, D)) {
      R = Conditional ? Reset::Sometimes : Reset::EveryIteration;
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Walk(If->getCond(), Conditional);
      Walk(If->getThen(), true);
      Walk(If->getElse(), true);
      return;
    }
    // A nested loop's body may run no time (for, while, range-for); a do-while's runs at least
    // once, like a `do { } while (0)` macro wrapper: a reset there runs on every iteration. (Not
    // HotCode's isLoopStatement, which counts do-while loops: that would make such a reset
    // conditional.)
    bool Inner = Conditional || isa<SwitchStmt, ConditionalOperator>(S) || (S != Loop && isa<ForStmt, WhileStmt, CXXForRangeStmt>(S));
    for (const Stmt *C : S->children())
      Walk(C, Inner);
  };
  Walk(Loop, false);
  return R;
}

/// Every read of local container D in FD is detached: `torch::cat(v).detach()`,
/// `torch::stack(v).detach()`, besides the container's own bookkeeping (push_back, clear, size,
/// empty, reserve). The history it keeps is never used.
/// G only computes its result from its arguments: a free function or a static method defined
/// here, outside libtorch, that needs no gradients (no backward(), grad(), requires_grad, nor a
/// call of a function that might) and names no global or static variable (nothing it reads can
/// outlive the call but what it returns, or writes into its other arguments).
static bool computesFromArguments(const FunctionDecl *G) {
  G = G ? G->getDefinition() : nullptr;
  if (!G || !G->getBody() || isTorchDecl(G) || isLibraryLocation(G->getASTContext().getSourceManager(), G->getLocation()))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(G); M && !M->isStatic())
    return false;
  if (mayNeedGradients(G))
    return false;
  bool Global = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Global)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasGlobalStorage() && !V->getType().isConstQualified())
        Global = true;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(G->getBody());
  return !Global;
}

bool readsOnlyDetached(const ValueDecl *D, const FunctionDecl *FD, std::string *Through, unsigned Depth) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || !VD->isLocalVarDecl() || !FD || !FD->getBody() || Depth > 2)
    return false;
  llvm::SmallPtrSet<const Stmt *, 16> Allowed;
  unsigned Uses = 0;
  // `v` as written, through the conversions to a TensorList (`torch::cat(v)`: ArrayRef's
  // constructor from the vector).
  auto IsD = [&](const Expr *E) -> const DeclRefExpr * {
    for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
      E = E->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        return DRE->getDecl() == D ? DRE : nullptr;
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1)
        E = CE->getArg(0);
      else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
        E = MT->getSubExpr();
      else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
        E = BT->getSubExpr();
      else
        return nullptr;
    }
    return nullptr;
  };
  // `R = g(v, ...)` / `auto R = g(v, ...)`: v read by a function that only computes its result
  // from its arguments (a GAE over the value buffer), into a local R whose every read is detached:
  // nothing differentiates what was read from v either.
  auto ThroughResult = [&](const ValueDecl *R, const Expr *Init) {
    const auto *Call = dyn_cast_or_null<CallExpr>(Init ? stripCopies(Init) : nullptr);
    if (!Call || !R || R == D || !computesFromArguments(Call->getDirectCallee()))
      return;
    llvm::SmallVector<const DeclRefExpr *, 2> Args;
    for (const Expr *A : Call->arguments())
      if (const DeclRefExpr *Arg = IsD(A))
        Args.push_back(Arg);
    if (Args.empty() || !readsOnlyDetached(R, FD, nullptr, Depth + 1))
      return;
    Allowed.insert(Args.begin(), Args.end());
    if (Through && Through->empty())
      *Through = Call->getDirectCallee()->getQualifiedNameAsString() + "()";
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
      ++Uses;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      // `v = ...`: replacing the container reads none of its history.
      if (const DeclRefExpr *Lhs = IsD(Op->getArg(0)))
        Allowed.insert(Lhs);
      if (const auto *R = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        ThroughResult(R->getDecl(), Op->getArg(1));
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *Dc : DS->decls())
        if (const auto *R = dyn_cast<VarDecl>(Dc); R && R->hasInit())
          ThroughResult(R, R->getInit());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      llvm::StringRef N = MD && MD->getDeclName().isIdentifier() ? MD->getName() : "";
      if (const DeclRefExpr *Obj = IsD(MC->getImplicitObjectArgument());
          Obj && llvm::is_contained({"push_back", "emplace_back", "push_front", "emplace_front", "clear", "size",
                                     "empty", "reserve", "pop_back"},
                                    N))
        Allowed.insert(Obj);
      if (isTensorDetach(MD))
        if (const auto *Inner = dyn_cast<CallExpr>(stripCopies(MC->getImplicitObjectArgument())))
          if (const FunctionDecl *F = Inner->getDirectCallee(); F && isTorchDecl(F))
            for (const Expr *A : Inner->arguments())
              if (const DeclRefExpr *Arg = IsD(A))
                Allowed.insert(Arg);
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD->getBody());
  return Uses > 0 && Allowed.size() == Uses; // Allowed holds references to D only
}

/// True when the code around Site is a training step: the innermost loop around it in its
/// function calls backward() or an optimizer's step() (directly or in a user function it calls),
/// or, outside any loop, its function does.
bool stepTrains(const Stmt *Site, const FunctionDecl *FD, const HotCodeAnalysis &HC) {
  const Stmt *Loop = HC.enclosingLoop(Site);
  if (!Loop)
    return findTrainingCall(FD) != nullptr;
  bool Found = false;
  forEachCall(Loop, [&](const CallExpr *C) {
    if (Found)
      return;
    if (isTrainingCall(C))
      Found = true;
    else if (const FunctionDecl *Callee = C->getDirectCallee())
      if (const FunctionDecl *Def = Callee->getDefinition(); Def && !isTorchDecl(Def) && findTrainingCall(Def))
        Found = true;
  });
  return Found;
}

/// stepTrains for a function with no loop of its own (a recorder called once per update): some
/// call of FD in this TU sits in a training step (stepTrains at the call), up to Depth levels of
/// callers.
bool calledFromTrainingStep(const FunctionDecl *FD, const HotCodeAnalysis &HC, int Depth = 0) {
  if (!FD || Depth > 3)
    return false;
  for (const Expr *Call : HC.callsOf(FD)) {
    const FunctionDecl *Caller = HC.enclosingFunction(Call);
    if (!Caller || Caller == FD)
      continue;
    if (stepTrains(Call, Caller, HC) || (!HC.enclosingLoop(Call) && calledFromTrainingStep(Caller, HC, Depth + 1)))
      return true;
  }
  return false;
}

} // namespace

void AutogradHistoryCheck::registerMatchers(MatchFinder *Finder) {
  // v.push_back(t) and friends on a standard container.
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName(llvm::ArrayRef<llvm::StringRef>(StoreMethods)), ofClass(isInStdNamespace()))),
                                       argumentCountIs(1), hasArgument(0, expr(isTensorExpr())))
                         .bind("store"),
                     this);
  // acc += t, acc -= t (Tensor's member operators).
  Finder->addMatcher(cxxOperatorCallExpr(hasAnyOverloadedOperatorName("+=", "-="), hasArgument(0, isTensorExpr()),
                                         hasArgument(1, isTensorExpr()))
                         .bind("accum"),
                     this);
  // acc = acc + t.
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("="), hasArgument(0, isTensorExpr()),
                                         hasArgument(1, isTensorExpr()))
                         .bind("assign"),
                     this);
  // acc.add_(t).
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("add_", "sub_"), isTensorMethod()))).bind("inplace"), this);
  // An element written into a tensor that outlives the step: acc.index_put_({i}, t), acc[i] = t,
  // acc.index({i}) = t. The write is recorded (CopySlices) and chains every step's graph.
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("index_put_"), isTensorMethod())), argumentCountIs(2),
                                       hasArgument(1, isTensorExpr()))
                         .bind("indexput"),
                     this);
}

namespace {
/// `acc[i]`, `acc.index({...})`, `acc.select(d, i)`: the tensor a row or element is taken from.
const Expr *indexedTensor(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    E = B->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return OC->getArg(0);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && MD->getDeclName().isIdentifier() && (MD->getName() == "index" || MD->getName() == "select"))
      return MC->getImplicitObjectArgument();
  return nullptr;
}
} // namespace

void AutogradHistoryCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const Expr *Site = nullptr, *Acc = nullptr, *Value = nullptr;
  bool Store = false, IndexWrite = false;
  if (const auto *C = Result.Nodes.getNodeAs<CXXMemberCallExpr>("store")) {
    Site = C;
    Acc = C->getImplicitObjectArgument();
    Value = C->getArg(0);
    Store = true;
  } else if (const auto *C = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("accum")) {
    Site = C;
    Acc = C->getArg(0);
    Value = C->getArg(1);
  } else if (const auto *C = Result.Nodes.getNodeAs<CXXMemberCallExpr>("indexput")) {
    Site = C;
    Acc = C->getImplicitObjectArgument();
    Value = C->getArg(1);
    IndexWrite = true;
  } else if (const auto *C = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("assign");
             C && indexedTensor(C->getArg(0))) {
    // acc[i] = t: Tensor::operator= on a view writes into the tensor it was taken from.
    Site = C;
    Acc = indexedTensor(C->getArg(0));
    Value = C->getArg(1);
    IndexWrite = true;
  } else if (const auto *C = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("assign")) {
    // acc = acc + t / t + acc: the right-hand side is a sum with the accumulator as one operand.
    const auto *Sum = dyn_cast<CXXOperatorCallExpr>(stripCopies(C->getArg(1)));
    if (!Sum || Sum->getOperator() != OO_Plus || Sum->getNumArgs() != 2)
      return;
    const ValueDecl *D = accumulatorDecl(C->getArg(0));
    if (!D)
      return;
    const Expr *L = Sum->getArg(0), *R = Sum->getArg(1);
    if (accumulatorDecl(stripCopies(L)) == D)
      Value = R;
    else if (accumulatorDecl(stripCopies(R)) == D)
      Value = L;
    else
      return;
    Site = C;
    Acc = C->getArg(0);
  } else if (const auto *C = Result.Nodes.getNodeAs<CXXMemberCallExpr>("inplace")) {
    if (C->getNumArgs() < 1)
      return;
    Site = C;
    Acc = C->getImplicitObjectArgument();
    Value = C->getArg(0);
  }
  if (!Site || !Acc || !Value || !inUserCode(Site->getExprLoc(), SM))
    return;
  const ValueDecl *D = accumulatorDecl(Acc);
  if (!D)
    return;
  auto Hot = hotContext(Site, Ctx);
  if (!Hot)
    return; // once: one graph kept, not one per step
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *FD = HC.enclosingFunction(Site);
  // Only a training step: code that calls backward() or an optimizer's step(). Evaluation code
  // without a NoGradGuard keeps graphs too, which torch-eval-no-grad reports.
  if (!FD || !outlivesStep(D, Site, HC, SM) || gradDisabledAt(Site, Ctx))
    return;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  Origin O = historyOf(Value, Ctx, 0, Seen);
  if (O == Origin::None)
    return;
  // A loss already differentiated may also be kept by a function with no loop that the step
  // calls (`metrics.set(result)` after the update): nothing can differentiate it again, so the
  // store keeps its graph for nothing whoever calls it. Other values only in the step itself
  // (a helper that stores forward() outputs may feed a later backward(): REINFORCE's log-probs).
  if (!stepTrains(Site, FD, HC) &&
      !(O == Origin::Backwarded && !HC.enclosingLoop(Site) && calledFromTrainingStep(FD, HC)))
    return;
  if (differentiatedLater(D, FD))
    return;
  // Emptied on every iteration: one step's graph at a time. Emptied every few steps (a rollout
  // buffer): reported only when nothing ever reads its history (every read is detached).
  Reset R = resetInLoop(D, Site, Site, HC);
  if (R == Reset::Sometimes && resetLaterInBlock(D, Site, HC))
    return;
  std::string Through;
  if (R == Reset::EveryIteration || (R == Reset::Sometimes && !readsOnlyDetached(D, FD, &Through, 0)))
    return;
  std::string V = sourceText(Value, Ctx), A = sourceText(Acc, Ctx);
  if (V.empty() || A.empty())
    return;
  // The value as the object of the advised `.detach()`: `(l.total * 0.5).detach()`.
  const Expr *Bare = stripCopies(Value);
  bool Compound = Bare && (isa<BinaryOperator, ConditionalOperator>(Bare) ||
                           (isa<CXXOperatorCallExpr>(Bare) && cast<CXXOperatorCallExpr>(Bare)->isInfixBinaryOp()));
  std::string VObj = Compound ? "(" + V + ")" : V;
  const char *Why = O == Origin::Forward      ? "the output of a module's forward()"
                    : O == Origin::Method     ? "computed by a module's method from its parameters"
                    : O == Origin::Loss       ? "a loss"
                    : O == Origin::Backwarded ? "a loss that backward() was called on"
                                              : "computed from a module's output or a loss";
  std::string Msg;
  if (IndexWrite)
    Msg = "'" + A + "' keeps every step's autograd graph alive: '" + V + "' (" + Why +
          ") requires grad, so writing it into '" + A + "' is recorded (CopySlices) and chains every step's graph "
          "through '" + A + "' until it is destroyed; write '" + VObj + ".detach()' (or read '" + VObj +
          ".item()' once per logging interval)";
  else if (Store && R == Reset::Sometimes)
    Msg = "'" + A + "' keeps the autograd graph of every step until it is emptied: '" + V + "' (" + Why +
          ") requires grad, and every read of '" + A + "' is detached" +
          (Through.empty() ? std::string()
                           : " (or goes through " + Through + ", whose result is only read detached)") +
          ", so the graphs are kept for nothing; store '" + VObj +
          ".detach()' (or run this part of the step under torch::NoGradGuard)";
  else if (Store)
    Msg = "'" + A + "' keeps every step's autograd graph alive: '" + V + "' (" + Why +
          ") requires grad, so each stored element references its step's graph (its nodes, and what backward() "
          "did not free) until the container is destroyed; store '" +
          VObj + ".detach()' (or read '" + VObj + ".item()' once per logging interval)";
  else
    Msg = "'" + A + "' keeps every step's autograd graph alive: '" + V + "' (" + Why + ") requires grad, so '" + A +
          "' records the accumulation and references every step's graph, a chain that grows by one step's graph "
          "per step until '" +
          A + "' is destroyed; accumulate '" + A + " += " + VObj + ".detach()' and read it with item() once per epoch";
  report(Site->getExprLoc(), Msg, Hot);
}

} // namespace torchlint
