#include "rules/FrozenNetGradCheck.h"
#include "analysis/Autograd.h"
#include "analysis/LocalDataflow.h"
#include "analysis/NnModules.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "utils/ExprStrip.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
bool isJitModuleType(QualType T) {
  if (T.isNull())
    return false;
  const CXXRecordDecl *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getQualifiedNameAsString() == "torch::jit::Module";
}

/// The module expression of a forward call: `m(x)`, `m->forward(x)`, `m.forward(x)` on a
/// torch::nn module (moduleOfForwardCall) or `m.forward({x})` on a TorchScript module.
const Expr *forwardedModule(const Expr *Call) {
  if (const Expr *M = moduleOfForwardCall(Call))
    return M;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call->IgnoreParenImpCasts())) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() && MD->getName() == "forward" &&
        MD->getParent()->getQualifiedNameAsString() == "torch::jit::Module")
      return MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  return nullptr;
}

/// The variable or field an expression names (`net`, `this->target`, `agent.target`).
const ValueDecl *namedDecl(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Arrow)
    E = Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

void collectUses(const Stmt *S, const ValueDecl *D, std::vector<const Expr *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    Out.push_back(DRE);
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == D)
    Out.push_back(ME);
  for (const Stmt *C : S->children())
    collectUses(C, D, Out);
}

bool boolArgIs(const CallExpr *C, bool Want, ASTContext &Ctx) {
  if (C->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(C->getArg(0)))
    return Want; // requires_grad_() means true
  bool B;
  return !C->getArg(0)->isValueDependent() && C->getArg(0)->EvaluateAsBooleanCondition(B, Ctx) && B == Want;
}

/// A call that switches gradients of a tensor on or off: requires_grad_(x), set_requires_grad(x).
bool setsRequiresGrad(const CallExpr *C, bool Want, ASTContext &Ctx) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  if (FD->getName() != "requires_grad_" && FD->getName() != "set_requires_grad")
    return false;
  return boolArgIs(C, Want, Ctx);
}

enum class Use { Harmless, Freezes, Escapes };

/// What a loop over a module's parameters does with them: freezes them (requires_grad_(false)),
/// hands them on (push_back into a list, a user function), or only reads or writes their values.
Use classifyLoopBody(const Stmt *Body, ASTContext &Ctx) {
  Use R = Use::Harmless;
  forEachCall(Body, [&](const CallExpr *C) {
    if (R == Use::Escapes)
      return;
    if (setsRequiresGrad(C, false, Ctx)) {
      R = Use::Freezes;
      return;
    }
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return;
    if (isa<CXXMemberCallExpr>(C)) {
      const auto *Obj = cast<CXXMemberCallExpr>(C)->getImplicitObjectArgument();
      if (Obj && !isTensorType(Obj->getType()) && FD->getDeclName().isIdentifier() &&
          !llvm::is_contained({"value", "key", "data", "grad", "mutable_grad", "size", "operator[]"}, FD->getName()))
        R = Use::Escapes; // list.push_back(p), map.insert(...)
    } else if (!isTorchDecl(FD) && !isa<CXXOperatorCallExpr>(C)) {
      R = Use::Escapes; // a user function given the parameter
    }
  });
  return R;
}

