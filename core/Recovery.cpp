#include "core/Recovery.h"
#include "core/Catalog.h"
#include "core/Findings.h"
#include "core/PerTU.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>

using namespace clang;

namespace torchlint {

static const char *const LibtorchRoots[] = {"torch/", "ATen/", "c10/", "caffe2/"};

bool isLibtorchHeaderName(llvm::StringRef Spelled) {
  for (const char *R : LibtorchRoots)
    if (Spelled.starts_with(R))
      return true;
  return false;
}

bool isLibtorchCoreHeaderName(llvm::StringRef Spelled) {
  if (!isLibtorchHeaderName(Spelled))
    return false;
  llvm::SmallVector<llvm::StringRef> Parts;
  Spelled.split(Parts, '/');
  for (llvm::StringRef P : llvm::ArrayRef(Parts).drop_back()) // directories only
    if (P == "cuda" || P == "hip" || P == "mps" || P == "xpu" || P == "cudnn" || P == "miopen" || P == "mkldnn" ||
        P == "vulkan" || P == "metal" || P == "mtia" || P == "c10d" || P == "distributed")
      return false;
  return true;
}

bool isLibtorchFile(llvm::StringRef Path) {
  static std::mutex M;
  static std::map<std::string, bool> RootCache; // directory -> holds c10/macros/Macros.h
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  llvm::StringRef P = Abs;
  // Every "/torch/", "/ATen/", ... in the path is a candidate <root>/<name>/.
  for (const char *R : LibtorchRoots) {
    std::string Needle = std::string("/") + R;
    for (size_t At = P.find(Needle); At != llvm::StringRef::npos; At = P.find(Needle, At + 1)) {
      std::string Root = P.substr(0, At).str();
      std::lock_guard<std::mutex> L(M);
      auto [It, New] = RootCache.try_emplace(Root, false);
      if (New)
        It->second = llvm::sys::fs::exists(Root + "/c10/macros/Macros.h");
      if (It->second)
        return true;
    }
  }
  return false;
}

bool isLibraryLocation(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  SourceLocation E = SM.getExpansionLoc(Loc);
  if (SM.isInSystemHeader(E))
    return true;
  FileID F = SM.getFileID(E);
  if (F == SM.getMainFileID())
    return false;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(F);
  return FE && isLibtorchFile(FE->getName());
}

namespace {

/// The preprocessor whose recovery is set up (the callback, which the preprocessor owns, clears it
/// when it dies: a later TU's preprocessor at the same address gets its own).
thread_local const Preprocessor *InstalledIn = nullptr;

/// Decides, for each missing header, whether the parse may go on (see setUpIncludeRecovery), and
/// says which includes were served by a stand-in header.
class IncludeRecovery : public PPCallbacks {
public:
  IncludeRecovery(DiagnosticsEngine &D, const SourceManager &SM, bool Strict, std::string StandIns)
      : Diags(D), SM(SM), Strict(Strict), StandIns(std::move(StandIns)) {}
  ~IncludeRecovery() override { InstalledIn = nullptr; }
  bool FileNotFound(llvm::StringRef FileName) override {
    // Called before the "file not found" diagnostic: set its severity for this include.
    bool Fatal = Strict || isLibtorchCoreHeaderName(FileName);
    Diags.setSeverity(diag::err_pp_file_not_found, Fatal ? diag::Severity::Fatal : diag::Severity::Error,
                      SourceLocation());
    if (!Fatal)
      Diags.setErrorLimit(0); // what follows from the missing header must not stop the parse
    return false;             // the diagnostic is still reported
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, llvm::StringRef FileName, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, llvm::StringRef, llvm::StringRef,
                          const Module *, bool, SrcMgr::CharacteristicKind) override {
    // An include of the user's that only the stand-in folder (searched last) could serve: the
    // real header is missing. Said as the missing header it is (missingHeaderOf reads it), so the
    // file is reported as analysed partially; the stand-in's own includes are not the user's.
    if (!File || StandIns.empty() || !inStandIns(File->getName()))
      return;
    OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(HashLoc)));
    if (Includer && inStandIns(Includer->getName()))
      return;
    Diags.setErrorLimit(0);
    // A built-in diagnostic with a free text (#error's): clang-tidy names a custom diagnostic ID
    // after the check that registered the same number in an earlier TU of the same run.
    Diags.Report(FilenameRange.getBegin(), diag::err_pp_hash_error)
        << ("'" + FileName + "' file not found; " + StandInUsedText).str();
  }

private:
  bool inStandIns(llvm::StringRef Path) const {
    return Path.starts_with(StandIns) && Path.size() > StandIns.size() &&
           llvm::sys::path::is_separator(Path[StandIns.size()]);
  }
  DiagnosticsEngine &Diags;
  const SourceManager &SM;
  bool Strict;
  std::string StandIns;
};

} // namespace

