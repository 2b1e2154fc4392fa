#include "core/Recovery.h"
#include "core/Catalog.h"
#include "core/Findings.h"
#include "core/PerTU.h"
#include "core/Synthesis.h"
#include "utils/FileHashes.h"
#include "utils/Paths.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>
#include <atomic>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <cstring>
#include <functional>
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

/// The places of the compiler errors of each TU being parsed (by its source manager): a statement
/// that clang drops entirely (it names an unknown namespace) leaves no node in the AST, only its
/// error; ErrorRanges counts these places as code with errors too.
thread_local std::map<const SourceManager *, std::vector<SourceLocation>> ErrorPlaces;
/// The TUs (by source manager) with a missing header that is not libtorch's core.
thread_local std::set<const SourceManager *> MissedHeaders;

/// The synthesised declarations' folders of finished TUs, removed when the process ends. A host
/// that keeps one FileManager for every TU of its run (clang-tidy given several files) knows each
/// file it has seen by its inode: a folder removed after its TU frees inodes that the next TU's
/// new folder gets at once (ext4), and the FileManager then takes the new header for the old one,
/// with the old one's size, and reads it truncated (the next TU's synthesised declarations were
/// cut short: an intermittent corpus failure of the plugin only). torchlint's own front ends give
/// each TU its own FileManager and remove the folder with its TU
/// (setSynthesisFoldersRemovedWithTheirTU).
struct FinishedSynthesisFolders {
  std::mutex M;
  std::vector<std::string> Dirs;
  ~FinishedSynthesisFolders() {
    for (const std::string &D : Dirs)
      llvm::sys::fs::remove_directories(D);
  }
};
FinishedSynthesisFolders &finishedSynthesisFolders() {
  static FinishedSynthesisFolders F;
  return F;
}
std::atomic<bool> RemoveSynthesisWithTU{false};

void synthesisFolderDone(const std::string &Dir) {
  if (RemoveSynthesisWithTU) {
    llvm::sys::fs::remove_directories(Dir);
    return;
  }
  FinishedSynthesisFolders &F = finishedSynthesisFolders();
  std::lock_guard<std::mutex> L(F.M);
  F.Dirs.push_back(Dir);
}

/// Forwards every diagnostic to the client it replaces, and records the places of errors.
class ErrorRecorder : public DiagnosticConsumer {
public:
  ErrorRecorder(DiagnosticConsumer *Next, std::unique_ptr<DiagnosticConsumer> Owned, const SourceManager &SM)
      : Next(Next), Owned(std::move(Owned)), SM(SM) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override { Next->BeginSourceFile(LO, PP); }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  bool IncludeInDiagnosticCounts() const override { return Next->IncludeInDiagnosticCounts(); }
  void clear() override {
    Next->clear();
    DiagnosticConsumer::clear();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error && Info.getLocation().isValid() && Info.getID() != diag::err_pp_file_not_found &&
        Info.getID() != diag::err_pp_hash_error)
      ErrorPlaces[&SM].push_back(Info.getLocation());
    Next->HandleDiagnostic(L, Info);
  }

private:
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned;
  const SourceManager &SM;
};

/// Decides, for each missing header, whether the parse may go on (see setUpIncludeRecovery), and
/// says which includes were served by a stand-in header or by synthesised declarations.
class IncludeRecovery : public PPCallbacks {
public:
  IncludeRecovery(Preprocessor &PP, bool Strict, std::string StandIns, std::string Synth, std::string SynthNames,
                  bool Nested)
      : PP(PP), Diags(PP.getDiagnostics()), SM(PP.getSourceManager()), Strict(Strict), StandIns(std::move(StandIns)),
        Synth(std::move(Synth)), SynthNames(std::move(SynthNames)), Nested(Nested) {}
  ~IncludeRecovery() override {
    if (!Nested) {
      ErrorPlaces.erase(&SM);
      MissedHeaders.erase(&SM);
    }
    if (!Nested && InstalledIn == &PP)
      InstalledIn = nullptr;
    if (!Nested && !Synth.empty())
      synthesisFolderDone(Synth);
  }
  bool FileNotFound(llvm::StringRef FileName) override {
    // Called before the "file not found" diagnostic: set its severity for this include.
    // A libtorch header missing from a libtorch whose other headers are here (`torch/linalg.h`,
    // which the 2.x wheels no longer ship) is a header of another version: skipped as any missing
    // header is (said by InclusionDirective), not "libtorch not found".
    bool OtherVersion = !Strict && isLibtorchCoreHeaderName(FileName) && libtorchPresent();
    if (OtherVersion) {
      Diags.setSeverity(diag::err_pp_file_not_found, diag::Severity::Ignored, SourceLocation());
      Diags.setErrorLimit(0);
      return false;
    }
    bool Fatal = Strict || isLibtorchCoreHeaderName(FileName);
    if (!Nested && !Fatal)
      MissedHeaders.insert(&SM);
    Diags.setSeverity(diag::err_pp_file_not_found, Fatal ? diag::Severity::Fatal : diag::Severity::Error,
                      SourceLocation());
    if (!Fatal)
      Diags.setErrorLimit(0); // what follows from the missing header must not stop the parse
    return false;             // the diagnostic is still reported
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, llvm::StringRef FileName, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, llvm::StringRef, llvm::StringRef,
                          const Module *, bool, SrcMgr::CharacteristicKind) override {
    // An include of the user's that only the stand-in folder or the synthesised declarations
    // (searched last) could serve: the real header is missing. Said as the missing header it is
    // (missingHeaderOf reads it), so the file is reported as analysed partially; the stand-in's
    // own includes are not the user's.
    if (!File) {
      if (!Strict && isLibtorchCoreHeaderName(FileName) && libtorchPresent()) {
        if (!Nested)
          MissedHeaders.insert(&SM);
        Diags.Report(FilenameRange.getBegin(), diag::err_pp_hash_error)
            << ("'" + FileName + "' file not found; " + LibtorchOtherVersionText).str();
      }
      return;
    }
    bool ByStandIn = inStandIns(File->getName()), BySynth = isWithin(File->getName(), Synth);
    if (!ByStandIn && !BySynth)
      return;
    OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(HashLoc)));
    if (Includer && (inStandIns(Includer->getName()) || isWithin(Includer->getName(), Synth)))
      return;
    Diags.setErrorLimit(0);
    if (!Nested)
      MissedHeaders.insert(&SM);
    std::string Msg = ("'" + FileName + "' file not found; ").str();
    if (ByStandIn) {
      Msg += StandInUsedText;
    } else {
      Msg += SynthUsedText;
      if (!NamesSaid) // the names once, at the first include they serve
        Msg += " (" + SynthNames + ")";
      NamesSaid = true;
    }
    // A built-in diagnostic with a free text (#error's): clang-tidy names a custom diagnostic ID
    // after the check that registered the same number in an earlier TU of the same run.
    Diags.Report(FilenameRange.getBegin(), diag::err_pp_hash_error) << Msg;
  }

