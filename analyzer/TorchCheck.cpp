#include "TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/ErrorHandling.h"

namespace torchlint {

TorchCheck::TorchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Info(findCheck(Name)), TidyContext(Context) {
  if (!Info)
    llvm::report_fatal_error(llvm::Twine("torchlint: check ") + Name + " is not in rules/checks.json");
}

void TorchCheck::registerPPCallbacks(const clang::SourceManager &, clang::Preprocessor *P,
                                     clang::Preprocessor *) {
  PP = P;
}

bool TorchCheck::isCheckEnabled(llvm::StringRef Name) const {
  return TidyContext && TidyContext->isCheckEnabled(Name);
}

TorchVersion TorchCheck::torchVersion() const {
  return PP ? readTorchVersion(*PP) : TorchVersion{};
}

std::optional<HotContext> TorchCheck::hotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  return HotCodeAnalysis::get(Ctx).whyHot(S);
}

bool TorchCheck::inUserCode(clang::SourceLocation Loc, const clang::SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  return !SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

clang::DiagnosticBuilder TorchCheck::report(clang::SourceLocation Loc, llvm::StringRef Message,
                                            const std::optional<HotContext> &Hot,
                                            clang::DiagnosticIDs::Level Level) {
  std::string Text = Message.str();
  if (Hot)
    Text += " (" + Hot->Why + ")";
  // clang's diagnostic formatter treats '%' specially.
  std::string Escaped;
  for (char C : Text) {
    Escaped += C;
    if (C == '%')
      Escaped += '%';
  }
  return diag(Loc, Escaped, Level);
}

} // namespace torchlint