/// `auto dst = target->parameters();`: the list is only indexed (`dst[i].copy_(src[i])`), sized
/// or iterated in the function: harmless (or freezing); anything else hands it on.
Use classifyList(const VarDecl *List, const HotCodeAnalysis &H, ASTContext &Ctx) {
  const auto *FD = dyn_cast<FunctionDecl>(List->getDeclContext());
  if (!FD || !FD->getBody())
    return Use::Escapes;
  Use R = Use::Harmless;
  for (const Expr *U : referencesTo(FD->getBody(), List)) {
    const Stmt *P = H.parentOf(U);
    while (P && isa<ImplicitCastExpr, ParenExpr>(P))
      P = H.parentOf(P);
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P); Op && Op->getOperator() == OO_Subscript) {
      // dst[i].requires_grad_(false) freezes; dst[i].copy_(...) writes values.
      const Stmt *Up = H.parentOf(Op);
      while (Up && isa<ImplicitCastExpr, ParenExpr, MemberExpr>(Up))
        Up = H.parentOf(Up);
      if (const auto *C = dyn_cast_or_null<CallExpr>(Up); C && setsRequiresGrad(C, false, Ctx))
        R = Use::Freezes;
      continue;
    }
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
          MD && MD->getDeclName().isIdentifier() && llvm::is_contained({"size", "empty", "begin", "end", "find", "contains"}, MD->getName()))
        continue;
      return Use::Escapes;
    }
    // The range of a range-for (through the implicit __range variable).
    bool InFor = false;
    for (const Stmt *Q = U; Q; Q = H.parentOf(Q))
      if (const auto *For = dyn_cast<CXXForRangeStmt>(Q)) {
        if (For->getRangeInit() && For->getRangeInit()->IgnoreParenImpCasts() == U) {
          Use B = classifyLoopBody(For->getBody(), Ctx);
          if (B == Use::Escapes)
            return B;
          if (B == Use::Freezes)
            R = B;
          InFor = true;
        }
        break;
      }
    if (!InFor)
      return Use::Escapes;
  }
  return R;
}

/// A module made here, whose parameters no other code holds: a holder or module constructed from
/// sizes (`Linear(8, 1)`, `Net()`), std::make_shared, a clone() (a target network's own copy),
/// nullptr. Not a module handed in (a parameter, another variable, a call's result): code elsewhere
/// may have given its parameters to an optimizer (a trainer built on the caller's network and
/// optimizer).
bool freshModule(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return false;
  E = stripTemporaries(E);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return freshModule(F->getSubExpr(), Depth + 1);
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    // A copy, or a holder around another module (`Net(std::make_shared<NetImpl>())`): that one.
    if (CE->getNumArgs() == 1 && Ctor &&
        (Ctor->isCopyOrMoveConstructor() || moduleImplOf(CE->getArg(0)->getType()) ||
         isJitModuleType(CE->getArg(0)->getType())))
      return freshModule(CE->getArg(0), Depth + 1);
    return true; // built from sizes, options or a configuration
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getDeclName().isIdentifier())
      return false;
    if (FD->getName() == "make_shared" || FD->getName() == "make_unique" || FD->getName() == "clone")
      return true;
    // std::dynamic_pointer_cast<Net>(net->clone())
    if (llvm::StringRef(FD->getName()).ends_with("pointer_cast") && C->getNumArgs() == 1)
      return freshModule(C->getArg(0), Depth + 1);
    // A factory of the user's defined here (`teacher = mlp(D, H, O)`): fresh when every return
    // of it is.
    if (const FunctionDecl *Def = FD->getDefinition())
      if (Def->hasBody()) {
        llvm::SmallVector<const ReturnStmt *, 4> Returns = returnsOf(Def->getBody());
        if (Returns.empty())
          return false;
        for (const ReturnStmt *R : Returns) {
          const Expr *V = R->getRetValue();
          // `auto net = Net(...); net->to(device); return net;` (the copy or move it returns):
          // every value of the local (its initialiser and each assignment) must be fresh.
          const Expr *Named = V ? stripMoves(V) : nullptr;
          if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Named))
            if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
              if (VD->isLocalVarDecl() && VD->getDeclContext() == Def) {
                const VarValues &Vals = valuesOf(VD, VD->getASTContext());
                if (!Vals.Known)
                  return false;
                for (const Expr *X : Vals.Values)
                  if (!freshModule(X, Depth + 1))
                    return false;
                continue; // (a default-constructed holder builds its module)
              }
          if (!freshModule(V, Depth + 1))
            return false;
        }
        return true;
      }
    return false;
  }
  return false;
}