private:
  bool inStandIns(llvm::StringRef Path) const { return isWithin(Path, StandIns); }
  /// True when a folder of the search holds libtorch's core headers (c10/macros/Macros.h, or
  /// torch/torch.h of the C++ API).
  bool libtorchPresent() {
    if (LibtorchPresent)
      return *LibtorchPresent;
    LibtorchPresent = false;
    FileManager &FM = PP.getFileManager();
    for (const DirectoryLookup &DL : PP.getHeaderSearchInfo().search_dir_range()) {
      if (!DL.isNormalDir())
        continue;
      for (const char *Probe : {"c10/macros/Macros.h", "torch/torch.h"}) {
        llvm::SmallString<256> P(DL.getDirRef()->getName());
        llvm::sys::path::append(P, Probe);
        if (FM.getOptionalFileRef(P))
          return *(LibtorchPresent = true);
      }
    }
    return false;
  }
  std::optional<bool> LibtorchPresent;
  Preprocessor &PP;
  DiagnosticsEngine &Diags;
  const SourceManager &SM;
  bool Strict;
  std::string StandIns, Synth, SynthNames;
  bool Nested, NamesSaid = false;
};

/// Adds the stand-in folder (and the synthesised declarations' folder, Synth) after every other
/// folder of PP's search; returns the stand-in folder as the file manager names it ("" when none).
std::string addRecoveryFolders(Preprocessor &PP, bool Strict, const std::string &Synth) {
  std::string StandIns;
  if (Strict)
    return StandIns;
  // Searched after every other folder: a stand-in serves only an include nothing else can.
  llvm::SmallString<256> Dir(standInDirectory());
  llvm::sys::path::remove_dots(Dir, true);
  if (auto DE = PP.getFileManager().getOptionalDirectoryRef(Dir)) {
    PP.getHeaderSearchInfo().AddSystemSearchPath(DirectoryLookup(*DE, SrcMgr::C_System, /*isFramework=*/false));
    StandIns = std::string(DE->getName());
  }
  if (!Synth.empty())
    if (auto DE = PP.getFileManager().getOptionalDirectoryRef(Synth))
      PP.getHeaderSearchInfo().AddSystemSearchPath(DirectoryLookup(*DE, SrcMgr::C_System, /*isFramework=*/false));
  return StandIns;
}

// ---- Synthesised declarations (Synthesis.h): parses of the same file, before the real one ----

/// The names of the headers the main file and its own headers (quoted includes, found, not
/// libtorch's) include and that no folder serves: a cheap textual scan, so that only files with
/// a missing header pay for the parses that learn the declarations.
std::vector<std::string> missingIncludes(Preprocessor &PP) {
  SourceManager &SM = PP.getSourceManager();
  FileManager &FM = PP.getFileManager();
  HeaderSearch &HS = PP.getHeaderSearchInfo();
  std::vector<std::string> Missing;
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return Missing;
  std::vector<FileEntryRef> Queue{*Main};
  std::set<const FileEntry *> Seen{&Main->getFileEntry()};
  for (size_t Q = 0; Q < Queue.size() && Q < 64; ++Q) {
    FileEntryRef FE = Queue[Q];
    std::unique_ptr<llvm::MemoryBuffer> Own;
    llvm::StringRef Text;
    if (Q == 0) {
      Text = SM.getBufferData(SM.getMainFileID());
    } else {
      auto B = FM.getBufferForFile(FE);
      if (!B)
        continue;
      Own = std::move(*B);
      Text = Own->getBuffer();
    }
    llvm::SmallVector<llvm::StringRef> Lines;
    Text.split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.ltrim(" \t");
      if (!L.consume_front("#"))
        continue;
      L = L.ltrim(" \t");
      if (!L.consume_front("include"))
        continue;
      L = L.ltrim(" \t");
      if (L.empty() || (L[0] != '<' && L[0] != '"'))
        continue;
      bool Angled = L[0] == '<';
      size_t E = L.find(Angled ? '>' : '"', 1);
      if (E == llvm::StringRef::npos)
        continue;
      llvm::StringRef Name = L.slice(1, E);
      if (Name.empty() || isLibtorchHeaderName(Name))
        continue;
      // Resolved as the preprocessor would, without it (it has not entered the file yet): the
      // includer's folder for "...", then every search folder; a header map or framework folder
      // counts as serving it.
      std::optional<FileEntryRef> R;
      bool System = false, Unknown = false;
      if (!Angled) {
        llvm::SmallString<256> P(FE.getDir().getName());
        llvm::sys::path::append(P, Name);
        if (auto F = FM.getOptionalFileRef(P))
          R = *F;
      }
      for (const DirectoryLookup &DL : HS.search_dir_range()) {
        if (R)
          break;
        if (!DL.isNormalDir()) {
          Unknown = true;
          continue;
        }
        llvm::SmallString<256> P(DL.getDirRef()->getName());
        llvm::sys::path::append(P, Name);
        if (auto F = FM.getOptionalFileRef(P)) {
          R = *F;
          System = DL.isSystemHeaderDirectory();
        }
      }
      if (!R) {
        if (!Unknown)
          Missing.push_back(Name.str());
        continue;
      }
      // The project's own headers, however written: `#include <MyLib/Trainer.hpp>` from an -I
      // folder is as much the project's as "trainer.h" (a diffusion trainer's headers include
      // picojson.h and spdlog that way); system folders (and the stand-ins) are not followed.
      if (!System && !isLibtorchFile(R->getName()) && Seen.insert(&R->getFileEntry()).second)
        Queue.push_back(*R);
    }
  }
  return Missing;
}

