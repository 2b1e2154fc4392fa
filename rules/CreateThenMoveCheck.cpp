#include "CreateThenMoveCheck.h"
#include "TensorOptionsFix.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void CreateThenMoveCheck::registerMatchers(MatchFinder *Finder) {
  auto Factory = callExpr(callee(functionDecl(isTensorFactoryDecl()))).bind("factory");
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("cuda", "to"), isTensorMethod()).bind("move")),
                        on(ignoringImplicit(Factory)))
          .bind("call"),
      this);
}

void CreateThenMoveCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  const auto *Move = Result.Nodes.getNodeAs<CXXMethodDecl>("move");
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = Result.Context->getLangOpts();
  if (!inUserCode(Call->getExprLoc(), SM) || Call->getExprLoc().isMacroID())
    return;

  std::string Device; // source text of the target device
  std::string Ns = factoryNamespace(Factory);
  if (Move->getName() == "cuda") {
    // .cuda() with an explicit device index or non_blocking is left alone by the fix.
    bool Plain = true;
    for (const Expr *A : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        Plain = false;
    if (Plain)
      Device = Ns + "::kCUDA";
    else
      Device = "";
  } else {
    // .to(device): only the TensorOptions overload carrying a device (not .to(kFloat)).
    const Expr *DevArg = deviceArgumentOfTo(Call);
    if (!DevArg)
      return;
    Device = Lexer::getSourceText(CharSourceRange::getTokenRange(DevArg->getSourceRange()), SM, LO).str();
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
        Device = ""; // .to(device, non_blocking, ...): report without a fix
  }

  const FunctionDecl *FD = Factory->getDirectCallee();
  std::string FactoryName = FD ? FD->getNameAsString() : "factory";
  std::string Msg = Ns + "::" + FactoryName + "(...)." + Move->getNameAsString() +
                    (Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(0)) ? "(...)" : "()") + " creates the tensor on the CPU, then allocates it again on the device and "
                    "copies it; pass the device in the factory's TensorOptions instead";
  auto D = report(Call->getExprLoc(), Msg);
  if (Device.empty())
    return;
  std::vector<FixItHint> Fixes;
  if (!buildDeviceIntoFactoryFix(Factory, Call, Device, Ns, *Result.Context, Fixes))
    return;
  for (const FixItHint &F : Fixes)
    D << F;
}

} // namespace torchlint