/// What a use of the module does with it.
Use classify(const Expr *U, const HotCodeAnalysis &H, ASTContext &Ctx,
             const llvm::SmallPtrSetImpl<const Expr *> *Exempt = nullptr) {
  if (Exempt && Exempt->count(U))
    return Use::Harmless; // the argument that passes it to the parameter being followed
  const Stmt *Cur = U;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *P = H.parentOf(Cur);
    if (!P)
      return Use::Escapes;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (Op->getOperator() == OO_Arrow) {
        Cur = P;
        continue;
      }
      if (Op->getOperator() == OO_Call && Op->getArg(0)->IgnoreParenImpCasts() == Cur)
        return Use::Harmless; // net(x)
      if (Op->getOperator() == OO_Equal && Op->getArg(0)->IgnoreParenImpCasts() == Cur)
        return freshModule(Op->getArg(1)) ? Use::Harmless : Use::Escapes; // net = Net(...) / = handed in
      return Use::Escapes;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == Cur && freshModule(BO->getRHS())
                 ? Use::Harmless
                 : Use::Escapes;
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(H.parentOf(ME));
      const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      if (!Call || !MD || !MD->getDeclName().isIdentifier())
        return Use::Escapes;
      llvm::StringRef N = MD->getName();
      if (llvm::is_contained({"forward", "to", "eval", "train", "zero_grad", "is_training", "clone", "pretty_print",
                              "name", "save", "load", "is_empty", "get_method", "run_method"},
                             N))
        return Use::Harmless;
      // Its buffers (`target->named_buffers()` copied from the online network's) hand none of
      // its parameters to anything.
      if (N == "buffers" || N == "named_buffers")
        return Use::Harmless;
      if (N != "parameters" && N != "named_parameters")
        return Use::Escapes; // children(), modules(), ptr(), apply(), register_module(...)
      // `auto dst = target->parameters();`: what the function does with the list.
      {
        const Stmt *Q = Call;
        for (unsigned K = 0; K < 4 && Q; ++K) {
          const Stmt *QP = H.parentOf(Q);
          if (const auto *DS = dyn_cast_or_null<DeclStmt>(QP)) {
            if (const auto *For = dyn_cast_or_null<CXXForRangeStmt>(H.parentOf(DS)))
              return classifyLoopBody(For->getBody(), Ctx); // the loop's implicit __range
            const auto *List = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
            return List ? classifyList(List, H, Ctx) : Use::Escapes;
          }
          if (!QP || !isa<Expr>(QP))
            break;
          Q = QP;
        }
      }
      // A loop over its parameters: freezing them, copying into them (a target network's update),
      // or handing them on (push_back into an optimizer's list).
      const Stmt *Q = Call;
      for (unsigned K = 0; K < 4 && Q; ++K) {
        const Stmt *QP = H.parentOf(Q);
        if (const auto *For = dyn_cast_or_null<CXXForRangeStmt>(QP)) {
          if (For->getBody() == Q)
            return Use::Escapes;
          return classifyLoopBody(For->getBody(), Ctx);
        }
        Q = QP;
      }
      return Use::Escapes;
    }
    if (const auto *C = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (FD && FD->getDeclName().isIdentifier()) {
        std::string Q = FD->getQualifiedNameAsString();
        if (Q == "torch::load" || Q == "torch::save")
          return Use::Harmless;
      }
      if (moduleOfForwardCall(C))
        return Use::Harmless;
      return Use::Escapes;
    }
    return Use::Escapes;
  }
  return Use::Escapes;
}

