#include "rules/ZeroGradSetToNoneCheck.h"
#include "analysis/NnModules.h"
#include "fixits/SetupFixes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void ZeroGradSetToNoneCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("zero_grad"), isInTorchHeaders()))).bind("call"),
                     this);
}

void ZeroGradSetToNoneCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, SM))
    return;
  const CXXMethodDecl *MD = Call->getMethodDecl();
  bool Optimizer = isOptimizerClass(MD->getParent());
  bool Module = !Optimizer && isModuleOrDerived(MD->getParent());
  if (!Optimizer && !Module)
    return;

  // set_to_none as written: 1 true, 0 false, -1 not a constant, 2 defaulted / no parameter.
  int SetToNone = 2;
  if (Call->getNumArgs() >= 1 && !isa<CXXDefaultArgExpr>(Call->getArg(0))) {
    const Expr *A = Call->getArg(0);
    bool B;
    SetToNone = (!A->isValueDependent() && A->EvaluateAsBooleanCondition(B, *Result.Context)) ? (B ? 1 : 0) : -1;
  }
  bool Modern = torchVersion().atLeast(2, 0);
  std::string Msg;
  const char *Why = "; the next backward() then allocates fresh gradients by assignment instead of "
                    "accumulating into zeroed ones, saving a memset and a read-modify-write per parameter";
  if (SetToNone == 0) {
    Msg = std::string(Optimizer ? "Optimizer" : "Module") +
          "::zero_grad(false) writes zeros into every gradient; call zero_grad() (set_to_none = true)" + Why;
    if (!Modern)
      Msg = std::string(Optimizer ? "Optimizer" : "Module") +
            "::zero_grad(false) writes zeros into every gradient; call zero_grad(true) to reset them" + Why;
  } else if (SetToNone == 2 && !Modern) {
    if (Optimizer)
      Msg = "Optimizer::zero_grad() in libtorch < 2.0 writes zeros into every gradient; reset them instead "
            "as 2.x does (`for (auto &group : opt.param_groups()) for (auto &param : group.params()) "
            "param.mutable_grad().reset();`, or model->zero_grad(true))" +
            std::string(Why);
    else
      Msg = "Module::zero_grad() in libtorch < 2.0 defaults to set_to_none = false and writes zeros into "
            "every gradient; call zero_grad(true)" +
            std::string(Why);
  } else {
    return;
  }
  ASTContext &Ctx = *Result.Context;
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return; // once, in setup code: not worth a finding
  auto D = report(Loc, Msg, Hot);

  // Fix-its. Each makes the call reset the gradients (set_to_none), what libtorch >= 2.0 does by
  // default: the values after the next backward() are the same; a parameter that gets no
  // gradient in that backward() keeps an undefined grad instead of zeros (docs/checks/...).
  std::vector<FixItHint> Fixes;
  if (SetToNone == 0) {
    replaceExpr(Call->getArg(0), "true", Ctx, Fixes);
  } else if (Module) {
    insertDefaultedArgument(Call, 0, "true", Ctx, Fixes);
  } else {
    // libtorch < 2.0 Optimizer::zero_grad() takes no argument: reset each gradient, as 2.x's
    // zero_grad() does. Only for a call that is a statement of its own.
    const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreImplicit());
    const Stmt *Parent = HotCodeAnalysis::get(Ctx).parentOf(Call);
    if (!ME || !Parent || isa<Expr>(Parent) || Call->getBeginLoc().isMacroID() || ME->getMemberLoc().isMacroID())
      return;
    // The object as written, with its `.` or `->`: "opt.", "opt->", "trainer.optimizer()->".
    CharSourceRange Obj = CharSourceRange::getCharRange(Call->getBeginLoc(), ME->getMemberLoc());
    bool Invalid = false;
    StringRef ObjText = Lexer::getSourceText(Obj, SM, Ctx.getLangOpts(), &Invalid);
    if (Invalid || ObjText.empty() || ObjText.contains("group") || ObjText.contains("param"))
      return; // would be shadowed by the loop variables
    std::string Text = ("for (auto &group : " + ObjText +
                        "param_groups()) for (auto &param : group.params()) param.mutable_grad().reset()")
                           .str();
    replaceExpr(Call, Text, Ctx, Fixes);
  }
  for (const FixItHint &F : Fixes)
    D << F;
}

} // namespace torchlint
