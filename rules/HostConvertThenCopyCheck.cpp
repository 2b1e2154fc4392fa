#include "rules/HostConvertThenCopyCheck.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/HostWidening.h"
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "model/HotBasis.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "analysis/TensorDtype.h"
#include "fixits/TensorOptionsFix.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
using Chain = WideningChain;

/// An expression that can be evaluated earlier in the same full expression without changing
/// anything: a variable, a member of one, a literal, or a constructor of these.
bool isSideEffectFree(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<DeclRefExpr, CXXThisExpr, IntegerLiteral, StringLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isSideEffectFree(ME->getBase());
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return isSideEffectFree(MT->getSubExpr());
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A) && !isSideEffectFree(A))
        return false;
    return true;
  }
  return false;
}
} // namespace

void HostConvertThenCopyCheck::checkConvertingCopy(const CXXMemberCallExpr *Call, const Expr *Dev, llvm::StringRef To,
                                                   ASTContext &Ctx) {
  const Expr *Obj = stripTemporaries(Call->getImplicitObjectArgument());
  std::string From = scalarTypeOf(Obj, Ctx);
  unsigned FromSize = scalarTypeSize(From), ToSize = scalarTypeSize(To);
  if (!FromSize || !ToSize || ToSize <= FromSize || !isFloatingDtype(To) || deviceOf(Obj, Ctx) != DeviceKind::CPU)
    return;
  if (TUFacts::get(Ctx).usesCUDA().isInvalid())
    return;
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return;
  auto D = report(Call->getExprLoc(),
                  "the " + dtypeWord(From) + " tensor is copied with `.to(device, dtype)`, which converts it to " + dtypeWord(To) + " on the host before the copy: " +
                      std::to_string(ToSize / FromSize) +
                      " times the bytes cross the bus and the conversion runs on the CPU; copy the " +
                      dtypeWord(From) + " tensor, then convert on the device (`.to(device).to(dtype)`)",
                  Hot);
  // `.to(dev, dt)` -> `.to(dev).to(dt)`: only with nothing but the two arguments.
  for (unsigned I = 2; I < Call->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
      return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string DtText = writtenText(Call->getArg(1), Ctx);
  SourceLocation DevEnd = Lexer::getLocForEndOfToken(Dev->getEndLoc(), 0, SM, Ctx.getLangOpts());
  SourceLocation RParen = Call->getRParenLoc();
  if (DtText.empty() || writtenText(Dev, Ctx).empty() || DevEnd.isInvalid() || DevEnd.isMacroID() ||
      RParen.isMacroID())
    return;
  D << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(DevEnd, RParen), ").to(" + DtText + ")");
}

void HostConvertThenCopyCheck::checkCopyFromElsewhere(const CXXMemberCallExpr *Call, const Expr *Obj,
                                                      const VarDecl *VD, HotContext Hot, ASTContext &Ctx) {
  // Only the project model knows what functions and fields of other files hold.
  if (!projectMode())
    return;
  std::vector<TensorOrigin> Origins;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Loop = HC.enclosingLoop(Call);
  // A local made anew on each pass through the code that copies it (declared in the loop around
  // the copy, with no loop between, or in a function with no loop around the copy): it holds at
  // the copy only what was assigned to it before the copy. `gt = gt.to(device)` (the copy
  // assigned back) and what happens to it after the copy (`loss(rgb, gt)` by non-const
  // reference) do not count.
  bool Fresh = VD && VD->hasLocalStorage() && VD->getDeclContext() == HC.enclosingFunction(Call) &&
               (!Loop || (SM.isBeforeInTranslationUnit(Loop->getBeginLoc(), VD->getLocation()) &&
                          SM.isBeforeInTranslationUnit(VD->getLocation(), Loop->getEndLoc())));
  if (Fresh) {
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known && !(V.EscapedAt.isValid() && SM.isBeforeInTranslationUnit(Call->getEndLoc(), V.EscapedAt)))
      return;
    for (const Expr *Val : V.Values)
      if (stripCopies(Val) != Call && SM.isBeforeInTranslationUnit(Val->getBeginLoc(), Call->getBeginLoc()))
        originsOf(Val, Ctx, Origins);
  } else {
    originsOf(Obj, Ctx, Origins);
  }
  reportFromElsewhere(Call, Origins, std::move(Hot));
}