/// Collects a nested parse's errors with the text around each (Synthesis.h's SynthDiag).
class ErrorCollector : public DiagnosticConsumer {
public:
  explicit ErrorCollector(DeclarationSynthesis &S) : S(S) {}
  std::vector<SynthDiag> Errors;
  std::vector<std::string> Missing; // headers no folder serves
  unsigned Count = 0;               // errors other than missing headers
  bool Failed = false;              // a fatal error that is not a missing header
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    if (std::optional<std::string> H = missingHeaderOf(Msg)) {
      if (!llvm::StringRef(Msg).contains(StandInUsedText) && !llvm::StringRef(Msg).contains(SynthUsedText) &&
          !isLibtorchHeaderName(*H))
        Missing.push_back(*H);
      if (L == DiagnosticsEngine::Fatal)
        Failed = true;
      return;
    }
    if (L == DiagnosticsEngine::Fatal)
      Failed = true;
    ++Count;
    SynthDiag D;
    D.Message = std::string(Msg);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      auto [FID, Off] = SM.getDecomposedLoc(SM.getFileLoc(Info.getLocation()));
      bool Invalid = false;
      llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
      if (!Invalid && Off <= Buf.size()) {
        D.At = Buf.substr(Off, 600).str();
        D.Before = Buf.slice(Off > 300 ? Off - 300 : 0, Off).str();
        if (SeenFiles.insert(FID).second && !SM.isInSystemHeader(SM.getLocForStartOfFile(FID)))
          S.learnAliases(Buf);
      }
    }
    Errors.push_back(std::move(D));
  }

private:
  DeclarationSynthesis &S;
  std::set<FileID> SeenFiles;
};

/// A syntax-only parse with the same recovery (stand-ins, missing headers not fatal), and the
/// synthesised declarations of folder Synth.
class NestedParse : public SyntaxOnlyAction {
public:
  explicit NestedParse(std::string Synth) : Synth(std::move(Synth)) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.getDiagnostics().setErrorLimit(0);
    std::string StandIns = addRecoveryFolders(PP, false, Synth);
    PP.addPPCallbacks(std::make_unique<IncludeRecovery>(PP, false, std::move(StandIns), Synth, "", /*Nested=*/true));
    return SyntaxOnlyAction::BeginSourceFileAction(CI);
  }

private:
  std::string Synth;
};

/// Parses Outer's main file as Outer would (its language, target, search and preprocessor
/// options: the same PCH), with the synthesised declarations of Synth; errors into C.
void nestedParse(Preprocessor &Outer, const std::string &Synth, ErrorCollector &C) {
  SourceManager &SM = Outer.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main) {
    C.Failed = true;
    return;
  }
  auto Inv = std::make_shared<CompilerInvocation>();
  Inv->getLangOpts() = Outer.getLangOpts();
  // No typo correction: these parses only learn the names the file cannot resolve, and clang's
  // search for a near name walks libtorch's every namespace at each unknown one (about 5 s of a
  // 35 s parse of a file with two dozen unknown names); a correction would also hide the name
  // ("did you mean 'thread_local'?" for a missing `thread_pool`).
  Inv->getLangOpts().SpellChecking = false;
  Inv->getTargetOpts() = Outer.getTargetInfo().getTargetOpts();
  Inv->getHeaderSearchOpts() = Outer.getHeaderSearchInfo().getHeaderSearchOpts();
  Inv->getPreprocessorOpts() = Outer.getPreprocessorOpts();
  Inv->getPreprocessorOpts().RetainRemappedFileBuffers = true; // the outer parse owns them
  Inv->getFileSystemOpts() = Outer.getFileManager().getFileSystemOpts();
  Inv->getDiagnosticOpts().ShowCarets = false; // no "N errors generated."
  FrontendOptions &FO = Inv->getFrontendOpts();
  FO.Inputs.clear();
  FO.Inputs.emplace_back(Main->getName(), InputKind(Language::CXX));
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  CompilerInstance CI;
  CI.setInvocation(std::move(Inv));
  CI.createDiagnostics(&C, /*ShouldOwnClient=*/false);
  CI.createFileManager(Outer.getFileManager().getVirtualFileSystemPtr());
  NestedParse Action(Synth);
  // (Its result is false whenever an error was reported, the missing headers' included: the
  // collector says whether the parse itself failed.)
  CI.ExecuteAction(Action);
}

