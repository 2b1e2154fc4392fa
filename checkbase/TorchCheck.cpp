#include "checkbase/TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "core/Recovery.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/ErrorHandling.h"
#include <functional>

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

bool TorchCheck::evidenceRestsOnErrors(std::initializer_list<const clang::Stmt *> Evidence) const {
  if (!Ctx || !Ctx->getDiagnostics().hasErrorOccurred())
    return false;
  std::function<bool(const clang::Stmt *)> Names = [&](const clang::Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S); E && isSynthesizedExpr(E))
      return false; // an unknown value: nothing it names is the evidence
    if (const auto *R = llvm::dyn_cast<clang::DeclRefExpr>(S); R && declRestsOnErrors(*Ctx, R->getDecl()))
      return true;
    if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(S); M && declRestsOnErrors(*Ctx, M->getMemberDecl()))
      return true;
    for (const clang::Stmt *C : S->children())
      if (Names(C))
        return true;
    return false;
  };
  // Whether S names a variable or field (a temporary cannot be changed by other code).
  std::function<bool(const clang::Stmt *)> NamesDecl = [&](const clang::Stmt *S) {
    if (!S)
      return false;
    if (llvm::isa<clang::DeclRefExpr>(S)) {
      const auto *D = llvm::cast<clang::DeclRefExpr>(S)->getDecl();
      if (llvm::isa<clang::VarDecl, clang::FieldDecl>(D))
        return true;
    }
    if (const auto *M = llvm::dyn_cast<clang::MemberExpr>(S); M && llvm::isa<clang::FieldDecl>(M->getMemberDecl()))
      return true;
    for (const clang::Stmt *C : S->children())
      if (NamesDecl(C))
        return true;
    return false;
  };
  for (const clang::Stmt *S : Evidence) {
    if (!S)
      continue;
    if (restsOnErrors(*Ctx, S->getBeginLoc()) || Names(S) ||
        (NamesDecl(S) && functionHasDroppedCode(*Ctx, S->getBeginLoc())))
      return true;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S); E && E->containsErrors())
      return true;
  }
  return false;
}

void TorchCheck::reportUnjudgedCode() {
  if (Ctx)
    torchlint::reportUnjudgedCode(*Ctx);
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