const char *const StandInUsedText = "analysed with torchlint's stand-in declarations for it";

std::string standInDirectory() {
  static const std::string Dir = [] {
    if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("TORCHLINT_STAND_INS"))
      return *Env;
    // An installed torchlint (binary or plugin): <prefix>/{bin,lib}/<file> next to
    // <prefix>/share/torchlint/stand-ins.
    Dl_info D;
    if (dladdr(reinterpret_cast<void *>(&standInDirectory), &D) && D.dli_fname) {
      std::string Self = D.dli_fname;
      if (!llvm::sys::path::is_absolute(Self))
        Self = llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&standInDirectory));
      llvm::SmallString<256> P(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Self)));
      llvm::sys::path::append(P, "share", "torchlint", "stand-ins");
      if (llvm::sys::fs::is_directory(P))
        return std::string(P);
    }
    return torchlintHome() + "/stand-ins";
  }();
  return Dir;
}

void setUpIncludeRecovery(Preprocessor &PP, bool Strict) {
  // One callback per preprocessor: the first torchlint check to ask installs it.
  if (InstalledIn == &PP)
    return;
  InstalledIn = &PP;
  std::string StandIns;
  if (!Strict) {
    // Searched after every other folder: a stand-in serves only an include nothing else can.
    llvm::SmallString<256> Dir(standInDirectory());
    llvm::sys::path::remove_dots(Dir, true);
    if (auto DE = PP.getFileManager().getOptionalDirectoryRef(Dir)) {
      PP.getHeaderSearchInfo().AddSystemSearchPath(DirectoryLookup(*DE, SrcMgr::C_System, /*isFramework=*/false));
      StandIns = std::string(DE->getName());
    }
  }
  PP.addPPCallbacks(
      std::make_unique<IncludeRecovery>(PP.getDiagnostics(), PP.getSourceManager(), Strict, std::move(StandIns)));
}

