#include "rules/JitInferenceSetupCheck.h"
#include "analysis/Autograd.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "core/AstWalk.h"
#include "fixits/SetupFixes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
bool isJitModuleType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getName() == "Module" && RD->getQualifiedNameAsString() == "torch::jit::Module";
}

/// The variable or field E names: `m`, `this->m`, `m_`, `*p`, `p->` (through implicit nodes).
const ValueDecl *declOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? ME->getMemberDecl() : declOf(ME->getBase());
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
      E = UO->getSubExpr();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1)
      E = CE->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

} // namespace

void JitInferenceSetupCheck::registerMatchers(MatchFinder *Finder) {
  auto JitModuleMethod = [](auto Names) {
    return cxxMethodDecl(Names, ofClass(cxxRecordDecl(hasName("::torch::jit::Module"))));
  };
  Finder->addMatcher(cxxMemberCallExpr(callee(JitModuleMethod(hasAnyName("forward", "run_method")))).bind("forward"),
                     this);
  Finder->addMatcher(cxxMemberCallExpr(callee(JitModuleMethod(hasAnyName("eval", "train")))).bind("mode"), this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::jit::load")))).bind("load"), this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::torch::jit::freeze", "::torch::jit::optimize_for_inference",
                                              "::torch::jit::freeze_module"))))
          .bind("freeze"),
      this);
  // A module handed to a function of the user's, which may set it up (eval(), freeze) itself.
  auto JitRecord = recordType(hasDeclaration(cxxRecordDecl(hasName("::torch::jit::Module"))));
  auto JitArg = expr(hasType(qualType(hasCanonicalType(anyOf(JitRecord, referenceType(pointee(JitRecord)))))));
  Finder->addMatcher(callExpr(callee(functionDecl(unless(isInTorchHeaders()))), hasAnyArgument(JitArg)).bind("escape"),
                     this);
}

void JitInferenceSetupCheck::checkForward(const CXXMemberCallExpr *Call, ASTContext &Ctx) {
  // Only an inference program: it loads TorchScript and never trains (no backward(), no
  // optimizer step anywhere in the file).
  if (TUFacts::get(Ctx).firstCall("torch::jit::load").isInvalid() || ProgramFacts::get(Ctx).Trains)
    return;
  const FunctionDecl *FD = enclosingFunction(Call, Ctx);
  if (!FD || !FD->getBody() || GuardReported.count(FD->getCanonicalDecl()))
    return;
  if (gradDisabledAt(Call, Ctx) || mayNeedGradients(FD) || inTestCode(Call, Ctx))
    return;
  GuardReported.insert(FD->getCanonicalDecl());
  auto D = report(Call->getExprLoc(),
                  "TorchScript forward() runs with gradient recording on in a program that never trains: "
                  "autograd records the graph and keeps every intermediate alive for a backward() that "
                  "never comes; run inference under `c10::InferenceMode guard;` (fastest: no version "
                  "counters or autograd metadata; its outputs cannot enter autograd later) or "
                  "`torch::NoGradGuard no_grad;`",
                  HotCodeAnalysis::get(Ctx).whyHot(Call)); // decorates a finding made whether hot or not
  // The fix: a NoGradGuard at the start of the function, which computes the same values whatever
  // the outputs are used for afterwards (an InferenceMode output cannot be used in autograd or
  // updated in place outside inference mode). Only where no tensor leaves the function with its
  // gradient history: functions returning nothing or a number, and main().
  QualType Ret = FD->getReturnType();
  if (!(Ret->isVoidType() || Ret->isArithmeticType() || FD->isMain()) || declaresName(FD->getBody(), "no_grad"))
    return;
  std::vector<FixItHint> Fixes;
  if (insertAtFunctionStart(FD, "torch::NoGradGuard no_grad;", Ctx, Fixes))
    for (const FixItHint &F : Fixes)
      D << F;
}

void JitInferenceSetupCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &C = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (Ctx != &C) {
    Modules.clear();
    GuardReported.clear();
    Ctx = &C;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("forward")) {
    if (!inUserCode(Call->getExprLoc(), SM))
      return;
    if (const ValueDecl *D = declOf(Call->getImplicitObjectArgument())) {
      ModuleUse &U = Modules[D];
      if (!U.Forward)
        U.Forward = Call;
      if (!U.HotForward && HotCodeAnalysis::get(C).whyHot(Call))
        U.HotForward = Call;
    }
    checkForward(Call, C);
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("mode")) {
    if (const ValueDecl *D = declOf(Call->getImplicitObjectArgument()))
      Modules[D].Eval = true;
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("freeze")) {
    if (Call->getNumArgs() >= 1)
      if (const ValueDecl *D = declOf(Call->getArg(0))) {
        Modules[D].Frozen = true;
        Modules[D].Eval = true; // freezing requires eval mode
      }
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("escape")) {
    if (!inUserCode(Call->getExprLoc(), SM))
      return;
    for (const Expr *A : Call->arguments())
      if (isJitModuleType(A->getType()))
        if (const ValueDecl *D = declOf(A))
          Modules[D].Escapes = true;
    return;
  }
  const auto *Load = Result.Nodes.getNodeAs<CallExpr>("load");
  if (!inUserCode(Load->getExprLoc(), SM) || Load->getExprLoc().isMacroID())
    return;
  // Where the loaded module is stored: `auto m = torch::jit::load(p);`, `m_ = torch::jit::load(p);`.
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(C);
  const Stmt *Child = Load;
  for (const Stmt *P = HC.parentOf(Load); P && !isa<CompoundStmt>(P); Child = P, P = HC.parentOf(P)) {
    const ValueDecl *Target = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *Dcl : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(Dcl); VD && VD->getInit() == Child && isJitModuleType(VD->getType()))
          Target = VD;
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
               OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 && OC->getArg(1) == Child) {
      Target = declOf(OC->getArg(0));
    } else if (!isa<ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXConstructExpr,
                    ImplicitCastExpr, ParenExpr>(P)) {
      break;
    }
    if (Target) {
      ModuleUse &U = Modules[Target];
      if (!U.Load)
        U.Load = Load;
      break;
    }
    if (isa<DeclStmt>(P))
      break;
  }
}

void JitInferenceSetupCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  const SourceManager &SM = Ctx->getSourceManager();
  bool Trains = ProgramFacts::get(*Ctx).Trains;
  for (const auto &[D, U] : Modules) {
    if (!U.Load || !U.Forward || U.Escapes || Trains)
      continue;
    std::string Line = std::to_string(SM.getSpellingLineNumber(U.Forward->getExprLoc()));
    if (!U.Eval)
      report(U.Load->getExprLoc(),
             "TorchScript module loaded here and run (forward() at line " + Line +
                 ") is never switched to eval(): a scripted module keeps the training flag it was saved "
                 "with, so dropout and batch norm may run in training mode; call `" +
                 D->getNameAsString() + ".eval();` after loading (a no-op when it was saved in eval mode)");
    if (U.HotForward && !U.Frozen) {
      std::string HotLine = std::to_string(SM.getSpellingLineNumber(U.HotForward->getExprLoc()));
      report(U.Load->getExprLoc(),
             "TorchScript module loaded here runs in a serving loop (forward() at line " + HotLine +
                 ") without torch::jit::freeze or torch::jit::optimize_for_inference: freezing inlines "
                 "its weights and attributes as constants, so the JIT can fold and fuse (conv and batch "
                 "norm, linear chains) and skips attribute lookups on every call; after eval(), "
                 "`" +
                 D->getNameAsString() + " = torch::jit::optimize_for_inference(" + D->getNameAsString() +
                 ");` (or torch::jit::freeze) once after loading (folding can change results in the last "
                 "bits)");
    }
  }
  Modules.clear();
  GuardReported.clear();
  Ctx = nullptr;
}

} // namespace torchlint
