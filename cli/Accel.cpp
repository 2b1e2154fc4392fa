#include "cli/Accel.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "cli/PchCache.h"
#include "core/Recovery.h"
#include "core/TraversalScope.h"
#include "utils/Paths.h"
#include "model/TUSummary.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tooling;
using namespace llvm;

namespace torchlint {

namespace {

/// Runs first in the multiplexer: before clang-tidy's consumer walks the AST, limits the walk to the
/// translation unit's own top-level declarations outside system headers, in order. These are
/// exactly the declarations a whole-TU walk visits outside system headers (the shared analyses and
/// every check skip the rest). noload_decls() lists what the TU parsed without deserializing the
/// PCH's declarations (all of which are in system headers).
class ScopeSetter : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override { limitTraversalToUserCode(Ctx); }
};

/// Runs last: the TU's summary for the project model (model/TUSummary.h), over the same AST and
/// traversal scope as the checks.
class SummaryBuilder : public ASTConsumer {
public:
  explicit SummaryBuilder(TUAnalysis &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::string S;
    raw_string_ostream OS(S);
    OS << model::toJson(model::buildTUSummary(Ctx));
    OS.flush();
    Out.Summary = std::move(S);
  }

private:
  TUAnalysis &Out;
};

/// A file of torchlint's synthesised declarations (core/Synthesis.h): a temporary folder, gone after
/// the TU, so never a dependency of a cached result (they follow from the files that are).
bool isSynthesizedFile(StringRef Path) { return Path.contains("/torchlint-synth"); }

/// Where each include that no folder served (or only a stand-in or synthesised declarations did)
/// would be found once the header is installed: the includer's folder (quoted) and every folder of
/// the search before torchlint's own. A cached result of the TU is valid only while none of them
/// exists (ResultCache::store's Absent), so a partial analysis can be cached too.
class AbsenceWatcher : public PPCallbacks {
public:
  AbsenceWatcher(Preprocessor &PP, std::vector<std::string> &Out) : PP(PP), Out(Out) {
    SmallString<256> D(standInDirectory());
    sys::path::remove_dots(D, true);
    StandIns = std::string(D);
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File && !ours(File->getName()))
      return;
    SourceManager &SM = PP.getSourceManager();
    OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(HashLoc)));
    if (Includer && ours(Includer->getName()))
      return; // a stand-in's own includes
    if (sys::path::is_absolute(FileName)) {
      Out.push_back(FileName.str());
      return;
    }
    auto Add = [&](StringRef Dir) {
      SmallString<256> P(Dir);
      sys::fs::make_absolute(P);
      sys::path::append(P, FileName);
      sys::path::remove_dots(P, true);
      Out.push_back(std::string(P));
    };
    if (!IsAngled && Includer)
      Add(sys::path::parent_path(Includer->getName()));
    const HeaderSearch &HS = PP.getHeaderSearchInfo();
    for (auto It = IsAngled ? HS.angled_dir_begin() : HS.search_dir_begin(); It != HS.search_dir_end(); ++It)
      if (It->isNormalDir() && !ours(It->getName()) && It->getName() != StandIns)
        Add(It->getName());
  }

private:
  bool ours(StringRef Path) const { return isSynthesizedFile(Path) || isWithin(Path, StandIns); }
  Preprocessor &PP;
  std::vector<std::string> &Out;
  std::string StandIns;
};

class Action : public ASTFrontendAction {
public:
  Action(tidy::ClangTidyASTConsumerFactory *Factory, bool Scope, bool Summary, TUAnalysis &Out)
      : Factory(Factory), Scope(Scope), Summary(Summary), Out(Out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    std::unique_ptr<ASTConsumer> Tidy = Factory->createASTConsumer(CI, File);
    if (!Scope && !Summary)
      return Tidy;
    std::vector<std::unique_ptr<ASTConsumer>> Cs;
    if (Scope)
      Cs.push_back(std::make_unique<ScopeSetter>());
    Cs.push_back(std::move(Tidy));
    if (Summary)
      Cs.push_back(std::make_unique<SummaryBuilder>(Out));
    return std::make_unique<MultiplexConsumer>(std::move(Cs));
  }
  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    SourceManager &SM = CI.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (!isSynthesizedFile(It->first.getName()))
        Out.Deps.push_back(cachePath(It->first.getName(), CI.getFileManager()));
  }
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<AbsenceWatcher>(CI.getPreprocessor(), Out.Absent));
    return ASTFrontendAction::BeginSourceFileAction(CI);
  }

