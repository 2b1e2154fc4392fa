#include "ZeroGradSetToNoneCheck.h"
#include "NnModules.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

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
            "(`for (auto &g : opt.param_groups()) for (auto &p : g.params()) p.mutable_grad() = "
            "torch::Tensor();`, or model->zero_grad(true))" + std::string(Why);
    else
      Msg = "Module::zero_grad() in libtorch < 2.0 defaults to set_to_none = false and writes zeros into "
            "every gradient; call zero_grad(true)" + std::string(Why);
  } else {
    return;
  }
  auto Hot = hotContext(Call, *Result.Context);
  if (!Hot)
    return; // once, in setup code: not worth a finding
  report(Loc, Msg, Hot);
}

} // namespace torchlint