/// Learns declarations for the names Outer's main file cannot resolve (Synthesis.h) and writes
/// them to a new temporary folder: its path, or "" when nothing helps (then nothing is left).
std::string synthesize(Preprocessor &Outer, std::string &Names) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("torchlint-synth", Dir))
    return "";
  std::string D(Dir);
  auto GiveUp = [&] {
    llvm::sys::fs::remove_directories(D);
    return std::string();
  };
  DeclarationSynthesis S;
  S.learnAliases(Outer.getSourceManager().getBufferData(Outer.getSourceManager().getMainFileID()));
  ErrorCollector First(S);
  nestedParse(Outer, "", First);
  std::vector<std::string> Missing;
  for (const std::string &H : First.Missing)
    if (synthesisMayServe(H) && std::find(Missing.begin(), Missing.end(), H) == Missing.end())
      Missing.push_back(H);
  // TORCHLINT_SYNTH_DEBUG=1: each parse's errors and where they are; =header: the header too.
  std::optional<std::string> DebugEnv = llvm::sys::Process::GetEnv("TORCHLINT_SYNTH_DEBUG");
  bool Debug = DebugEnv.has_value(), DebugHeader = DebugEnv == "header";
  auto PrintErrors = [](const std::vector<SynthDiag> &Errors) {
    for (const SynthDiag &E : Errors)
      llvm::errs() << "  " << E.Message << "  @ " << llvm::StringRef(E.At).take_until([](char c) { return c == '\n'; })
                   << "\n";
  };
  if (Debug) {
    llvm::errs() << "synth: first parse: failed " << First.Failed << ", missing " << Missing.size() << ", errors "
                 << First.Count << "\n";
    PrintErrors(First.Errors);
  }
  // A bare name that only waits for the next parse (`thread_pool &pool`, Synthesis.h Pending):
  // when the errors learn nothing else, the next parse would be this one again, so the same
  // errors are learnt once more instead (the pending names are then declared).
  auto Learn = [&S](const std::vector<SynthDiag> &Errors) { return S.learn(Errors) || S.learn(Errors); };
  if (First.Failed || Missing.empty() || First.Count == 0 || !Learn(First.Errors))
    return GiveUp();
  // The parse without them undercounts (clang says nothing about the uses of a declaration of an
  // unknown type): the declarations kept are those of the synthesised parse with the fewest errors.
  unsigned Best = ~0u;
  std::optional<DeclarationSynthesis> BestS;
  for (unsigned Round = 0; Round < SynthesisMaxRounds; ++Round) {
    if (!writeSynthesisDirectory(D, S, Missing))
      return GiveUp();
    ErrorCollector C(S);
    nestedParse(Outer, D, C);
    if (DebugHeader)
      llvm::errs() << S.header() << "\n";
    if (Debug) {
      llvm::errs() << "synth: round " << Round << ": failed " << C.Failed << ", errors " << C.Count << "\n";
      PrintErrors(C.Errors);
    }
    if (C.Failed)
      break;
    if (C.Count < Best) {
      Best = C.Count;
      BestS = S;
    }
    if (C.Count == 0 || !Learn(C.Errors))
      break;
  }
  if (!BestS || !writeSynthesisDirectory(D, *BestS, Missing))
    return GiveUp();
  std::vector<std::string> N = BestS->names();
  for (size_t I = 0; I < N.size() && I < 12; ++I)
    Names += (I ? ", " : "") + N[I];
  if (N.size() > 12)
    Names += ", ... " + std::to_string(N.size()) + " names";
  return D;
}

} // namespace

void setSynthesisFoldersRemovedWithTheirTU(bool On) { RemoveSynthesisWithTU = On; }

const char *const TorchExtensionCxxPart =
    "// torchlint: torch/extension.h read as its C++ part (no include folder holds Python.h)\n"
    "#pragma once\n#include <torch/all.h>\n";

llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
withPythonlessTorchExtension(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                             const std::vector<std::string> &Args, llvm::StringRef Directory,
                             std::shared_ptr<std::atomic<bool>> &Read) {
  Read.reset();
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(std::move(Base));
  std::string Ext = pythonlessTorchExtension(Args, Directory);
  if (Ext.empty())
    return FS;
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Mem->addFile(Ext, 0, llvm::MemoryBuffer::getMemBufferCopy(TorchExtensionCxxPart, Ext));
  Read = std::make_shared<std::atomic<bool>>(false);
  FS->pushOverlay(llvm::makeIntrusiveRefCnt<ReadRecordingFileSystem>(Mem, Ext, Read));
  return FS;
}

std::string pythonlessTorchExtensionNotice(llvm::StringRef File) {
  return ("'" + File + "': torch/extension.h read as its C++ part (torch/all.h): no include folder of its " +
          "compile command holds Python.h, which torch/python.h needs")
      .str();
}

std::string pythonlessTorchExtension(const std::vector<std::string> &Args, llvm::StringRef Directory) {
  std::vector<std::string> Dirs;
  std::string Prefix; // -iprefix: what -iwithprefix and -iwithprefixbefore put before their folder
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    for (llvm::StringRef Flag : {"-iwithprefixbefore", "-iwithprefix", "-iprefix", "--include-directory", "-isystem",
                                 "-iquote", "-idirafter", "-I", "/I"}) {
      if (!A.starts_with(Flag))
        continue;
      llvm::StringRef D = A.drop_front(Flag.size());
      if (D.empty() && I + 1 < Args.size())
        D = Args[++I];
      D.consume_front("=");
      if (Flag == "-iprefix") {
        Prefix = D.str();
        break;
      }
      // clang joins the prefix and the folder as written (`-iprefix /opt/py/ -iwithprefix include`).
      std::string Joined = Flag.starts_with("-iwithprefix") ? Prefix + D.str() : D.str();
      if (Joined.empty())
        break;
      llvm::SmallString<256> P(Joined);
      if (llvm::sys::path::is_relative(P)) {
        llvm::SmallString<256> Abs(Directory);
        llvm::sys::path::append(Abs, P);
        P = Abs;
      }
      Dirs.push_back(std::string(P));
      break;
    }
  }
  // Then the system folders every compiler searches (Debian's libtorch puts torch/extension.h in
  // /usr/include, found there; Python.h never is: it sits in /usr/include/python3.N).
  if (std::find(Args.begin(), Args.end(), "-nostdinc") == Args.end())
    for (const char *D : {"/usr/local/include", "/usr/include"})
      Dirs.push_back(D);
  std::string Extension;
  for (const std::string &D : Dirs) {
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, "Python.h");
    if (llvm::sys::fs::exists(P))
      return "";
    if (Extension.empty()) {
      llvm::SmallString<256> E(D);
      llvm::sys::path::append(E, "torch", "extension.h");
      if (llvm::sys::fs::exists(E)) {
        llvm::sys::path::remove_dots(E, /*remove_dot_dot=*/true);
        Extension = std::string(E);
      }
    }
  }
  return Extension;
}