void HostConvertThenCopyCheck::reportFromElsewhere(const CXXMemberCallExpr *Call, const std::vector<TensorOrigin> &Origins,
                                                   HotContext Hot) {
  if (Origins.empty())
    return;
  for (const TensorOrigin &O : Origins) {
    if (O.K == TensorOrigin::UserCall && O.Element >= 0)
      Hot.IfWidenedExample.emplace_back(O.Callee, static_cast<unsigned>(O.Element));
    else if (O.K == TensorOrigin::UserCall)
      Hot.IfWidenedHost.push_back(O.Callee);
    else if (O.K == TensorOrigin::FieldRead)
      Hot.IfWidenedHost.push_back(O.Field);
    else
      return; // a widening chain here (mixed with others), or anything else
  }
  // The model fills in what was converted where (model/HotBasis.h); no fix-it: the conversion is
  // in another function.
  report(Call->getExprLoc(),
         std::string(model::WidenedWhat) + " and is copied to the device here: " + model::WidenedFactor +
             " times the bytes cross the bus and the conversion runs on the CPU; copy the " + model::WidenedFrom +
             " tensor and convert on the device",
         Hot);
}

bool HostConvertThenCopyCheck::checkLoaderBatch(const CXXMemberCallExpr *Call, const Expr *Obj, const HotContext &Hot,
                                                ASTContext &Ctx) {
  std::vector<TensorOrigin> Origins;
  const FunctionDecl *Get = nullptr;
  if (!loaderBatchOrigins(Obj, Ctx, Origins, Get))
    return false;
  // Every value get() returns for this member is a widening chain written there, from one narrow
  // dtype to one wide dtype: decided in this file.
  const WideningChain *First = nullptr;
  bool AllWidened = !Origins.empty();
  for (const TensorOrigin &O : Origins) {
    if (O.K != TensorOrigin::Widened) {
      AllWidened = false;
      break;
    }
    if (!First)
      First = &O.Chain;
    else if (O.Chain.From != First->From || O.Chain.To != First->To)
      return true; // mixed dtypes: the factor is not one number
  }
  if (!AllWidened) {
    // Chains mixed with calls and fields, or calls and fields only: the project model decides
    // those (and a chain here cannot be named to it: leave the mix alone).
    for (const TensorOrigin &O : Origins)
      if (O.K == TensorOrigin::Widened || O.K == TensorOrigin::Unknown)
        return true;
    if (projectMode())
      reportFromElsewhere(Call, Origins, Hot);
    return true;
  }
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  unsigned Factor = scalarTypeSize(First->To) / scalarTypeSize(First->From);
  std::string What = sourceText(Obj, Ctx);
  report(Call->getExprLoc(),
         "the " + dtypeWord(First->To) + " tensor " + (What.empty() ? std::string("of the batch") : "'" + What + "'") +
             " is what the data set's " + HC.describe(Get) + " returns, converted from " + dtypeWord(First->From) +
             " on the host (" + HC.placeFrom(First->Conversion->getExprLoc(), Call->getExprLoc()) +
             "), and is copied to the device here: " + std::to_string(Factor) +
             " times the bytes cross the bus and the conversion runs on the CPU; return the " +
             dtypeWord(First->From) + " tensor from get() and convert on the device after the copy",
         Hot);
  return true;
}

void HostConvertThenCopyCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("to", "cuda"), isTensorMethod()).bind("m"))).bind("call"), this);
}

void HostConvertThenCopyCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *M = Result.Nodes.getNodeAs<CXXMethodDecl>("m");
  ASTContext &Ctx = *Result.Context;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, *Result.SourceManager) || Loc.isMacroID())
    return;
  const Expr *Dev = nullptr;
  if (M->getName() == "to") {
    Dev = deviceArgumentOfTo(Call);
    if (!Dev || isConstantCpuDevice(Dev) || deviceDenotedBy(Dev, Ctx) == DeviceKind::CPU)
      return;
    // .to(device, kFloat): libtorch's CUDA copy converts a host source to the destination's dtype
    // on the CPU, then copies (native/cuda/Copy.cu: "Type conversions are performed on the CPU
    // for CPU-GPU copies"): the same wide copy, written in one call.
    if (Call->getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(Call->getArg(1)) &&
        stripCopies(Call->getArg(1))->getType()->isEnumeralType()) {
      std::string To = scalarTypeDenotedBy(Call->getArg(1), Ctx);
      if (!To.empty())
        checkConvertingCopy(Call, Dev, To, Ctx);
      return;
    }
  }
  if (TUFacts::get(Ctx).usesCUDA().isInvalid())
    return; // a CPU-only program: no bus to cross
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return;

  Chain C;
  const Expr *Obj = Call->getImplicitObjectArgument();
  bool InLocal = false;
  if (!walkWideningChain(Obj, Ctx, C)) {
    // `auto img = from_blob(...).to(kFloat).div(255); ... img.to(device)`: a local all of whose
    // values are such chains (reported without a fix-it: the conversion is in another statement).
    const auto *DRE = dyn_cast<DeclRefExpr>(stripCopies(Obj));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && isa<ParmVarDecl>(VD))
      return;
    const VarValues *V = VD ? &valuesOf(VD, Ctx) : nullptr;
    bool AllChains = V && V->Known && !V->Values.empty();
    for (size_t I = 0; AllChains && I < V->Values.size(); ++I) {
      Chain VC;
      if (!walkWideningChain(V->Values[I], Ctx, VC))
        AllChains = false;
      else if (!C.Root)
        C = VC;
    }
    if (!AllChains) {
      if (checkLoaderBatch(Call, Obj, *Hot, Ctx))
        return;
      return checkCopyFromElsewhere(Call, Obj, VD, *Hot, Ctx);
    }
    C.Fixable = false;
    InLocal = true;
  }

  unsigned Factor = scalarTypeSize(C.To) / scalarTypeSize(C.From);
  std::string Msg = "the " + dtypeWord(C.From) + " tensor is converted to " + dtypeWord(C.To) +
                    " on the host and then copied to the device" +
                    (InLocal ? " (the conversion is in the value of '" +
                                   cast<DeclRefExpr>(stripCopies(Obj))->getDecl()->getNameAsString() + "')"
                             : std::string()) +
                    ": " + std::to_string(Factor) + " times the bytes cross the bus and the conversion runs on the CPU; "
                    "copy the " + dtypeWord(C.From) + " tensor, then convert on the device";
  auto D = report(Loc, Msg, Hot);
  if (!C.Fixable || C.Steps == 0)
    return;
  // The fix: `root.steps.to(dev)` -> `root.to(dev).steps`, the copy moved next to the narrow
  // tensor. Only for a copy written `.to(d)` / `.cuda()` with nothing but the device, evaluated
  // without side effects.
  std::string CopyText;
  if (M->getName() == "cuda") {
    for (const Expr *A : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        return;
    CopyText = ".cuda()";
  } else {
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
        return;
    std::string DevText = writtenText(Dev, Ctx);
    if (DevText.empty() || !isSideEffectFree(Dev))
      return;
    CopyText = ".to(" + DevText + ")";
  }
  const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
  if (!ME || ME->isArrow())
    return;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation RemoveBegin = ME->getOperatorLoc(), RemoveEnd = Call->getEndLoc();
  SourceLocation RootEnd = Lexer::getLocForEndOfToken(C.Root->getEndLoc(), 0, SM, LO);
  // The copy is appended to the root: only where the root is a postfix expression as written
  // (a variable, a call), not one whose parentheses were stripped (`(a + b).to(kFloat)`).
  const Expr *Root = C.Root->IgnoreImplicit();
  if (!isa<DeclRefExpr, MemberExpr>(Root) && !(isa<CallExpr>(Root) && !isa<CXXOperatorCallExpr>(Root)))
    return;
  if (RemoveBegin.isMacroID() || RemoveEnd.isMacroID() || RootEnd.isInvalid() || C.Root->getBeginLoc().isMacroID() ||
      writtenText(C.Root, Ctx).empty())
    return;
  D << FixItHint::CreateInsertion(RootEnd, CopyText)
    << FixItHint::CreateRemoval(CharSourceRange::getTokenRange(RemoveBegin, RemoveEnd));
}

} // namespace torchlint
