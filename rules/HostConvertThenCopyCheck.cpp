#include "rules/HostConvertThenCopyCheck.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/LocalDataflow.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "analysis/TensorDtype.h"
#include "fixits/TensorOptionsFix.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// Methods that keep values and only change the view (shape, strides): the same on either side
/// of the copy.
bool isViewStep(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("permute", "unsqueeze", "squeeze", "view", "reshape", "flatten", "transpose", true)
      .Cases("contiguous", "clone", "narrow", "slice", "select", "t", true)
      .Default(false);
}
/// Elementwise arithmetic with a scalar: IEEE-rounded the same on the CPU and the GPU.
bool isScalarArith(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N).Cases("div", "mul", "sub", "add", "div_", "mul_", "sub_", "add_", true).Default(false);
}

struct Chain {
  const Expr *Root = nullptr;   // the narrow host tensor
  std::string From, To;         // dtypes before and after the widening conversion
  bool Fixable = true;          // every step can move to the device unchanged
  unsigned Steps = 0;
};

/// Walks down `root.step().step()...` from E (the object of the copy) to the first expression
/// that is not a step. Returns false when E contains no widening conversion of a narrow tensor
/// provably on the host.
bool walkChain(const Expr *E, ASTContext &Ctx, Chain &Out) {
  bool Widened = false;
  std::string To;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    E = stripTemporaries(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // `t / 255.0`, `t * s`: arithmetic with a scalar (the tensor on the left).
      OverloadedOperatorKind K = Op->getOperator();
      if (Op->getNumArgs() == 2 && (K == OO_Slash || K == OO_Star || K == OO_Minus || K == OO_Plus) &&
          isTensorType(Op->getArg(0)->getType()) && !isTensorType(stripCopies(Op->getArg(1))->getType())) {
        Out.Fixable = false;
        E = Op->getArg(0);
        ++Out.Steps;
        continue;
      }
      break;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (!MC)
      break;
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj || !MD->getDeclName().isIdentifier() || !isTensorType(Obj->getType()))
      break;
    llvm::StringRef N = MD->getName();
    if (N == "to" || N == "toType" || N == "float" || N == "half" || N == "double") {
      if (N == "to" && deviceArgumentOfTo(MC))
        break; // an earlier copy: the chain starts after it
      std::string T = scalarTypeOf(MC, Ctx);
      if (T.empty())
        return false;
      if (To.empty())
        To = T; // the outermost conversion is what is copied
      Widened = true;
      for (unsigned I = 1; I < MC->getNumArgs(); ++I)
        if (!isa<CXXDefaultArgExpr>(MC->getArg(I)))
          Out.Fixable = false;
    } else if (isViewStep(N)) {
    } else if (isScalarArith(N)) {
      for (const Expr *A : MC->arguments())
        if (isTensorType(stripCopies(A)->getType()))
          return false; // arithmetic with another tensor: that one would have to move too
    } else {
      break;
    }
    ++Out.Steps;
    E = Obj;
  }
  if (!Widened)
    return false;
  std::string From = scalarTypeOf(E, Ctx);
  unsigned FromSize = scalarTypeSize(From), ToSize = scalarTypeSize(To);
  if (!FromSize || !ToSize || ToSize <= FromSize)
    return false; // float source data, or a narrowing conversion: converting first is right
  if (deviceOf(E, Ctx) != DeviceKind::CPU)
    return false; // already on the device, or not known to be on the host
  Out.Root = E;
  Out.From = From;
  Out.To = To;
  return true;
}

std::string dtypeWord(llvm::StringRef T) {
  return llvm::StringSwitch<std::string>(T)
      .Case("Byte", "uint8")
      .Case("Char", "int8")
      .Case("Bool", "bool")
      .Case("Short", "int16")
      .Case("Half", "float16")
      .Case("BFloat16", "bfloat16")
      .Case("Int", "int32")
      .Case("Float", "float32")
      .Case("Long", "int64")
      .Case("Double", "float64")
      .Default(T.lower());
}

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
  if (!FromSize || !ToSize || ToSize <= FromSize || deviceOf(Obj, Ctx) != DeviceKind::CPU)
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
  if (!walkChain(Obj, Ctx, C)) {
    // `auto img = from_blob(...).to(kFloat).div(255); ... img.to(device)`: a local all of whose
    // values are such chains (reported without a fix-it: the conversion is in another statement).
    const auto *DRE = dyn_cast<DeclRefExpr>(stripCopies(Obj));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD))
      return;
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.empty())
      return;
    for (const Expr *Val : V.Values) {
      Chain VC;
      if (!walkChain(Val, Ctx, VC))
        return;
      if (!C.Root)
        C = VC;
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