const char *const StandInUsedText = "analysed with torchlint's stand-in declarations for it";
const char *const LibtorchOtherVersionText =
    "libtorch's other headers are here: a header of another libtorch version, skipped";

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

void setUpIncludeRecovery(Preprocessor &PP, bool Strict) { setUpIncludeRecovery(PP, Strict, !Strict); }

void setUpIncludeRecovery(Preprocessor &PP, bool Strict, bool Synthesize) {
  // One callback per preprocessor: the first torchlint check to ask installs it.
  if (InstalledIn == &PP)
    return;
  InstalledIn = &PP;
  std::string StandIns = addRecoveryFolders(PP, Strict, "");
  std::string Synth, Names;
  // Only a file with a header that no folder serves pays for the parses that learn declarations.
  if (!Strict && Synthesize && !llvm::sys::Process::GetEnv("TORCHLINT_NO_SYNTHESIS") && !missingIncludes(PP).empty()) {
    if (llvm::sys::Process::GetEnv("TORCHLINT_SYNTH_DEBUG"))
      llvm::errs() << "synth: missing includes found\n";
    Synth = synthesize(PP, Names);
    if (!Synth.empty())
      if (auto DE = PP.getFileManager().getOptionalDirectoryRef(Synth))
        PP.getHeaderSearchInfo().AddSystemSearchPath(DirectoryLookup(*DE, SrcMgr::C_System, /*isFramework=*/false));
  }
  PP.addPPCallbacks(
      std::make_unique<IncludeRecovery>(PP, Strict, std::move(StandIns), std::move(Synth), std::move(Names), false));
  // Record where the errors are (ErrorPlaces), forwarding every diagnostic as before.
  DiagnosticsEngine &D = PP.getDiagnostics();
  if (DiagnosticConsumer *Client = D.getClient()) {
    ErrorPlaces[&PP.getSourceManager()].clear();
    MissedHeaders.erase(&PP.getSourceManager());
    std::unique_ptr<DiagnosticConsumer> Owned = D.ownsClient() ? D.takeClient() : nullptr;
    D.setClient(new ErrorRecorder(Client, std::move(Owned), PP.getSourceManager()), /*ShouldOwnClient=*/true);
  }
}

