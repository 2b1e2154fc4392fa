#include "rules/CreateThenMoveCheck.h"
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
/// A factory that draws random numbers: on the device it would use the device's generator, so a
/// seeded program gets other numbers than from the CPU generator it uses now.
bool isRandomFactory(llvm::StringRef Name) { return tensorFactoryKind(Name).Random; }

/// Tensor methods that only reshape what the factory made (a view, or a copy of the same
/// elements): `torch::rand({1, n}).squeeze(0).to(device)` draws and fills on the CPU and copies,
/// as `torch::rand({n}).to(device)` does. Methods that drop elements (narrow, select, slice,
/// indexing) are not here: made on the device, the whole tensor would be allocated there.
bool isReshapeMethod(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("squeeze", "unsqueeze", "view", "reshape", "flatten", "unflatten", true)
      .Cases("permute", "transpose", "t", "contiguous", "expand", "expand_as", "view_as", "reshape_as", true)
      .Default(false);
}

/// The factory call under a chain of reshaping tensor methods (none: E itself), or null.
const CallExpr *factoryUnderReshapes(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getDeclName().isIdentifier() || !isReshapeMethod(MD->getName()) ||
          !isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)))
        return nullptr;
      E = MC->getImplicitObjectArgument();
      continue;
    }
    const auto *CE = dyn_cast<CallExpr>(E);
    if (!CE || isa<CXXMemberCallExpr>(CE))
      return nullptr;
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && isTensorFactory(FD) ? CE : nullptr;
  }
  return nullptr;
}
} // namespace

void CreateThenMoveCheck::registerMatchers(MatchFinder *Finder) {
  auto Factory = callExpr(callee(functionDecl(isTensorFactoryDecl()))).bind("factory");
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("cuda", "to"), isTensorMethod()).bind("move")),
                                       on(ignoringImplicit(Factory)))
                         .bind("call"),
                     this);
  // torch::rand({1, n}).squeeze(0).to(device): the factory under reshaping methods.
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("cuda", "to"), isTensorMethod()).bind("move")),
                                       on(ignoringImplicit(cxxMemberCallExpr().bind("reshaped"))))
                         .bind("call"),
                     this);
}

void CreateThenMoveCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  if (const auto *Reshaped = Result.Nodes.getNodeAs<CXXMemberCallExpr>("reshaped"))
    Factory = factoryUnderReshapes(Reshaped);
  if (!Factory)
    return;
  const auto *Move = Result.Nodes.getNodeAs<CXXMethodDecl>("move");
  const SourceManager &SM = *Result.SourceManager;
  if (!inUserCode(Call->getExprLoc(), SM) || Call->getExprLoc().isMacroID())
    return;

  const FunctionDecl *FD = Factory->getDirectCallee();
  std::string FactoryName = FD ? FD->getNameAsString() : "factory";
  // torch::tensor({...}) fills a CPU tensor and copies it to the requested device even when the
  // device is in its options (TensorDataContainer::convert_to_tensor): moving the device into
  // the factory gains nothing.
  if (FactoryName == "tensor")
    return;
  bool Random = isRandomFactory(FactoryName);

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
    Device = writtenText(DevArg, *Result.Context);
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Call->getArg(I)))
        Device = ""; // .to(device, non_blocking, ...): report without a fix
  }

  std::string Msg = Ns + "::" + FactoryName + "(...)." + Move->getNameAsString() +
                    (Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(0)) ? "(...)" : "()");
  if (Random)
    Msg += " creates the tensor on the CPU, drawing its numbers from the CPU generator, then allocates it again "
           "on the device and copies it; with the device in the factory's TensorOptions the numbers are drawn "
           "on the device in one step, but from the device's generator, so a seeded run gets other numbers "
           "(advice, no fix-it: change it where the exact values do not matter)";
  else
    Msg += " creates the tensor on the CPU, then allocates it again on the device and copies it; pass the device "
           "in the factory's TensorOptions instead";
  auto D = report(Call->getExprLoc(), Msg);
  if (Device.empty() || Random)
    return;
  std::vector<FixItHint> Fixes;
  if (!buildDeviceIntoFactoryFix(Factory, Call, Device, Ns, *Result.Context, Fixes))
    return;
  for (const FixItHint &F : Fixes)
    D << F;
}

} // namespace torchlint
