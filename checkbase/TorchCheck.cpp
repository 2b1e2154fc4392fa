#include "checkbase/TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "core/Recovery.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/ErrorHandling.h"

namespace torchlint {

TorchCheck::TorchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Info(findCheck(Name)), TidyContext(Context) {
  if (!Info)
    llvm::report_fatal_error(llvm::Twine("torchlint: check ") + Name + " is not in rules/checks.json");
}

void TorchCheck::registerPPCallbacks(const clang::SourceManager &, clang::Preprocessor *P, clang::Preprocessor *) {
  PP = P;
  // A missing non-libtorch header does not end the analysis (Recovery.h); the global option
  // StrictIncludes (the CLI's --strict-includes) keeps it fatal.
  llvm::StringRef Strict = Options.getLocalOrGlobal("StrictIncludes", "false");
  llvm::StringRef Synth = Options.getLocalOrGlobal("Synthesis", "true"); // the CLI's --no-synthesis
  bool IsStrict = Strict.equals_insensitive("true") || Strict == "1";
  setUpIncludeRecovery(*P, IsStrict, !IsStrict && !Synth.equals_insensitive("false") && Synth != "0");
}

void TorchCheck::run(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  check(Result);
}

bool TorchCheck::dropped(clang::SourceLocation Loc) const {
  if (PP && isLibraryLocation(PP->getSourceManager(), Loc))
    return true;
  if (!Ctx)
    return false;
  if (restsOnErrors(*Ctx, Loc))
    return true;
  Evidence E = evidence();
  return E != Evidence::Expression && scopeHasErrors(*Ctx, Loc, E == Evidence::TranslationUnit);
}

bool TorchCheck::isCheckEnabled(llvm::StringRef Name) const { return TidyContext && TidyContext->isCheckEnabled(Name); }

TorchVersion TorchCheck::torchVersion() const { return PP ? readTorchVersion(*PP) : TorchVersion{}; }

std::optional<HotContext> TorchCheck::hotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  return HotCodeAnalysis::get(Ctx).whyHot(S);
}

bool TorchCheck::inUserCode(clang::SourceLocation Loc, const clang::SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  return !isLibraryLocation(SM, Loc);
}

clang::DiagnosticBuilder TorchCheck::report(clang::SourceLocation Loc, llvm::StringRef Message,
                                            const std::optional<HotContext> &Hot, clang::DiagnosticIDs::Level Level) {
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
  // An ignored diagnostic: the builder takes fix-its as usual, and clang drops it and the notes
  // that follow it.
  return diag(Loc, Escaped, dropped(Loc) ? clang::DiagnosticIDs::Ignored : Level);
}

} // namespace torchlint
