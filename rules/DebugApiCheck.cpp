#include "rules/DebugApiCheck.h"
#include "analysis/Autograd.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void DebugApiCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasName("::torch::autograd::AnomalyMode::set_enabled"))), argumentCountIs(2))
          .bind("anomaly"),
      this);
  Finder->addMatcher(
      declStmt(
          has(varDecl(hasLocalStorage(),
                      hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(cxxRecordDecl(hasAnyName(
                          "::torch::autograd::DetectAnomalyGuard", "::torch::autograd::profiler::RecordProfile")))))))
                  .bind("guard")))
          .bind("guardStmt"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("::torch::autograd::profiler::enableProfilerLegacy",
                                                             "::torch::autograd::profiler::enableProfiler"))))
                         .bind("profiler"),
                     this);
}

void DebugApiCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const Stmt *S = nullptr;
  SourceLocation Loc;
  bool Profiler = false;
  std::string Msg;
  if (const auto *C = Result.Nodes.getNodeAs<CallExpr>("anomaly")) {
    bool On;
    if (C->getArg(0)->isValueDependent() || !C->getArg(0)->EvaluateAsBooleanCondition(On, Ctx) || !On)
      return; // off, or switched by a run-time value
    S = C;
    Loc = C->getBeginLoc();
    Msg = "anomaly detection switched on with AnomalyMode::set_enabled(true): every autograd node records "
          "a stack trace and backward() checks each gradient for NaN, which slows training severalfold; "
          "use it only while debugging";
  } else if (const auto *VD = Result.Nodes.getNodeAs<VarDecl>("guard")) {
    S = Result.Nodes.getNodeAs<DeclStmt>("guardStmt");
    Loc = VD->getLocation();
    std::string Type = VD->getType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl()->getName().str();
    if (Type == "RecordProfile") {
      Profiler = true;
      Msg = "the autograd profiler is on (RecordProfile) in training code: every op is recorded with "
            "timing, which slows each step and grows memory; profile a few steps in a separate run";
    } else {
      Msg = "anomaly detection is on (DetectAnomalyGuard): every autograd node records a stack trace and "
            "backward() checks each gradient for NaN, which slows training severalfold; use it only "
            "while debugging";
    }
  } else if (const auto *C = Result.Nodes.getNodeAs<CallExpr>("profiler")) {
    S = C;
    Loc = C->getBeginLoc();
    Profiler = true;
    Msg = "the autograd profiler is enabled in training code: every op is recorded with timing, which "
          "slows each step and grows memory; profile a few steps in a separate run";
  }
  if (!S || !inUserCode(Loc, SM) || Loc.isMacroID())
    return;
  if (underRuntimeCondition(S, Ctx) || inTestCode(S, Ctx))
    return; // behind a debug flag, or a test
  if (Profiler) {
    // Only in training code: the function trains, or the profiler is switched on every step.
    const FunctionDecl *FD = enclosingFunction(S, Ctx);
    if (!findTrainingCall(FD) && !hotContext(S, Ctx))
      return;
  }
  report(Loc, Msg);
}

} // namespace torchlint
