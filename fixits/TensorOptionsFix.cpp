#include "fixits/TensorOptionsFix.h"
#include "analysis/TorchTypes.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchlint {

/// Strips implicit nodes and implicit converting constructors (TensorOptions(kCUDA)): what the
/// user wrote.
static const Expr *asWritten(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (!isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid() && CE->getNumArgs() >= 1) {
        E = CE->getArg(0);
        continue;
      }
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      (void)FC;
    }
    return E;
  }
  return E;
}

const Expr *deviceArgumentOfTo(const CXXMemberCallExpr *Call) {
  if (!Call || Call->getNumArgs() == 0)
    return nullptr;
  const Expr *A = Call->getArg(0);
  if (isa<CXXDefaultArgExpr>(A))
    return nullptr;
  const Expr *W = asWritten(A);
  if (W && isDeviceLikeType(W->getType()))
    return W;
  return nullptr;
}

static bool isSimplePostfix(const Expr *E) {
  E = E->IgnoreParens();
  return isa<DeclRefExpr, CallExpr, MemberExpr, CXXTemporaryObjectExpr, CXXFunctionalCastExpr, CXXConstructExpr>(E);
}

bool buildDeviceIntoFactoryFix(const CallExpr *Factory, const CXXMemberCallExpr *Move, llvm::StringRef Device,
                               llvm::StringRef Ns, ASTContext &Ctx, std::vector<FixItHint> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const FunctionDecl *FD = Factory->getDirectCallee();
  if (!FD || Factory->getBeginLoc().isMacroID() || Move->getEndLoc().isMacroID())
    return false;
  const auto *ME = dyn_cast<MemberExpr>(Move->getCallee()->IgnoreParens());
  if (!ME || ME->getOperatorLoc().isInvalid() || ME->getOperatorLoc().isMacroID())
    return false;

  int OptIdx = -1;
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (isTensorOptionsType(FD->getParamDecl(I)->getType())) {
      OptIdx = static_cast<int>(I);
      break;
    }
  if (OptIdx < 0 || static_cast<unsigned>(OptIdx) >= Factory->getNumArgs())
    return false;

  std::string DevOpts = (Ns + "::TensorOptions().device(" + Device + ")").str();
  const Expr *OptArg = Factory->getArg(OptIdx);
  if (isa<CXXDefaultArgExpr>(OptArg)) {
    // Every argument before the options must be written, every one after defaulted.
    if (OptIdx == 0)
      return false;
    for (unsigned I = 0; I < Factory->getNumArgs(); ++I) {
      bool Default = isa<CXXDefaultArgExpr>(Factory->getArg(I));
      if ((static_cast<int>(I) < OptIdx) == Default)
        return false;
    }
    const Expr *Last = Factory->getArg(OptIdx - 1);
    if (Last->getEndLoc().isMacroID())
      return false;
    SourceLocation After = Lexer::getLocForEndOfToken(Last->getEndLoc(), 0, SM, LO);
    if (After.isInvalid())
      return false;
    Out.push_back(FixItHint::CreateInsertion(After, ", " + DevOpts));
  } else {
    std::string Text = writtenText(OptArg, Ctx);
    if (Text.empty() || llvm::StringRef(Text).contains("requires_grad"))
      return false; // a leaf that requires grad would become a different leaf: not equivalent
    const Expr *W = asWritten(OptArg);
    std::string New;
    if (W && isTensorOptionsType(W->getType()))
      New = (isSimplePostfix(W) ? Text : "(" + Text + ")") + ".device(" + Device.str() + ")";
    else
      New = (Ns + "::TensorOptions(" + Text + ").device(" + Device + ")").str();
    Out.push_back(FixItHint::CreateReplacement(CharSourceRange::getTokenRange(OptArg->getSourceRange()), New));
  }
  // Delete ".cuda()" / ".to(dev)".
  Out.push_back(FixItHint::CreateRemoval(CharSourceRange::getTokenRange(ME->getOperatorLoc(), Move->getRParenLoc())));
  return true;
}

} // namespace torchlint