namespace {

bool inSynthNamespace(const Decl *D) {
  const auto *NS = D ? dyn_cast<NamespaceDecl>(D->getDeclContext()) : nullptr;
  return NS && NS->getIdentifier() && NS->getName() == SynthNamespace;
}

/// An expression of a synthesised type (Synthesis.h): `vm["data"]`, `spdlog::info(...)`.
bool isSynthesized(const Expr *E) {
  if (E->isTypeDependent() || E->getType().isNull())
    return false;
  const auto *RD = E->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && inSynthNamespace(RD);
}

bool usesSynthesis(ASTContext &Ctx) {
  return !Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(SynthNamespace))).empty();
}

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
    if (!Ctx.getDiagnostics().hasErrorOccurred() && !usesSynthesis(Ctx))
      return;
    Finder F(*this);
    for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
      if (!isLibraryLocation(SM, D->getLocation()))
        F.TraverseDecl(D);
    // Errors without a node: a statement clang dropped. Its place is code with errors; what it
    // named is unknown (Dropped).
    auto It = ErrorPlaces.find(&SM);
    if (It != ErrorPlaces.end())
      for (SourceLocation L : It->second) {
        if (isLibraryLocation(SM, L))
          continue;
        auto P = SM.getDecomposedExpansionLoc(L);
        Span S{P.first, P.second, P.second};
        bool Covered = false;
        for (const Span &E : RealErrors)
          Covered |= E.contains(S);
        if (Covered)
          continue;
        Errors.push_back(S);
        RealErrors.push_back(S);
        Dropped.push_back(S);
      }
  }
  /// A declaration that code with errors names, or that code typed only through synthesised
  /// declarations is given (it may change it): what it holds is not known.
  bool tainted(const Decl *D) const { return D && Tainted.count(D->getCanonicalDecl()); }
  /// The innermost function around Loc holds a statement that clang dropped (whatever it named is
  /// unknown); not in a function: the TU holds one.
  bool functionHasDroppedCode(SourceLocation Loc) const {
    if (Dropped.empty())
      return false;
    auto L = SM.getDecomposedExpansionLoc(Loc);
    const Span *Inner = nullptr;
    for (const Span &F : Functions)
      if (F.contains(L) && (!Inner || Inner->contains(F)))
        Inner = &F;
    if (!Inner)
      return true;
    for (const Span &D : Dropped)
      if (Inner->contains(D))
        return true;
    return false;
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
  /// The user's functions that hold code with errors (not code typed through synthesised
  /// declarations): "main() (line 40)", in order.
  std::vector<std::pair<SourceLocation, std::string>> unjudged() const {
    std::vector<std::pair<SourceLocation, std::string>> Out;
    for (size_t I = 0; I < Functions.size(); ++I) {
      bool Has = false;
      for (const Span &E : RealErrors)
        Has |= Functions[I].contains(E) || E.contains(Functions[I]);
      // The innermost function only: a lambda's error is the lambda's.
      for (size_t J = 0; Has && J < Functions.size(); ++J)
        if (J != I && Functions[I].contains(Functions[J]) && !(Functions[J].contains(Functions[I])))
          for (const Span &E : RealErrors)
            if (Functions[J].contains(E)) {
              bool Elsewhere = false;
              for (const Span &E2 : RealErrors)
                Elsewhere |= Functions[I].contains(E2) && !Functions[J].contains(E2);
              Has = Elsewhere;
              break;
            }
      if (Has)
        Out.push_back(FunctionDecls[I]);
    }
    return Out;
  }
  /// The innermost function around Loc holds code with compiler errors (code typed through
  /// synthesised declarations is not counted); not in a function: the TU holds some.
  bool functionHasRealErrors(SourceLocation Loc) const {
    if (RealErrors.empty())
      return false;
    const Span *Inner = innermostFunction(SM.getDecomposedExpansionLoc(Loc));
    if (!Inner)
      return true;
    for (const Span &E : RealErrors)
      if (Inner->contains(E) || E.contains(*Inner))
        return true;
    return false;
  }
  /// Some function holding code with compiler errors (or such code outside functions) has one of
  /// Names as an identifier in its text: it may call that function, unseen.
  bool realErrorsName(llvm::ArrayRef<std::string> Names) const {
    for (const Span &E : RealErrors) {
      // An expression with errors may call what it names; an invalid signature's body has its
      // errors recorded one by one; a statement clang dropped left no text of its own: the
      // function around it.
      if (wholeFunction(E))
        continue;
      const Span *Inner = E.Begin == E.End ? innermostFunction({E.File, E.Begin}) : nullptr;
      Span Text = Inner ? *Inner : E;
      bool Invalid = false;
      llvm::StringRef Buf = SM.getBufferData(Text.File, &Invalid);
      if (Invalid || Text.End > Buf.size() || Text.Begin > Text.End)
        return true;
      llvm::StringRef Code = Buf.slice(Text.Begin, Text.End);
      for (const std::string &N : Names)
        for (size_t At = Code.find(N); At != llvm::StringRef::npos; At = Code.find(N, At + 1)) {
          bool Before = At > 0 && (llvm::isAlnum(Code[At - 1]) || Code[At - 1] == '_');
          size_t After = At + N.size();
          bool Past = After < Code.size() && (llvm::isAlnum(Code[After]) || Code[After] == '_');
          if (!Before && !Past)
            return true;
        }
    }
    return false;
  }
  /// Code with compiler errors in the function around At that could change how At runs: in a
  /// statement before At in a block around it (a guard declared there), a statement clang dropped
  /// there, or an expression At is part of. An earlier block, branch or loop closes before At (a
  /// guard declared inside it ends with it), and a function whose signature is invalid has its
  /// body's errors recorded one by one: neither counts.
  bool errorsCouldCover(ASTContext &Ctx, const Stmt *At) const {
    if (RealErrors.empty() || !At)
      return false;
    auto Overlaps = [](const Span &A, const Span &B) {
      return A.File == B.File && A.Begin <= B.End && B.Begin <= A.End;
    };
    std::optional<Span> Own = span(At->getSourceRange());
    if (!Own)
      return true;
    for (const Span &E : RealErrors)
      if (E.contains(*Own) && !wholeFunction(E))
        return true;
    DynTypedNode Node = DynTypedNode::create(*At);
    for (unsigned Depth = 0; Depth < 256; ++Depth) {
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return false;
      const Stmt *Child = Node.get<Stmt>();
      const auto *Block = Parents[0].get<CompoundStmt>();
      if (Block && Child) {
        std::optional<Span> Until = span(SourceRange(Block->getLBracLoc(), Child->getBeginLoc()));
        if (!Until)
          return true;
        std::vector<Span> Closed; // the scopes before Child: what is declared in them ends there
        for (const Stmt *Before : Block->body()) {
          if (Before == Child)
            break;
          std::optional<Span> B = span(Before->getSourceRange());
          if (!B)
            return true;
          if (isa<CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt, CXXTryStmt>(Before)) {
            Closed.push_back(*B);
            continue;
          }
          for (const Span &E : RealErrors)
            if (Overlaps(E, *B) && !wholeFunction(E))
              return true;
        }
        for (const Span &D : Dropped)
          if (Until->contains(D) && llvm::none_of(Closed, [&](const Span &C) { return C.contains(D); }))
            return true;
      }
      const DynTypedNode &Up = Parents[0];
      if (!Up.get<Stmt>() || Up.get<LambdaExpr>())
        return false; // the function's (or the lambda's) body
      Node = Up;
    }
    return true;
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
  /// E is an invalid function's whole declaration (its signature has errors; not an expression
  /// with errors that holds a lambda).
  bool wholeFunction(const Span &E) const {
    return llvm::any_of(InvalidSignatures, [&](const Span &F) { return E.contains(F) && F.contains(E); });
  }
  const Span *innermostFunction(std::pair<FileID, unsigned> L) const {
    const Span *Inner = nullptr;
    for (const Span &F : Functions)
      if (F.contains(L) && (!Inner || Inner->contains(F)))
        Inner = &F;
    return Inner;
  }
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
      if (const auto *E = dyn_cast_or_null<Expr>(S); E && !E->containsErrors() && isSynthesized(E)) {
        // Typed only through synthesised declarations: nothing rests on it (its parts that are
        // not are judged).
        add(Out.Errors, E->getSourceRange());
        for (const Stmt *Child : S->children())
          if (const auto *CE = dyn_cast_or_null<Expr>(Child); CE && !CE->containsErrors() && !isSynthesized(CE))
            add(Out.Typed, CE->getSourceRange());
        // What is given to unknown code may be changed there: `po::store(..., vm)`, `load(opts)`.
        if (const auto *Call = dyn_cast<CallExpr>(E))
          for (unsigned I = isa<CXXOperatorCallExpr>(Call) ? 1 : 0; I < Call->getNumArgs(); ++I)
            taintReferenced(Call->getArg(I));
        else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E))
          for (const Expr *A : Ctor->arguments())
            taintReferenced(A);
      } else if (E && E->containsErrors()) {
        add(Out.RealErrors, E->getSourceRange());
        taint(E);
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
    /// The variable or field that argument A refers to (`x`, `&x`, `std::move(x)`, `obj.field`).
    void taintReferenced(const Expr *A) {
      A = A->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf)
        A = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *C = dyn_cast<CallExpr>(A); C && C->getNumArgs() == 1 && C->getDirectCallee() &&
                                                  C->getDirectCallee()->getName() == "move")
        A = C->getArg(0)->IgnoreParenImpCasts();
      if (isSynthesized(A))
        return;
      if (const auto *R = dyn_cast<DeclRefExpr>(A))
        Out.Tainted.insert(R->getDecl()->getCanonicalDecl());
      else if (const auto *M = dyn_cast<MemberExpr>(A))
        Out.Tainted.insert(M->getMemberDecl()->getCanonicalDecl());
    }
    /// Every variable, parameter and field S names.
    void taint(const Stmt *S) {
      if (!S)
        return;
      if (const auto *R = dyn_cast<DeclRefExpr>(S))
        Out.Tainted.insert(R->getDecl()->getCanonicalDecl());
      else if (const auto *M = dyn_cast<MemberExpr>(S))
        Out.Tainted.insert(M->getMemberDecl()->getCanonicalDecl());
      for (const Stmt *C : S->children())
        taint(C);
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
        add(Out.RealErrors, D->getSourceRange());
        if (FD && FD->doesThisDeclarationHaveABody() && FD->getBody())
          add(Out.InvalidSignatures, D->getSourceRange());
        Out.Tainted.insert(D->getCanonicalDecl());
      }
      if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody()) {
        size_t Before = Out.Functions.size();
        add(Out.Functions, FD->getSourceRange());
        if (Out.Functions.size() > Before) {
          std::string Name = FD->getQualifiedNameAsString();
          if (isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->getParent()->isLambda())
            Name = "a lambda";
          else
            Name += "()";
          // "(line 40)" in the file analysed, "(logger.hpp:88)" in a header it includes.
          SourceLocation L = Out.SM.getExpansionLoc(FD->getLocation());
          unsigned Line = Out.SM.getExpansionLineNumber(L);
          std::string Where = "line " + std::to_string(Line);
          if (!Out.SM.isInMainFile(L))
            if (OptionalFileEntryRef FE = Out.SM.getFileEntryRefForID(Out.SM.getFileID(L)))
              Where = llvm::sys::path::filename(FE->getName()).str() + ":" + std::to_string(Line);
          Out.FunctionDecls.push_back({FD->getLocation(), Name + " (" + Where + ")"});
        }
      }
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
  std::vector<Span> RealErrors; // Errors less the code typed through synthesised declarations
  std::vector<Span> Dropped;    // errors that left no node (a statement clang dropped)
  std::vector<Span> InvalidSignatures; // functions with a body whose declaration is invalid
  llvm::DenseSet<const Decl *> Tainted;
  std::vector<std::pair<SourceLocation, std::string>> FunctionDecls; // parallel to Functions
};

} // namespace

