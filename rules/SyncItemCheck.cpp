#include "rules/SyncItemCheck.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TensorDtype.h"
#include "core/AstWalk.h"
#include "utils/ExprStrip.h"
#include "utils/SourceText.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

/// What the read costs, as far as the TU knows the tensor's device: a tensor proven to be on a
/// device blocks the host; one of unknown device does when it is on the GPU (the check never
/// reports a tensor proven to be on the CPU, where item() is a plain memory read).
static std::string copiesAndBlocks(DeviceKind Device, llvm::StringRef What = "the value") {
  return ("copies " + What + " to the host and " +
          (Device == DeviceKind::Accelerator ? "" : "(for a tensor on the GPU) ") +
          "blocks until the GPU has finished all queued work")
      .str();
}

void SyncItemCheck::registerMatchers(MatchFinder *Finder) {
  // t.item(), t.item<float>(), t.template item<T>() (instantiated), t.item().toFloat().
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("item"), isTensorMethod()))).bind("call"), this);
  // t.template item<T>() in a template that is never instantiated.
  Finder->addMatcher(
      callExpr(callee(unresolvedMemberExpr(hasAnyDeclaration(namedDecl(hasName("item")))))).bind("dependent"), this);
  // loss.template item<float>() where loss's type depends on a template parameter (`auto loss =
  // torch::nll_loss(model->forward(x), y)`), in a template that is never instantiated.
  Finder->addMatcher(callExpr(callee(cxxDependentScopeMemberExpr(hasMemberName("item")))).bind("dependent"), this);
  // torch::nn::utils::clip_grad_norm_(): returns the total norm as a double, read with item()
  // (libtorch 1.13 and 2.x, whatever error_if_nonfinite says).
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::nn::utils::clip_grad_norm_")))).bind("clip"), this);
  // t[i] with a tensor index: Tensor::operator[](Tensor) reads the index with item().
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("[]"), hasArgument(0, expr(isTensorExpr())),
                                         hasArgument(1, expr(isTensorExpr())))
                         .bind("subscript"),
                     this);
}

/// `x += t.item<T>()` (also -=, through casts): the value accumulated on the host.
static bool accumulatedOnHost(const Expr *Call, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = Call;
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    const auto *P = dyn_cast_or_null<Expr>(HC.parentOf(Prev));
    if (!P)
      return false;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(P))
      return CA->getRHS()->IgnoreParenImpCasts() == cast<Expr>(Prev)->IgnoreParenImpCasts() &&
             (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign);
    if (!isa<ImplicitCastExpr, ParenExpr, CXXStaticCastExpr, CStyleCastExpr, CXXFunctionalCastExpr, CXXMemberCallExpr,
             MemberExpr>(P))
      return false;
    Prev = P;
  }
  return false;
}

/// A callee that never returns: a [[noreturn]] function (TORCH_CHECK's torchCheckFail, assert's
/// __assert_fail, abort, exit, std::terminate).
static bool isNoReturnCall(const Stmt *S) {
  const auto *C = dyn_cast<CallExpr>(S);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && (F->isNoReturn() || F->hasAttr<CXX11NoReturnAttr>());
}

/// The branch fails: it throws, or calls a function that never returns, as its first statement
/// (after declarations of the message) or as its only one.
static bool failsAtOnce(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(S))
    S = EWC->getSubExpr();
  if (isa<CXXThrowExpr>(S) || isNoReturnCall(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      if (isa<DeclStmt, NullStmt>(Child))
        continue;
      if (failsAtOnce(Child))
        return true;
      // A message written first (`std::cerr << ...; std::abort();`): the failure may come second.
      const auto *E = dyn_cast<Expr>(Child);
      if (const auto *Op = E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
          Op && Op->getOperator() == OO_LessLess)
        continue;
      return false;
    }
  }
  return false;
}

/// The value only decides whether the program fails: the read is (part of) the condition of an
/// `if` whose branch throws or never returns (`if (x.isnan().any().item<bool>()) throw ...;`,
/// TORCH_CHECK(t.item<bool>(), ...), assert(...)). InAssert: the `?:` of assert(), already
/// compiled out of release builds.
static bool decidesFailure(const Expr *Call, ASTContext &Ctx, bool &InAssert) {
  InAssert = false;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = Call;
  for (unsigned Depth = 0; Depth < 12; ++Depth) {
    const Stmt *P = HC.parentOf(Prev);
    if (!P)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Prev && failsAtOnce(If->getThen());
    if (const auto *CO = dyn_cast<ConditionalOperator>(P)) // assert()'s `(cond) ? void(0) : __assert_fail(...)`
      return (InAssert = CO->getCond() == Prev && isNoReturnCall(CO->getFalseExpr()->IgnoreParenImpCasts()));
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (!BO->isLogicalOp() && !BO->isComparisonOp())
        return false;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() != UO_LNot)
        return false;
    } else if (const auto *C = dyn_cast<CallExpr>(P)) {
      // __builtin_expect(static_cast<bool>(cond), 0) of C10_UNLIKELY; `.item().toBool()`.
      // std::isnan(loss.item<float>()), std::isfinite(...): a predicate of the value.
      bool Expect = C->getBuiltinCallee() == Builtin::BI__builtin_expect;
      const FunctionDecl *F = C->getDirectCallee();
      bool Predicate = F && F->getDeclName().isIdentifier() &&
                       llvm::is_contained({"isnan", "isinf", "isfinite", "isnormal", "signbit"}, F->getName());
      if (!Expect && !Predicate && !isa<CXXMemberCallExpr>(C))
        return false;
    } else if (!isa<ImplicitCastExpr, ParenExpr, CXXStaticCastExpr, CStyleCastExpr, CXXFunctionalCastExpr, MemberExpr,
                    ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(P)) {
      return false;
    }
    Prev = P;
  }
  return false;
}

