#include "checkbase/TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "core/Recovery.h"
#include "model/HotBasis.h"
#include "model/TUSummary.h"
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
  setUpIncludeRecovery(*P, Strict.equals_insensitive("true") || Strict == "1");
  llvm::StringRef Project = Options.getLocalOrGlobal("ProjectModel", "false");
  ProjectMode = Project.equals_insensitive("true") || Project == "1";
}

void TorchCheck::run(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  CallbackConditional.reset();
  InRun = true;
  check(Result);
  InRun = false;
  CallbackConditional.reset();
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

std::optional<HotContext> TorchCheck::perTUHotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  return HotCodeAnalysis::get(Ctx).whyHot(S);
}

std::optional<HotContext> TorchCheck::hotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  std::optional<HotContext> H = HC.whyHot(S);
  if (H || !ProjectMode || !S || HC.inTestBody(S))
    return H;
  const clang::FunctionDecl *F = HC.enclosingFunction(S);
  if (!F || !inUserCode(F->getLocation(), Ctx.getSourceManager()))
    return H;
  H.emplace();
  H->Function = F;
  H->Conditional = true;
  if (InRun && !CallbackConditional)
    CallbackConditional = H;
  return H;
}

bool TorchCheck::inUserCode(clang::SourceLocation Loc, const clang::SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  return !isLibraryLocation(SM, Loc);
}

clang::DiagnosticBuilder TorchCheck::report(clang::SourceLocation Loc, llvm::StringRef Message,
                                            const std::optional<HotContext> &Hot, clang::DiagnosticIDs::Level Level) {
  std::string Text = Message.str();
  if (ProjectMode && (Hot || (InRun && CallbackConditional))) {
    // The project model decides (model/HotBasis.h): the reason is appended when it is resolved.
    const HotContext &H = Hot ? *Hot : *CallbackConditional;
    model::HotBasis B;
    B.FunctionUSR = model::usrOf(H.Function);
    if (H.Conditional) {
      B.K = model::HotBasis::Conditional;
    } else if (H.LoopLoc.isValid() && Ctx) {
      B.K = model::HotBasis::Loop;
      model::Position P = model::positionOf(Ctx->getSourceManager(), H.LoopLoc);
      B.File = P.File;
      B.Line = P.Line;
      B.Column = P.Column;
    } else {
      B.K = model::HotBasis::Function;
    }
    B.Why = H.Why;
    Text += model::encodeBasis(B);
  } else if (Hot) {
    Text += " (" + Hot->Why + ")";
  }
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
