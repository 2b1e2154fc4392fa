#include "checkbase/TorchCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "core/PerTU.h"
#include "core/Recovery.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
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
}

void TorchCheck::run(const clang::ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  check(Result);
}

namespace {

/// The CUDA device code of a .cu file's user code (__global__ functions and __device__ functions
/// that are not also __host__): the host-only parse types it, but it never runs on the host, so
/// torchlint does not judge it (cli/CudaHost.h). Empty outside CUDA.
struct DeviceCode {
  std::vector<clang::SourceRange> Ranges;
  explicit DeviceCode(clang::ASTContext &Ctx) {
    if (Ctx.getLangOpts().CUDA)
      collect(Ctx.getSourceManager(), Ctx.getTranslationUnitDecl());
  }
  void collect(const clang::SourceManager &SM, const clang::DeclContext *DC) {
    for (const clang::Decl *D : DC->noload_decls()) {
      if (D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation()))
        continue;
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
        D = T->getTemplatedDecl();
      if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D)) {
        if (F->hasAttr<clang::CUDAGlobalAttr>() ||
            (F->hasAttr<clang::CUDADeviceAttr>() && !F->hasAttr<clang::CUDAHostAttr>()))
          Ranges.push_back(F->getSourceRange());
      } else if (llvm::isa<clang::NamespaceDecl, clang::CXXRecordDecl, clang::LinkageSpecDecl>(D)) {
        collect(SM, llvm::cast<clang::DeclContext>(D));
      }
    }
  }
  bool contains(const clang::SourceManager &SM, clang::SourceLocation Loc) const {
    Loc = SM.getExpansionLoc(Loc);
    for (clang::SourceRange R : Ranges) {
      clang::SourceLocation B = SM.getExpansionLoc(R.getBegin()), E = SM.getExpansionLoc(R.getEnd());
      if (!SM.isBeforeInTranslationUnit(Loc, B) && !SM.isBeforeInTranslationUnit(E, Loc))
        return true;
    }
    return false;
  }
};

} // namespace

bool TorchCheck::dropped(clang::SourceLocation Loc) const {
  if (PP && isLibraryLocation(PP->getSourceManager(), Loc))
    return true;
  if (!Ctx)
    return false;
  if (Ctx->getLangOpts().CUDA && perTU<DeviceCode>(*Ctx).contains(Ctx->getSourceManager(), Loc))
    return true;
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