bool restsOnErrors(ASTContext &Ctx, SourceLocation Loc) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).inError(Loc);
}

bool isSynthesizedExpr(const Expr *E) { return E && isSynthesized(E); }

bool declRestsOnErrors(ASTContext &Ctx, const Decl *D) {
  if (!D || !Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).tainted(D);
}

bool functionHasDroppedCode(ASTContext &Ctx, SourceLocation Loc) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).functionHasDroppedCode(Loc);
}

bool evidenceRestsOnErrors(ASTContext &Ctx, std::initializer_list<const Stmt *> Evidence) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  std::function<bool(const Stmt *)> Names = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S); E && isSynthesizedExpr(E))
      return false; // an unknown value: nothing it names is the evidence
    if (const auto *R = dyn_cast<DeclRefExpr>(S); R && declRestsOnErrors(Ctx, R->getDecl()))
      return true;
    if (const auto *M = dyn_cast<MemberExpr>(S); M && declRestsOnErrors(Ctx, M->getMemberDecl()))
      return true;
    for (const Stmt *C : S->children())
      if (Names(C))
        return true;
    return false;
  };
  // Whether S names a variable or field (a temporary cannot be changed by other code).
  std::function<bool(const Stmt *)> NamesDecl = [&](const Stmt *S) {
    if (!S)
      return false;
    if (isa<DeclRefExpr>(S)) {
      const auto *D = cast<DeclRefExpr>(S)->getDecl();
      if (isa<VarDecl, FieldDecl>(D))
        return true;
    }
    if (const auto *M = dyn_cast<MemberExpr>(S); M && isa<FieldDecl>(M->getMemberDecl()))
      return true;
    for (const Stmt *C : S->children())
      if (NamesDecl(C))
        return true;
    return false;
  };
  for (const Stmt *S : Evidence) {
    if (!S)
      continue;
    if (restsOnErrors(Ctx, S->getBeginLoc()) || Names(S) ||
        (NamesDecl(S) && functionHasDroppedCode(Ctx, S->getBeginLoc())))
      return true;
    if (const auto *E = dyn_cast<Expr>(S); E && E->containsErrors())
      return true;
  }
  return false;
}

bool functionHasRealErrors(ASTContext &Ctx, SourceLocation Loc) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).functionHasRealErrors(Loc);
}

bool errorsCouldCover(ASTContext &Ctx, const Stmt *At) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  return perTU<ErrorRanges>(Ctx).errorsCouldCover(Ctx, At);
}

bool erroneousCodeNames(ASTContext &Ctx, llvm::ArrayRef<std::string> Names) {
  if (!Ctx.getDiagnostics().hasErrorOccurred() || Names.empty())
    return false;
  return perTU<ErrorRanges>(Ctx).realErrorsName(Names);
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

const char *const UnjudgedText = "code not judged (it rests on compiler errors) in: ";

std::vector<std::pair<SourceLocation, std::string>> unjudgedFunctions(ASTContext &Ctx) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return {};
  return perTU<ErrorRanges>(Ctx).unjudged();
}

namespace {
struct UnjudgedSaid {
  explicit UnjudgedSaid(ASTContext &) {}
  bool Said = false;
};
} // namespace