/// Every function body written in user code (methods and out-of-line definitions included), and
/// the initializers of constructors: where a field can be used.
void userBodies(const DeclContext *DC, const SourceManager &SM, std::vector<const Stmt *> &Out, unsigned Depth = 0) {
  if (Depth > 12)
    return;
  for (const Decl *D : DC->decls()) {
    if (D->getLocation().isInvalid() || isLibraryLocation(SM, D->getLocation()))
      continue;
    // A class template's members are its specializations' (`Segmentor<FPN>::model`, used in the
    // instantiated Segmentor<FPN>::Train()); the pattern's bodies name the pattern's field.
    if (const auto *CT = dyn_cast<ClassTemplateDecl>(D)) {
      for (const ClassTemplateSpecializationDecl *S : CT->specializations())
        userBodies(S, SM, Out, Depth + 1);
      continue;
    }
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      for (const FunctionDecl *S : FT->specializations())
        if (S->doesThisDeclarationHaveABody() && S->getBody())
          Out.push_back(S->getBody());
      D = FT->getTemplatedDecl();
    }
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody() && FD->getBody())
        Out.push_back(FD->getBody());
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
        for (const CXXCtorInitializer *I : Ctor->inits())
          if (I->getInit() && I->isWritten())
            Out.push_back(I->getInit());
      continue;
    }
    if (const auto *Inner = dyn_cast<DeclContext>(D))
      if (isa<NamespaceDecl, CXXRecordDecl, LinkageSpecDecl>(D))
        userBodies(Inner, SM, Out, Depth + 1);
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      Out.push_back(VD->getInit()); // a global initialised from a field: a use
    if (const auto *F = dyn_cast<FieldDecl>(D); F && F->hasInClassInitializer() && F->getInClassInitializer())
      Out.push_back(F->getInClassInitializer()); // `Adam opt{policy->parameters()}`
  }
}

/// The bodies where a module's uses can be: its function for a local; every body in user code
/// for a field (another class or main() may reach it through the object).
std::vector<const Stmt *> scopesOf(const ValueDecl *D, ASTContext &Ctx) {
  std::vector<const Stmt *> Bodies;
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()); FD && FD->getBody())
      Bodies.push_back(FD->getBody());
    return Bodies;
  }
  if (isa<FieldDecl>(D))
    userBodies(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Bodies);
  return Bodies;
}

enum class Flow { No, Yes, Unknown };

Flow merge(Flow A, Flow B) {
  if (A == Flow::Yes || B == Flow::Yes)
    return Flow::Yes;
  if (A == Flow::Unknown || B == Flow::Unknown)
    return Flow::Unknown;
  return Flow::No;
}