private:
  tidy::ClangTidyASTConsumerFactory *Factory;
  bool Scope, Summary;
  TUAnalysis &Out;
};

class Factory : public FrontendActionFactory {
public:
  Factory(tidy::ClangTidyContext &Context, IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS, const AccelOptions &Opts,
          TUAnalysis &Out)
      : ConsumerFactory(Context, std::move(BaseFS)), Opts(Opts), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(&ConsumerFactory, Opts.Scope, Opts.Summary, Out);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: define __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (!Opts.PchCacheDir.empty()) {
      PchUse P = preparePch(*Invocation, *Files, PCHContainerOps, Opts.PchCacheDir);
      if (!P.Path.empty()) {
        Invocation->getPreprocessorOpts().ImplicitPCHInclude = P.Path;
        // preparePch has just checked every file the PCH was built from (size and modification
        // time, what clang checks) and keyed it on the flags that change their meaning: clang need
        // not stat the ~5000 libtorch headers again.
        Invocation->getPreprocessorOpts().DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
        Out.UsedPch = true;
        Out.BuiltPch |= P.Built;
        Out.Deps.insert(Out.Deps.end(), P.Deps.begin(), P.Deps.end());
      } else {
        Out.NoPchWhy = P.Why;
      }
    }
    return FrontendActionFactory::runInvocation(Invocation, Files, PCHContainerOps, DiagConsumer);
  }

private:
  tidy::ClangTidyASTConsumerFactory ConsumerFactory;
  const AccelOptions &Opts;
  TUAnalysis &Out;
};

} // namespace

TUAnalysis analyzeTU(tidy::ClangTidyContext &Context, const CompilationDatabase &DB, const std::string &File,
                     IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS, bool ApplyAnyFix, const AccelOptions &Opts) {
  // What clang::tidy::runClangTidy does, with our own action factory.
  TUAnalysis Out;
  ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(), BaseFS);
  Tool.appendArgumentsAdjuster([&Context](const CommandLineArguments &Args, StringRef Filename) {
    tidy::ClangTidyOptions O = Context.getOptionsForFile(Filename);
    CommandLineArguments A = Args;
    if (O.ExtraArgsBefore) {
      auto I = A.begin();
      if (I != A.end() && !StringRef(*I).starts_with("-"))
        ++I;
      A.insert(I, O.ExtraArgsBefore->begin(), O.ExtraArgsBefore->end());
    }
    if (O.ExtraArgs)
      A.insert(A.end(), O.ExtraArgs->begin(), O.ExtraArgs->end());
    return A;
  });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
  // A compiler named without a folder runs from PATH, as in the build: the driver finds the
  // standard library from where it is (PchCache.h, resolveCompiler).
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments A = Args;
    if (!A.empty())
      A[0] = resolveCompiler(A[0]);
    return A;
  });
  tidy::ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, ApplyAnyFix);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);
  // No "Error while processing FILE." on stderr: the driver reports a TU's errors itself (one input
  // problem per file, Recovery.h).
  Tool.setPrintErrorMessage(false);
  Factory F(Context, BaseFS, Opts, Out);
  Tool.run(&F);
  Out.Errors = DiagConsumer.take();
  // Unique, existing deps.
  StringSet<> Seen;
  std::vector<std::string> Deps;
  for (std::string &D : Out.Deps)
    if (Seen.insert(D).second)
      Deps.push_back(std::move(D));
  Out.Deps = std::move(Deps);
  return Out;
}

} // namespace torchlint