void reportUnjudgedCode(ASTContext &Ctx) {
  UnjudgedSaid &Once = perTU<UnjudgedSaid>(Ctx);
  if (Once.Said)
    return;
  Once.Said = true;
  // Only for a partial analysis (a missing header): a plain compiler error is its own message.
  if (!MissedHeaders.count(&Ctx.getSourceManager()))
    return;
  std::vector<std::pair<SourceLocation, std::string>> Fs = unjudgedFunctions(Ctx);
  if (Fs.empty())
    return;
  std::string Msg = UnjudgedText;
  for (size_t I = 0; I < Fs.size() && I < 10; ++I)
    Msg += (I ? ", " : "") + Fs[I].second;
  if (Fs.size() > 10)
    Msg += ", and " + std::to_string(Fs.size() - 10) + " more";
  Ctx.getDiagnostics().Report(Fs.front().first, diag::err_pp_hash_error) << Msg;
}

void foldPartialAnalysis(RunResult &R, llvm::StringRef MainFile, bool Strict) {
  foldPartialAnalysis(R, MainFile, Strict, /*AllowPartial=*/false);
}

void foldPartialAnalysis(RunResult &R, llvm::StringRef MainFile, bool Strict, bool AllowPartial) {
  struct PerFile {
    std::vector<std::string> Missing; // "'x.h' (file:line)"
    std::string Libtorch;             // a missing libtorch core header
    unsigned Others = 0;
    unsigned StandIns = 0, Synthesised = 0; // of Missing, those served by a stand-in / synthesised declarations
    std::string Unjudged;                   // "main() (line 40), ..."
    std::string SynthNames;                 // "spdlog::info, .as, ...": the TU's synthesised names
  };
  auto Missing = [](const Finding &F, bool Libtorch) {
    std::optional<std::string> H = F.isCompilerError() ? missingHeaderOf(F.Message) : std::nullopt;
    return H && (!Libtorch || (isLibtorchCoreHeaderName(*H) &&
                               !llvm::StringRef(F.Message).contains(LibtorchOtherVersionText)));
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
    if (llvm::StringRef(F.Message).starts_with(UnjudgedText)) {
      P.Unjudged = llvm::StringRef(F.Message).drop_front(strlen(UnjudgedText)).str();
      continue;
    }
    if (auto H = missingHeaderOf(F.Message)) {
      if (isLibtorchCoreHeaderName(*H) && !llvm::StringRef(F.Message).contains(LibtorchOtherVersionText)) {
        if (P.Libtorch.empty())
          P.Libtorch = *H;
        continue;
      }
      std::string Where = llvm::sys::path::filename(F.File).str() + ":" + std::to_string(F.Line);
      llvm::StringRef Msg = F.Message;
      bool StandIn = Msg.contains(StandInUsedText);
      size_t SynthAt = Msg.find(SynthUsedText);
      bool Synth = SynthAt != llvm::StringRef::npos;
      if (StandIn)
        Where += ", a stand-in was used";
      if (Msg.contains(LibtorchOtherVersionText))
        Where += ", not in this libtorch version";
      if (Synth) {
        Where += ", declarations were synthesised";
        // The names are those of the whole TU (said at the first include they serve, which may
        // not be the header that would have declared them): said once, after the list.
        llvm::StringRef Names = Msg.drop_front(SynthAt + strlen(SynthUsedText)).trim();
        if (Names.consume_front("(") && Names.consume_back(")") && !Names.trim().empty() && P.SynthNames.empty())
          P.SynthNames = Names.trim().str();
      }
      if (Seen.insert(*H).second) { // named once, where it was first included
        P.Missing.push_back("'" + *H + "' (" + Where + ")");
        P.StandIns += StandIn;
        P.Synthesised += Synth;
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
  std::string List;
  for (size_t I = 0; I < P.Missing.size(); ++I)
    List += (I ? ", " : "") + P.Missing[I];
  if (!P.SynthNames.empty())
    List += "; names synthesised: " + P.SynthNames;
  bool Plural = P.Missing.size() != 1;
  if (P.Others == 0 && P.Unjudged.empty()) {
    // Nothing left unjudged: a complete analysis, said as a notice (docs/reliability.md).
    std::string Msg = "'" + Main + "': header" + (Plural ? "s" : "") + " not found: " + List;
    if (P.StandIns + P.Synthesised == 0)
      Msg += std::string("; no code depends on ") + (Plural ? "them" : "it") + ": every statement was judged";
    else {
      Msg += "; every statement was typed through ";
      Msg += P.Synthesised == 0 ? "torchlint's stand-in declarations"
             : P.StandIns == 0  ? "torchlint's synthesised declarations"
                                : "torchlint's stand-in and synthesised declarations";
      // A logging macro written as a stream (`PLOG_INFO <<`) is read as a std::ostream: what is
      // streamed into it is judged as for std::cout.
      Msg += llvm::StringRef(P.SynthNames).contains(" <<")
                 ? " and judged; no finding rests on them but for the logging macros read as streams (`NAME <<`)"
                 : " and judged; no finding rests on them";
    }
    R.Notices.push_back(std::move(Msg));
    return;
  }
  std::string Msg = "'" + Main + "': analysed partially: header" + (Plural ? "s" : "") + " not found: " + List;
  if (!P.Unjudged.empty())
    Msg += "; code not judged in " + P.Unjudged;
  else
    Msg += std::string("; code that depends on ") + (Plural ? "them" : "it") + " is not judged";
  if (P.Others)
    Msg += " (" + std::to_string(P.Others) + " compiler error" + (P.Others == 1 ? "" : "s") + " follow" +
           (P.Others == 1 ? "s" : "") + " from " + (Plural ? "them" : "it") + ")";
  if (AllowPartial) {
    R.Notices.push_back(Msg + " (--allow-partial: not an input error)");
    return;
  }
  Msg += "; --allow-partial accepts it, --strict-includes makes a missing header an error";
  R.Errors.push_back(std::move(Msg));
}

} // namespace torchlint
