// The base class of every torchlint check: a clang-tidy check with access to the shared analyses
// (hot code, libtorch version) and the catalog entry of the check.
#pragma once
#include "analysis/HotCode.h"
#include "analysis/TorchTypes.h"
#include "analysis/TorchVersion.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "core/Catalog.h"
#include "model/HotBasis.h"

namespace torchlint {

class TorchCheck : public clang::tidy::ClangTidyCheck {
public:
  TorchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override { return LangOpts.CPlusPlus; }
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;

  /// What a finding of the check rests on, beyond the expression it is reported at (Recovery.h):
  /// Expression (the default): the finding is dropped when that expression has errors (a type
  /// unknown because a header is missing). Function / TranslationUnit: the finding says something
  /// is absent (a guard, an option, a setting), which cannot be trusted when the enclosing
  /// function / the TU's user code has code with errors; it is dropped then.
  enum class Evidence { Expression, Function, TranslationUnit };
  virtual Evidence evidence() const { return Evidence::Expression; }

protected:
  /// The libtorch version of the TU being analysed (from the headers it includes).
  TorchVersion torchVersion() const;
  /// Why S runs on every step, or nullopt for code that runs once.
  std::optional<HotContext> hotContext(const clang::Stmt *S, clang::ASTContext &Ctx) const;
  /// True when what runs per step is decided by the whole project (the CLI with -p, or a project
  /// index in the plugin and the server): a check may then report what only the project can
  /// confirm (HotContext::IfProjectUsesCUDA, HostIfFields).
  bool projectMode() const;
  /// A sync-like finding whose tensors are host memory if the fields, parameters and functions
  /// in If are (analysis/DeviceProvenance.h deviceIfHost): true when this file alone confirms it
  /// (per-file mode, fields of a class the file defines: model/LocalModel.h hostInThisFile), and
  /// the finding is dropped; else If goes with Hot (HotContext::HostIf) for the project model.
  bool hostConfirmedHere(HostAssumptions If, HotContext &Hot, clang::ASTContext &Ctx) const;
  /// True for code in the user's files (not system headers, not libtorch's headers however they are
  /// included, not macro bodies from them).
  bool inUserCode(clang::SourceLocation Loc, const clang::SourceManager &SM) const;
  /// Emits a finding. A hot-code reason, when given, is appended: "<message> (<why hot>)".
  /// The one place findings are emitted: a finding in library code (a libtorch header, even one
  /// included with -I) or resting on code with errors (see evidence()) is dropped here, with the
  /// notes that follow it.
  clang::DiagnosticBuilder report(clang::SourceLocation Loc, llvm::StringRef Message,
                                  const std::optional<HotContext> &Hot = std::nullopt,
                                  clang::DiagnosticIDs::Level Level = clang::DiagnosticIDs::Warning);

  /// A finding that, in project mode, the project model decides on facts of other files rather
  /// than on code being hot: B (HotBasis::Project, with ProgramNeeds or IfNoGradients) travels
  /// with it, as report() attaches a hotness basis. Outside project mode it is reported as
  /// report(Loc, Message) would.
  clang::DiagnosticBuilder reportForProject(clang::SourceLocation Loc, llvm::StringRef Message,
                                            const model::HotBasis &B,
                                            clang::DiagnosticIDs::Level Level = clang::DiagnosticIDs::Warning);

  /// The scope of distrust of "no guard around S in any caller" (issue 24): true when the function
  /// around S holds code with compiler errors, when code with errors could cover a call of it or
  /// of a function that leads to it (an error before the call in a block around it, where a guard
  /// could be declared: errorsCouldCover), or when an expression with errors names one of them (it
  /// may call it inside a guard, unseen). Errors in unrelated functions (a header's code resting
  /// on a missing library), and in a caller's other branches and loops, do not matter.
  bool callChainRestsOnErrors(const clang::Stmt *S, clang::ASTContext &Ctx) const;

  /// True when check Name runs in this invocation too (to leave a finding to it).
  bool isCheckEnabled(llvm::StringRef Name) const;

  clang::Preprocessor *PP = nullptr;

private:
  /// Sets the TU's context for report() before the check sees a match.
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  bool dropped(clang::SourceLocation Loc) const;
  /// The tail of report(): Text (with its basis, if any) decided by the project index when there
  /// is one, escaped, emitted.
  clang::DiagnosticBuilder emit(clang::SourceLocation Loc, std::string Text, clang::DiagnosticIDs::Level Level);
  clang::ASTContext *Ctx = nullptr;
  const CheckInfo *Info;
  clang::tidy::ClangTidyContext *TidyContext;
};

/// Whether checks look for a project index (model/ProjectIndex.h) when not in project mode: yes
/// in the plugin and the language server (the default), no in the CLI, which builds its own model.
void setProjectIndexLookup(bool On);

} // namespace torchlint