/// Whether a gradient must flow back through the frozen network into E: E depends on another
/// network's output, on a tensor an optimizer holds, or on a tensor that requires grad.
Flow gradientFlowsInto(const Expr *E, const llvm::SmallPtrSetImpl<const VarDecl *> &Optimized, ASTContext &Ctx,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Seen, unsigned Depth = 0) {
  if (!E || Depth > 24)
    return Flow::Unknown;
  E = stripCopies(E);
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, StringLiteral>(E))
    return Flow::No;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return Flow::No; // an enumerator, a function
    if (Optimized.count(VD))
      return Flow::Yes;
    if (!isTensorType(VD->getType()) && !VD->getType()->isRecordType())
      return Flow::No; // a number
    if (!Seen.insert(VD).second)
      return Flow::No;
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.empty())
      return Flow::Unknown;
    Flow R = Flow::No;
    for (const Expr *Val : V.Values)
      R = merge(R, gradientFlowsInto(Val, Optimized, Ctx, Seen, Depth + 1));
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // batch.data / batch.target of a data loader's batch: data.
    if (const auto *B = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(B->getDecl()))
        if (VD->isCXXForRangeDecl())
          return Flow::No; // an element of what the loop iterates (a batch)
    return Flow::Unknown;
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (moduleOfForwardCall(C) || forwardedModule(C))
      return Flow::Yes; // another network's output: its gradients pass through
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return Flow::Unknown;
    if (FD->getDeclName().isIdentifier() && (FD->getName() == "detach" || FD->getName() == "item"))
      return Flow::No;
    if (FD->getDeclName().isIdentifier() && FD->getName() == "requires_grad" && boolArgIs(C, true, Ctx))
      return Flow::Yes;
    if (setsRequiresGrad(C, true, Ctx))
      return Flow::Yes;
    if (!isTorchDecl(FD) && !isa<CXXConstructorDecl>(FD))
      return Flow::Unknown; // a user function: its result is not followed
    Flow R = Flow::No;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      R = gradientFlowsInto(MC->getImplicitObjectArgument(), Optimized, Ctx, Seen, Depth + 1);
    for (const Expr *A : C->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        R = merge(R, gradientFlowsInto(A, Optimized, Ctx, Seen, Depth + 1));
    return R;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    Flow R = Flow::No;
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        R = merge(R, gradientFlowsInto(A, Optimized, Ctx, Seen, Depth + 1));
    return R;
  }
  if (const auto *SI = dyn_cast<CXXStdInitializerListExpr>(E))
    return gradientFlowsInto(SI->getSubExpr(), Optimized, Ctx, Seen, Depth + 1);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    Flow R = Flow::No;
    for (const Expr *A : IL->inits())
      R = merge(R, gradientFlowsInto(A, Optimized, Ctx, Seen, Depth + 1));
    return R;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return merge(gradientFlowsInto(BO->getLHS(), Optimized, Ctx, Seen, Depth + 1),
                 gradientFlowsInto(BO->getRHS(), Optimized, Ctx, Seen, Depth + 1));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return gradientFlowsInto(UO->getSubExpr(), Optimized, Ctx, Seen, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return merge(gradientFlowsInto(CO->getTrueExpr(), Optimized, Ctx, Seen, Depth + 1),
                 gradientFlowsInto(CO->getFalseExpr(), Optimized, Ctx, Seen, Depth + 1));
  return Flow::Unknown;
}

/// A helper that runs a network handed in (`features(net, x)`) and returns tensors (a tensor, a
/// list, a pair of them: what the step's loss is computed from) is part of the step when a
/// function that trains calls it, directly or through other such helpers (up to three levels).
/// One that returns a number (`evaluate(net, x)` reading a metric) is an evaluation, whose
/// recording torch-eval-no-grad reports.
bool calledWhereTraining(const FunctionDecl *FD, const HotCodeAnalysis &H, unsigned Depth = 0) {
  if (Depth > 3 || FD->getReturnType().getCanonicalType().getAsString().find("at::Tensor") == std::string::npos)
    return false;
  for (const Expr *CallE : H.callsOf(FD)) {
    const FunctionDecl *Caller = H.enclosingFunction(CallE);
    if (!Caller || Caller == FD)
      continue;
    if (findTrainingCall(Caller) || calledWhereTraining(Caller, H, Depth + 1))
      return true;
  }
  return false;
}

bool isOptimizerType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
    if (isOptimizerClass(RD))
      return true;
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (S->getTemplateArgs().size() >= 1 && S->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        if (const CXXRecordDecl *A = S->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl())
          return isOptimizerClass(A); // shared_ptr<Adam>, unique_ptr<SGD>
  }
  return false;
}
} // namespace

void FrozenNetGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("()")).bind("fwd"), this);
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("forward")))).bind("fwd"), this);
  // Optimizer constructions: `torch::optim::Adam opt(params, ...)`, `std::make_shared<Adam>(...)`.
  Finder->addMatcher(cxxConstructExpr().bind("ctor"), this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("::std::make_shared", "::std::make_unique")))).bind("make"),
                     this);
}

void FrozenNetGradCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (const auto *CE = Result.Nodes.getNodeAs<CXXConstructExpr>("ctor")) {
    if (!inUserCode(CE->getBeginLoc(), SM) || !isOptimizerType(CE->getType()))
      return;
    SawOptimizer = true;
    for (const Expr *A : CE->arguments())
      OptimizerArgs.push_back(A);
    return;
  }
  if (const auto *C = Result.Nodes.getNodeAs<CallExpr>("make")) {
    if (!inUserCode(C->getBeginLoc(), SM) || !isOptimizerType(C->getType()))
      return;
    SawOptimizer = true;
    for (const Expr *A : C->arguments())
      OptimizerArgs.push_back(A);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<Expr>("fwd");
  if (!inUserCode(Call->getBeginLoc(), SM) || Call->getBeginLoc().isMacroID())
    return;
  const Expr *M = forwardedModule(Call);
  if (!M)
    return;
  const ValueDecl *D = namedDecl(M);
  if (!D)
    return;
  if (!moduleImplOf(D->getType()) && !isJitModuleType(D->getType()))
    return;
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent()); !RD || isModuleClass(RD) || isModuleOrDerived(RD))
      return; // a submodule: its parameters are in its parent's parameters()
  const Expr *Input = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call->IgnoreParenImpCasts()); Op && Op->getNumArgs() >= 2)
    Input = Op->getArg(1);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call->IgnoreParenImpCasts()); MC && MC->getNumArgs() >= 1)
    Input = MC->getArg(0);
  Candidates.push_back({Call, D, Input});
}