namespace {

/// The variables of the loops around S in its function: for-init variables and range-for variables.
llvm::SmallPtrSet<const VarDecl *, 4> loopVariables(const Stmt *S, ASTContext &Ctx) {
  llvm::SmallPtrSet<const VarDecl *, 4> Vars;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  for (const Stmt *P = HC.parentOf(S); P; P = HC.parentOf(P)) {
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Vars.insert(VD);
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(P)) {
      if (const VarDecl *VD = RF->getLoopVariable())
        Vars.insert(VD);
    }
  }
  return Vars;
}

bool refersTo(const Stmt *S, const llvm::SmallPtrSet<const VarDecl *, 4> &Vars) {
  if (!S)
    return false;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(R->getDecl()); VD && Vars.count(VD))
      return true;
  for (const Stmt *C : S->children())
    if (refersTo(C, Vars))
      return true;
  return false;
}

/// The number of elements of the first braced list in S (0 when there is none).
unsigned bracedListSize(const Stmt *S) {
  if (!S)
    return 0;
  if (const auto *IL = dyn_cast<InitListExpr>(S))
    return IL->getNumInits();
  for (const Stmt *C : S->children())
    if (unsigned N = bracedListSize(C))
      return N;
  return 0;
}

/// `t[i]`, `t[i][j]`, `t.index({i, j})`, `t.select(d, i)`, also through locals initialised with
/// one (`auto box = boxes[i]; box[0]`): one element (or row) of Base, read with integer indices.
struct ElementRead {
  const Expr *Base = nullptr;
  unsigned Indices = 0;
  bool ByLoopVariable = false; // an index is a variable of a loop around the read
};

void elementRead(const Expr *E, const llvm::SmallPtrSet<const VarDecl *, 4> &Loop, ASTContext &Ctx, ElementRead &R,
                 unsigned Depth = 0) {
  E = stripCopies(E);
  R.Base = E;
  if (Depth > 8)
    return;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 && isTensorType(Op->getArg(0)->getType()) &&
        !isTensorType(Op->getArg(1)->getType())) {
      ++R.Indices;
      R.ByLoopVariable |= refersTo(Op->getArg(1), Loop);
      elementRead(Op->getArg(0), Loop, Ctx, R, Depth + 1);
    }
    return;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj || !MD->getDeclName().isIdentifier() || !isTensorType(Obj->getType()))
      return;
    llvm::StringRef N = MD->getName();
    if (N == "select" && MC->getNumArgs() == 2) {
      ++R.Indices;
      R.ByLoopVariable |= refersTo(MC->getArg(1), Loop);
    } else if (N == "index" && MC->getNumArgs() == 1 && refersTo(MC->getArg(0), Loop)) {
      // t.index({i}) / t.index({i, j}): one index per element of the braced list.
      R.Indices += std::max(1u, bracedListSize(MC->getArg(0)));
      R.ByLoopVariable = true;
    } else {
      return;
    }
    elementRead(Obj, Loop, Ctx, R, Depth + 1);
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl())
      return;
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.size() != 1)
      return;
    ElementRead Sub;
    elementRead(V.Values.front(), Loop, Ctx, Sub, Depth + 1);
    if (Sub.Indices) {
      R.Base = Sub.Base;
      R.Indices += Sub.Indices;
      R.ByLoopVariable |= Sub.ByLoopVariable;
    }
  }
}

/// The type written in `item<T>()` (as written: `int64_t`, not `long`), or "" for `item()`.
std::string itemType(const CallExpr *Call, ASTContext &Ctx) {
  const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreImplicit());
  if (!ME || ME->getNumTemplateArgs() != 1)
    return "";
  const TemplateArgumentLoc &A = ME->getTemplateArgs()[0];
  if (A.getArgument().getKind() != TemplateArgument::Type || !A.getTypeSourceInfo())
    return "";
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  return A.getTypeSourceInfo()->getType().getAsString(PP);
}

} // namespace

void SyncItemCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Sub = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("subscript")) {
    if (isBoolTensor(Sub->getArg(1), Ctx))
      return; // torch-sync-bool-mask
    auto Site = assess(Sub, Sub->getArg(1), Ctx);
    if (!Site)
      return;
    reportSync(Sub->getBeginLoc(),
               "Tensor::operator[] with a tensor index reads the index with item(), which " +
                   copiesAndBlocks(Site->Device, "it") +
                   "; index with an integer, or use index_select / index({idx}) to stay on the device",
               *Site);
    return;
  }
  if (const auto *Clip = Result.Nodes.getNodeAs<CallExpr>("clip")) {
    if (auto Site = assess(Clip, nullptr, Ctx))
      reportSync(Clip->getBeginLoc(),
                 "torch::nn::utils::clip_grad_norm_() returns the total norm as a double: it reads it with "
                 "item(), which " +
                     copiesAndBlocks(Site->Device, "it") +
                     "; clip on the device without reading the norm (its own steps: the norm of the gradients' "
                     "norms, `torch::clamp(max_norm / (norm + 1e-6), c10::nullopt, 1.0)`, `grad.mul_(coef)`)",
                 *Site);
    return;
  }
  const CallExpr *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const Expr *Tensor = nullptr;
  if (Call) {
    Tensor = cast<CXXMemberCallExpr>(Call)->getImplicitObjectArgument();
  } else {
    Call = Result.Nodes.getNodeAs<CallExpr>("dependent");
    const Expr *Callee = Call->getCallee()->IgnoreImplicit();
    if (const auto *ME = dyn_cast<UnresolvedMemberExpr>(Callee)) {
      if (ME->isImplicitAccess() || !isTensorType(ME->getBaseType()))
        return;
    } else if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
      if (DM->isImplicitAccess() || DM->isArrow() || !isTensorValued(DM->getBase()))
        return;
    } else {
      return;
    }
    if (!isUninstantiatedTemplate(HotCodeAnalysis::get(Ctx).enclosingFunction(Call)))
      return;
  }
  SourceLocation Loc = Call->getExprLoc();
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreImplicit()))
    Loc = DM->getMemberLoc();            // at `item`, as for a typed call
  auto Site = assess(Call, Tensor, Ctx); // dependent `t.template item<T>()`: device unknown
  if (!Site)
    return;
  std::string Msg = "Tensor::item() " + copiesAndBlocks(Site->Device);
  // Advice by the shape of the read.
  ElementRead Element;
  if (Tensor)
    elementRead(Tensor, loopVariables(Call, Ctx), Ctx, Element);
  bool Accumulates = !Site->Hot.LoopLoc.isInvalid() && accumulatedOnHost(Call, Ctx);
  if (Element.Indices && Element.ByLoopVariable) {
    // Per-element reads in a loop over a tensor's elements (detections, boxes, token ids, labels):
    // a device-side accumulator does not apply; one copy of the whole tensor does.
    std::string Base = sourceText(Element.Base, Ctx);
    bool Named = isa<DeclRefExpr>(Element.Base) && !Base.empty();
    if (!Named || Base.size() > 40)
      Base = "the tensor";
    else
      Base = "`" + Base + "`";
    std::string Host = Named ? sourceText(Element.Base, Ctx) + "_cpu" : "host";
    std::string T = itemType(Call, Ctx);
    Msg += ", once per element of " + Base + " read in a loop over its elements; copy the whole tensor to the "
           "host once, before the loop (`auto " + Host + " = " + (Named ? sourceText(Element.Base, Ctx) : "t") +
           ".cpu();`, or `.to(torch::kCPU)`), and read the elements through an accessor (`" + Host + ".accessor<" +
           (T.empty() ? "T" : T) + ", " + std::to_string(Element.Indices) + ">()`" +
           (T.empty() ? ", T the element type" : "") + ")";
  } else if (bool InAssert; decidesFailure(Call, Ctx, InAssert)) {
    // A validation (`if (x.isnan().any().item<bool>()) throw ...`, TORCH_CHECK(ok.item<bool>())):
    // no value to accumulate; the check itself can run on the device.
    Msg += ", only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` (`ok` a "
           "bool tensor, true when valid: nothing waits, and a failure is raised at a later synchronization), or "
           "run the check every N steps" +
           std::string(InAssert ? "" : " or in debug builds only");
  } else if (Accumulates) {
    Msg += "; accumulate the value on the device instead (`total += loss.detach()`: without detach() every "
           "step's autograd graph stays alive) and read it once per logging interval";
  } else {
    Msg += "; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per "
           "epoch or logging interval";
  }
  reportSync(Loc, Msg, *Site);
  if (Accumulates && !(Element.Indices && Element.ByLoopVariable))
    diag(Loc,
         "accumulate on the device instead: a tensor accumulator declared before the loop "
         "(`auto total = torch::zeros({}, loss.options());`, `total += loss.detach();`) and one "
         "`total.item<float>()` after it",
         DiagnosticIDs::Note);
}

} // namespace torchlint