namespace {

struct Span {
  FileID File;
  unsigned Begin = 0, End = 0;
  bool contains(std::pair<FileID, unsigned> L) const { return L.first == File && Begin <= L.second && L.second <= End; }
  bool contains(const Span &O) const { return O.File == File && Begin <= O.Begin && O.End <= End; }
};

/// The code with errors in the TU's user code: expressions that contain errors (with their typed
/// parts), invalid declarations; and the user's functions (for scopeHasErrors).
class ErrorRanges {
public:
  explicit ErrorRanges(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {
    if (!Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Finder F(*this);
    for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
      if (!isLibraryLocation(SM, D->getLocation()))
        F.TraverseDecl(D);
  }
  /// The innermost of the error spans and the typed spans (the parts of an expression with errors
  /// that have none themselves) around Loc is an error span.
  bool inError(SourceLocation Loc) const {
    if (Errors.empty())
      return false;
    auto L = SM.getDecomposedExpansionLoc(Loc);
    const Span *Inner = nullptr;
    bool InnerIsError = false;
    for (const std::vector<Span> *List : {&Errors, &Typed})
      for (const Span &S : *List)
        if (S.contains(L) && (!Inner || S.End - S.Begin < Inner->End - Inner->Begin)) {
          Inner = &S;
          InnerIsError = List == &Errors;
        }
    return InnerIsError;
  }
  bool scopeHasErrors(SourceLocation Loc, bool WholeTU) const {
    if (Errors.empty())
      return false;
    if (WholeTU)
      return true;
    auto L = SM.getDecomposedExpansionLoc(Loc);
    const Span *Inner = nullptr;
    for (const Span &F : Functions)
      if (F.contains(L) && (!Inner || Inner->contains(F)))
        Inner = &F;
    if (!Inner)
      return true; // not in a function: judge it as the whole TU
    for (const Span &E : Errors)
      if (Inner->contains(E) || E.contains(*Inner))
        return true;
    return false;
  }

private:
  std::optional<Span> span(SourceRange R) const {
    if (R.isInvalid())
      return std::nullopt;
    auto B = SM.getDecomposedExpansionLoc(R.getBegin());
    auto E = SM.getDecomposedExpansionLoc(SM.getExpansionRange(R.getEnd()).getEnd());
    if (B.first != E.first || B.first.isInvalid())
      return std::nullopt;
    return Span{B.first, B.second, E.second};
  }

  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(ErrorRanges &Out) : Out(Out) {}
    bool shouldVisitLambdaBody() const { return true; }
    // (No data recursion: every sub-statement comes through here.)
    bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
      if (const auto *E = dyn_cast_or_null<Expr>(S); E && E->containsErrors()) {
        // `log->info("{}", loss.item<float>())` with `log` of an unknown type: the call has
        // errors, its argument `loss.item<float>()` has none and can still be judged.
        // Not the callee: `torch::cuda::synchronize(args.device())` is a call with errors even
        // though its callee is typed.
        add(Out.Errors, E->getSourceRange());
        std::vector<const Stmt *> Children(S->child_begin(), S->child_end());
        if (const auto *Call = dyn_cast<CallExpr>(E))
          Children.assign(Call->arg_begin(), Call->arg_end());
        else if (const auto *R = dyn_cast<RecoveryExpr>(E); R && !R->subExpressions().empty())
          Children.assign(R->subExpressions().begin() + 1, R->subExpressions().end());
        for (const Stmt *Child : Children)
          if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && !CE->containsErrors())
            add(Out.Typed, CE->getSourceRange());
      }
      return RecursiveASTVisitor::TraverseStmt(S, nullptr);
    }
    bool VisitDecl(Decl *D) {
      // An invalid class (a member or base of an unknown type) still has typed members: each
      // member is judged on its own (an invalid field, a use of it, are errors themselves). An
      // invalid function (a parameter of an unknown type) is an error in its signature; its body
      // is judged expression by expression (a use of the parameter has errors).
      if (D->isInvalidDecl() && !isa<TranslationUnitDecl, NamespaceDecl, CXXRecordDecl, ClassTemplateDecl>(D)) {
        const auto *FD = dyn_cast<FunctionDecl>(D);
        if (FD && FD->doesThisDeclarationHaveABody() && FD->getBody())
          add(Out.Errors, SourceRange(FD->getBeginLoc(), FD->getBody()->getBeginLoc()));
        else
          add(Out.Errors, D->getSourceRange());
      }
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody())
        add(Out.Functions, FD->getSourceRange());
      return true;
    }

  private:
    void add(std::vector<Span> &To, SourceRange R) {
      if (auto S = Out.span(R))
        To.push_back(*S);
    }
    ErrorRanges &Out;
  };

  const SourceManager &SM;
  std::vector<Span> Errors, Typed, Functions;
};

} // namespace

bool restsOnErrors(ASTContext &Ctx, SourceLocation Loc) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).inError(Loc);
}

bool scopeHasErrors(ASTContext &Ctx, SourceLocation Loc, bool WholeTU) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).scopeHasErrors(Loc, WholeTU);
}

std::optional<std::string> missingHeaderOf(llvm::StringRef Msg) {
  // clang: "'x.h' file not found" (and "'x.h' file not found with <angled> include; use "quotes" instead")
  if (!Msg.consume_front("'"))
    return std::nullopt;
  size_t Q = Msg.find("' file not found");
  if (Q == llvm::StringRef::npos || Q == 0)
    return std::nullopt;
  return Msg.substr(0, Q).str();
}