void FrozenNetGradCheck::onEndOfTranslationUnit() {
  if (!Ctx || Candidates.empty() || !SawOptimizer) {
    Candidates.clear();
    OptimizerArgs.clear();
    SawOptimizer = false;
    return;
  }
  ASTContext &C = *Ctx;
  const HotCodeAnalysis &H = HotCodeAnalysis::get(C);
  // Tensors an optimizer holds (`torch::optim::Adam opt({image}, ...)`): gradients flow to them.
  llvm::SmallPtrSet<const VarDecl *, 8> Optimized;
  for (const Expr *A : OptimizerArgs) {
    std::vector<const Stmt *> Work{A};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isTensorType(VD->getType()))
          Optimized.insert(VD);
      for (const Stmt *Ch : S->children())
        Work.push_back(Ch);
    }
  }
  llvm::DenseMap<const ValueDecl *, bool> Frozen; // module -> "never handed on or frozen" verdict
  // A parameter -> the one network its callers hand it (through helpers), for the message.
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> HandedFrom;
  llvm::SmallPtrSet<const ValueDecl *, 8> Reported;
  for (const Candidate &Cand : Candidates) {
    if (Reported.count(Cand.Module))
      continue;
    auto It = Frozen.find(Cand.Module);
    if (It == Frozen.end()) {
      // Its parameters go nowhere when every use of it is harmless; for a parameter of the
      // function (`train(torch::jit::Module net, ...)`), also every use of what each call passes.
      auto AllHarmless = [&](const ValueDecl *D, const llvm::SmallPtrSetImpl<const Expr *> *Exempt) {
        std::vector<const Stmt *> Scopes = scopesOf(D, C);
        if (Scopes.empty())
          return false;
        // A field a constructor initialises with a module handed in (`net_{net}`): the caller
        // may have given its parameters to an optimizer (the trainer's optimizer, also handed in).
        if (const auto *Field = dyn_cast<FieldDecl>(D))
          if (const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent()))
            for (const CXXConstructorDecl *Ctor : RD->ctors())
              if (const CXXConstructorDecl *Def = dyn_cast_or_null<CXXConstructorDecl>(Ctor->getDefinition()))
                for (const CXXCtorInitializer *I : Def->inits())
                  if (I->isWritten() && I->getMember() == Field && !freshModule(I->getInit()))
                    return false;
        bool AnyUse = false;
        for (const Stmt *Body : Scopes) {
          std::vector<const Expr *> Uses;
          collectUses(Body, D, Uses);
          AnyUse |= !Uses.empty();
          for (const Expr *U : Uses)
            if (classify(U, H, C, Exempt) != Use::Harmless)
              return false;
        }
        // Not even the call that made it a candidate: the bodies searched are not where it is
        // used, and nothing is known.
        return AnyUse;
      };
      bool Unused = AllHarmless(Cand.Module, nullptr);
      if (Unused)
        if (const auto *PV = dyn_cast<ParmVarDecl>(Cand.Module)) {
          // The argument at every call of its function in this TU (the function never named
          // otherwise; a by-value parameter written in the function is judged with its uses),
          // followed through helpers that hand their own parameter on (`features(net, x)` called
          // by `targets(net, img)` and by main()'s loop with its `vgg`), up to a few levels.
          std::vector<const ParmVarDecl *> Work{PV};
          llvm::SmallPtrSet<const ParmVarDecl *, 8> Followed;
          std::vector<const ValueDecl *> Roots;
          std::vector<const Expr *> AllArgs;
          Unused = true;
          while (!Work.empty() && Unused) {
            const ParmVarDecl *P = Work.back();
            Work.pop_back();
            if (!Followed.insert(P).second)
              continue;
            if (Followed.size() > 8) {
              Unused = false;
              break;
            }
            std::optional<std::vector<const Expr *>> Args;
            const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext());
            if (Fn && !H.referencedOtherThanCalled(Fn)) {
              Args.emplace();
              unsigned Idx = P->getFunctionScopeIndex();
              for (const Expr *CallE : H.callsOf(Fn)) {
                const auto *CE = dyn_cast<CallExpr>(CallE);
                unsigned Off = isa<CXXOperatorCallExpr>(CallE) ? 1 : 0;
                if (!CE || Idx + Off >= CE->getNumArgs() || isa<CXXDefaultArgExpr>(CE->getArg(Idx + Off))) {
                  Args.reset();
                  break;
                }
                Args->push_back(CE->getArg(Idx + Off));
              }
            }
            if (!Args || Args->empty()) {
              Unused = false;
              break;
            }
            for (const Expr *A : *Args) {
              const ValueDecl *Passed = namedDecl(stripCopies(A)); // through the copy into the parameter
              if (!Passed || (!moduleImplOf(Passed->getType()) && !isJitModuleType(Passed->getType()))) {
                Unused = false;
                break;
              }
              if (const auto *FD = dyn_cast<FieldDecl>(Passed))
                if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent()); !RD || isModuleOrDerived(RD)) {
                  Unused = false;
                  break;
                }
              AllArgs.push_back(A);
              if (const auto *Up = dyn_cast<ParmVarDecl>(Passed)) {
                Work.push_back(Up); // a helper's own parameter: its callers' networks
                if (!llvm::is_contained(Roots, Passed))
                  Roots.push_back(Passed); // and its other uses there
              } else if (!llvm::is_contained(Roots, Passed)) {
                Roots.push_back(Passed);
              }
            }
          }
          if (Unused) {
            llvm::SmallPtrSet<const Expr *, 4> Exempt;
            for (const Expr *B : AllArgs) {
              const Expr *E = stripCopies(B)->IgnoreParenImpCasts(); // a copy into a by-value parameter
              if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E); Ctor && Ctor->getNumArgs() == 1)
                E = stripCopies(Ctor->getArg(0))->IgnoreParenImpCasts();
              Exempt.insert(E);
            }
            for (const ValueDecl *Root : Roots)
              if (!AllHarmless(Root, &Exempt)) {
                Unused = false;
                break;
              }
          }
          if (Unused) {
            // The network the caller built: named in the message (`'vgg' (the parameter 'net'
            // here)`), when it is one.
            const ValueDecl *Origin = nullptr;
            bool Several = false;
            for (const ValueDecl *Root : Roots)
              if (!isa<ParmVarDecl>(Root)) {
                Several |= Origin && Origin != Root;
                Origin = Root;
              }
            if (Origin && !Several)
              HandedFrom[Cand.Module] = Origin;
          }
        }
      It = Frozen.insert({Cand.Module, Unused}).first;
    }
    if (!It->second)
      continue; // its parameters go somewhere (an optimizer?), or are frozen already
    const FunctionDecl *FD = H.enclosingFunction(Cand.Call);
    if (!FD || !(findTrainingCall(FD) || (isa<ParmVarDecl>(Cand.Module) && calledWhereTraining(FD, H))))
      continue; // not in a training step
    auto Hot = hotContext(Cand.Call, C);
    if (!Hot || gradDisabledAt(Cand.Call, C))
      continue;
    // What the finding says is absent (an optimizer holding its parameters, a freeze, a guard in a
    // caller) rests on the network's uses, the call and the functions that lead to it: code with
    // errors there may hold it. Errors elsewhere in the file (a header's code resting on a missing
    // library) do not matter (FrozenNetGradCheck.h).
    if (declRestsOnErrors(C, Cand.Module) || evidenceRestsOnErrors(C, {Cand.Call}) ||
        callChainRestsOnErrors(Cand.Call, C))
      continue;
    llvm::SmallPtrSet<const VarDecl *, 8> Seen;
    Flow F = Cand.Input ? gradientFlowsInto(Cand.Input, Optimized, C, Seen) : Flow::Unknown;
    std::string Name = Cand.Module->getNameAsString();
    std::string Handed;
    if (auto HF = HandedFrom.find(Cand.Module); HF != HandedFrom.end() && HF->second->getName() != Name) {
      Handed = " (the parameter '" + Name + "' here)";
      Name = HF->second->getNameAsString();
    }
    bool Jit = isJitModuleType(Cand.Module->getType());
    // `net->parameters()` through a holder or a pointer, `net.parameters()` on the object itself.
    const CXXRecordDecl *Self = Cand.Module->getType().getNonReferenceType()->getAsCXXRecordDecl();
    const CXXRecordDecl *Impl = moduleImplOf(Cand.Module->getType());
    bool Arrow = !Jit && !(Self && Impl && Self->getCanonicalDecl() == Impl->getCanonicalDecl());
    std::string Freeze = "`for (auto& p : " + Name + (Arrow ? "->" : ".") + "parameters()) p.requires_grad_(false);`";
    std::string Msg = "'" + Name + "'" + Handed +
                      " is a network whose parameters are in no optimizer, run in the training step with "
                      "autograd on: its parameters require gradients, so autograd records its graph and "
                      "backward() computes and accumulates a gradient for each of them that nothing uses; ";
    // `target->forward(x).detach()`: backward() never reaches it, only the recording is wasted.
    bool Detached = false;
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(H.userOf(Cand.Call, /*SkipTemporaryObjects=*/false)))
      Detached = ME->getMemberDecl()->getDeclName().isIdentifier() && ME->getMemberDecl()->getName() == "detach";
    if (Detached)
      Msg = "'" + Name + "'" + Handed +
            " is a network whose parameters are in no optimizer, run in the training step with autograd on: "
            "its output is detached, so backward() never reaches it, but its parameters require gradients, so "
            "autograd records its graph and saves its activations in forward for nothing; run it under "
            "torch::NoGradGuard (nothing recorded; the .detach() is then unneeded), or set requires_grad_(false) "
            "on its parameters once (" + Freeze + ")";
    else if (F == Flow::Yes)
      Msg += "gradients must flow through it to its input, so torch::NoGradGuard would be wrong here: set "
             "requires_grad_(false) on its parameters once (" + Freeze + "), which keeps the gradient to its input";
    else if (F == Flow::No)
      Msg += "its input needs no gradient, so run it under torch::NoGradGuard (nothing recorded), or set "
             "requires_grad_(false) on its parameters once (" + Freeze + ")";
    else
      Msg += "set requires_grad_(false) on its parameters once (" + Freeze +
             "); torch::NoGradGuard around the call is right only if no gradient must flow through it to its input";
    report(Cand.Call->getBeginLoc(), Msg, Hot);
    Reported.insert(Cand.Module);
  }
  Candidates.clear();
  OptimizerArgs.clear();
  SawOptimizer = false;
}

} // namespace torchlint