std::string libtorchNotFoundMessage(llvm::StringRef Header) {
  return ("libtorch's header '" + Header +
          "' not found: torchlint needs libtorch's headers. Pass the project's flags (-p <build dir> with "
          "compile_commands.json, or after --: -isystem <libtorch>/include -isystem "
          "<libtorch>/include/torch/csrc/api/include), or, without flags, set LIBTORCH=<unpacked libtorch>, "
          "Torch_DIR=<its share/cmake/Torch> or CMAKE_PREFIX_PATH; no finding from this file")
      .str();
}

void foldPartialAnalysis(RunResult &R, llvm::StringRef MainFile, bool Strict) {
  struct PerFile {
    std::vector<std::string> Missing; // "'x.h' (file:line)"
    std::string Libtorch;             // a missing libtorch core header
    unsigned Others = 0;
    unsigned StandIns = 0; // of Missing, those served by a stand-in header
  };
  auto Missing = [](const Finding &F, bool Libtorch) {
    std::optional<std::string> H = F.isCompilerError() ? missingHeaderOf(F.Message) : std::nullopt;
    return H && (!Libtorch || isLibtorchCoreHeaderName(*H));
  };
  if (std::none_of(R.Findings.begin(), R.Findings.end(), [&](const Finding &F) { return Missing(F, Strict); }))
    return; // nothing missing (with Strict: a missing header stays the fatal error it is)
  std::vector<Finding> Kept;
  PerFile P;
  // R holds one TU's results: every compiler error is this TU's.
  std::set<std::string> Seen;
  for (Finding &F : R.Findings) {
    if (!F.isCompilerError()) {
      Kept.push_back(std::move(F));
      continue;
    }
    if (auto H = missingHeaderOf(F.Message)) {
      if (isLibtorchCoreHeaderName(*H)) {
        if (P.Libtorch.empty())
          P.Libtorch = *H;
        continue;
      }
      std::string Where = llvm::sys::path::filename(F.File).str() + ":" + std::to_string(F.Line);
      bool StandIn = llvm::StringRef(F.Message).contains(StandInUsedText);
      if (StandIn)
        Where += ", a stand-in was used";
      if (Seen.insert(*H).second) { // named once, where it was first included
        P.Missing.push_back("'" + *H + "' (" + Where + ")");
        P.StandIns += StandIn;
      }
      continue;
    }
    ++P.Others;
    Kept.push_back(std::move(F));
  }
  std::string Main = MainFile.str();
  // Every compiler error of a TU with a missing header is (counted as) a consequence of it.
  std::vector<Finding> Findings;
  for (Finding &F : Kept)
    if (!F.isCompilerError())
      Findings.push_back(std::move(F));
  if (!P.Libtorch.empty()) {
    R.Findings.clear();
    R.Errors.push_back("'" + Main + "': " + libtorchNotFoundMessage(P.Libtorch));
    return;
  }
  R.Findings = std::move(Findings);
  std::string Msg = "'" + Main + "': analysed partially: header" + (P.Missing.size() == 1 ? "" : "s") + " not found: ";
  for (size_t I = 0; I < P.Missing.size(); ++I)
    Msg += (I ? ", " : "") + P.Missing[I];
  if (P.StandIns == P.Missing.size())
    Msg += "; code is typed through torchlint's stand-in declarations";
  else {
    Msg += "; code that depends on ";
    Msg += P.Missing.size() == 1 ? "it" : "them";
    Msg += " is not judged";
  }
  if (P.Others)
    Msg += " (" + std::to_string(P.Others) + " compiler error" + (P.Others == 1 ? "" : "s") + " follow" +
           (P.Others == 1 ? "s" : "") + " from " + (P.Missing.size() == 1 ? "it" : "them") + ")";
  Msg += "; --strict-includes makes a missing header an error";
  R.Errors.push_back(std::move(Msg));
}

} // namespace torchlint
