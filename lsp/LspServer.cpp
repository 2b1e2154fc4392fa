#include "lsp/LspServer.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "cli/Accel.h"
#include "cli/CompileDatabase.h"
#include "cli/CudaHost.h"
#include "cli/InputCheck.h"
#include "cli/ProjectConfig.h"
#include "cli/ProjectFlags.h"
#include "cli/ResultCache.h"
#include "cli/TidyErrors.h"
#include "cli/TorchInstall.h"
#include "utils/FileStamp.h"
#include "core/Catalog.h"
#include "core/Findings.h"
#include "core/Recovery.h"
#include "checkbase/TorchCheck.h"
#include "model/ProjectIndex.h"
#include "fixits/ApplyFixes.h"
#include "lsp/Protocol.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>

using namespace llvm;
using namespace clang;

namespace torchlint {
namespace {

using Clock = std::chrono::steady_clock;
using lsp::Encoding;

struct ServerOptions {
  std::string CompileCommandsDir;
  std::string Checks;
  int Level = 1;
  std::string CacheDir;
  bool NoCache = false, NoPch = false;
  int DebounceMs = 400;
  bool Verbose = false;
  /// Keep the project index (model/ProjectIndex.h) of each compile database an open file uses up
  /// to date in the background: `torchlint index -p DIR` when the database is first used and
  /// after each save (on by default, as clangd's background index: the first parses the whole
  /// project once, in a child process on half the cores).
  bool BackgroundIndex = true; // as clangd's: --background-index=false, or initializationOptions, turns it off
};

/// Where a file's compile flags come from, and what went wrong finding them (shown to the user).
struct Flags {
  std::shared_ptr<tooling::CompilationDatabase> DB;
  std::string Source;  // "/p/build/compile_commands.json" or "torchlint's default flags (...)"
  std::string Problem; // a database that could not be read or that has no command: a diagnostic
};

/// One analysis to run: the document's text at one version.
struct Job {
  std::string Uri, Path;
  int64_t Version = 0;
  std::string Text;
  Clock::time_point Due;
  Clock::time_point Queued; // for the log: latency from the event to the publication
  std::string Why;          // open, change, save
};

/// What was last published for a document: code actions are computed from it.
struct Published {
  int64_t Version = 0;
  std::string Text;
  std::vector<Finding> Findings; // sorted, compiler errors and input errors excluded
  /// The files the analysis read, libtorch's left out (empty when the result came from the disk
  /// cache): a save of one of them analyses this document again.
  std::vector<std::string> Deps;
};

struct Document {
  std::string Path;
  int64_t Version = 0;
  std::string Text;
};

/// A result analysed from memory, valid while the text, the command and the files it read are
/// unchanged.
struct MemoryEntry {
  uint64_t TextHash = 0;
  std::string CommandKey;
  RunResult R;
  std::vector<std::pair<std::string, std::pair<uint64_t, int64_t>>> Deps; // path -> (size, mtime)
};

bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }

/// The range of the token a finding points at (an identifier, else one character).
std::pair<size_t, size_t> tokenAt(StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  size_t End = Offset;
  while (End < Text.size() && isIdentChar(Text[End]))
    ++End;
  if (End == Offset && Offset < Text.size() && Text[Offset] != '\n' && Text[Offset] != '\r')
    ++End;
  return {Offset, End};
}

std::string readDisk(StringRef Path, bool &Ok) {
  auto B = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  Ok = static_cast<bool>(B);
  return Ok ? (*B)->getBuffer().str() : std::string();
}

class Server {
public:
  /// Protocol: the stream the messages go to (the process's original stdout).
  Server(ServerOptions O, std::FILE *Protocol) : Opts(std::move(O)), Out(Protocol), Protocol(Protocol) {}
  int run();

private:
  // Protocol.
  void handle(const json::Value &Message);
  void handleRequest(const json::Value &Id, StringRef Method, const json::Object *Params);
  void handleNotification(StringRef Method, const json::Object *Params);
  json::Value initialize(const json::Object *Params);
  json::Value codeActions(const json::Object &Params, std::string &Err);
  void logMessage(int Type, const std::string &Text);
  std::optional<std::pair<std::string, std::string>> document(const json::Object *Params, std::string &Err);

  // Analysis.
  void schedule(const std::string &Uri, int Delay, const std::string &Why);
  void worker();
  /// After: what is left to do once the result is published (filling the caches).
  RunResult analyze(const Job &J, std::string &FlagsSource, std::string &FlagsProblem, std::function<void()> &After,
                    std::vector<std::string> &Deps);
  Flags flagsFor(const std::string &Path);
  /// Path: the file analysed; its project index's path and time stamp join the options (and so
  /// the keys of the result caches): a refreshed index gives new results.
  std::unique_ptr<tidy::ClangTidyOptionsProvider> optionsProvider(const std::string &Path);
  // Background index.
  void requestIndex(const std::string &Database); // called with M held
  void indexer();
  json::Array diagnosticsOf(const Job &J, const RunResult &R, const std::string &FlagsSource,
                            const std::string &FlagsProblem, std::vector<Finding> &Kept);
  /// Uri: the client's URI of F.File (the document), used for locations in it.
  json::Object diagnosticOf(const Finding &F, StringRef Uri, StringRef Text, size_t Index, int64_t Version);
  void publish(const std::string &Uri, std::optional<int64_t> Version, json::Array Diags);
  void log(const std::string &S) {
    std::lock_guard<std::mutex> L(LogM);
    errs() << "torchlint lsp: " << S << "\n";
  }

  ServerOptions Opts;
  lsp::Transport Out;
  std::FILE *Protocol;
  Encoding Enc = Encoding::UTF16;
  bool Initialized = false, ShutDown = false;

  std::mutex M; // guards everything below
  std::condition_variable CV;
  std::map<std::string, Document> Docs;
  std::map<std::string, Job> Pending;
  std::map<std::string, Published> Results;
  bool Stopping = false;
  std::set<std::string> IndexQueue;   // compile databases whose index is to be written
  std::set<std::string> IndexedOnce;  // databases indexed (or queued) since the server started
  std::condition_variable IndexCV;

  // Used by the worker thread only.
  std::map<std::string, std::vector<MemoryEntry>> Memory;
  std::map<std::string, std::pair<std::pair<uint64_t, int64_t>, Flags>> DatabaseCache;
  std::map<std::string, bool> ToldNoDatabase;
  std::mutex LogM;
};

// ---------------------------------------------------------------------------------------------
// Compile flags, as clangd finds them.

/// The adjustments the CLI makes to every command (Driver.cpp makeDatabase): no caret diagnostics,
/// .cu files as CUDA host code without a toolkit (cli/CudaHost.h, its header under CacheDir),
/// clang's builtin headers.
std::shared_ptr<tooling::CompilationDatabase> adjusted(std::unique_ptr<tooling::CompilationDatabase> DB,
                                                       const std::string &CacheDir) {
  auto A = std::make_shared<tooling::ArgumentsAdjustingCompilations>(std::move(DB));
  A->appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster("-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
  A->appendArgumentsAdjuster([CacheDir](const tooling::CommandLineArguments &Args, StringRef File) {
    if (!isCudaSource(File))
      return Args;
    std::string Err, Header = cudaHostHeader(CacheDir, Err);
    return Header.empty() ? Args : cudaHostArgs(Args, File, Header);
  });
  A->appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, StringRef) {
    for (const std::string &S : Args)
      if (StringRef(S).starts_with("-resource-dir"))
        return Args;
    tooling::CommandLineArguments R = Args;
    R.insert(R.begin() + (R.empty() ? 0 : 1), "-resource-dir=" TORCHLINT_CLANG_RESOURCE_DIR);
    return R;
  });
  return A;
}

Flags Server::flagsFor(const std::string &Path) {
  Flags F;
  std::string Candidate;
  if (!Opts.CompileCommandsDir.empty()) {
    SmallString<256> C(Opts.CompileCommandsDir);
    if (sys::path::filename(C) != "compile_commands.json")
      sys::path::append(C, "compile_commands.json");
    Candidate = std::string(C);
    if (!sys::fs::exists(Candidate))
      F.Problem = "no compile_commands.json in --compile-commands-dir '" + Opts.CompileCommandsDir + "'";
  } else {
    // Where the CLI looks, as clangd does (cli/ProjectFlags.h): compile_commands.json or
    // compile_flags.txt in the file's folder or a parent up to the repository root, or a
    // build*/, out/ or cmake-build-*/ database there that lists the file.
    Candidate = findCompileDatabase(Path).Path;
  }
  if (!Candidate.empty() && F.Problem.empty()) {
    auto St = fileStamp(Candidate);
    auto It = DatabaseCache.find(Candidate);
    if (It != DatabaseCache.end() && It->second.first == St) {
      F = It->second.second;
    } else {
      std::string Err;
      bool Flags = sys::path::filename(Candidate) == "compile_flags.txt";
      std::unique_ptr<tooling::CompilationDatabase> DB;
      if (Flags) {
        DB = tooling::FixedCompilationDatabase::loadFromFile(Candidate, Err);
      } else {
        // The parse the CLI's discovery shares (cli/CompileDatabase.h; a new one once the file
        // changes), read as the CLI reads it: a file the database does not list (a header, a new
        // file) borrows the command of the most similar one, as in clangd; response files
        // expanded; target and driver mode from the compiler's name.
        std::shared_ptr<const tooling::JSONCompilationDatabase> Raw = jsonDatabase(Candidate, Err);
        if (Raw && Raw->getAllFiles().empty())
          F.Problem = "the compilation database '" + Candidate + "' has no entries";
        else if (Raw)
          DB = interpolatedJsonDatabase(Candidate, Err);
      }
      if (DB) {
        F.DB = adjusted(std::move(DB), Opts.CacheDir);
        F.Source = Candidate;
      } else if (F.Problem.empty()) {
        F.Problem = "cannot read the compilation database '" + Candidate + "': " + Err;
      }
      DatabaseCache[Candidate] = {St, F};
    }
  }
  if (!F.DB) {
    // The flags the CLI guesses (the standard and include folders of the project's CMake, meson or
    // Bazel files; the libtorch found), once per project.
    // The project's build files are read once (guessProjectFlags); the folders' order is the file's.
    std::string Summary; // the CLI's line on stderr; the server logs its own below
    const std::vector<std::string> Args = guessedCompileFlags(Path, Summary);
    F.DB = adjusted(std::make_unique<tooling::FixedCompilationDatabase>(sys::path::parent_path(Path), Args),
                    Opts.CacheDir);
    F.Source = "torchlint's default flags (" + join(Args, " ") + ")";
    if (F.Problem.empty()) {
      std::string Dir = sys::path::parent_path(Path).str();
      if (!ToldNoDatabase[Dir]) {
        ToldNoDatabase[Dir] = true;
        logMessage(3, "torchlint: no compile_commands.json in '" + Dir + "' or above; using " + F.Source);
      }
    } else {
      F.Problem += "; using " + F.Source;
    }
  }
  return F;
}

std::unique_ptr<tidy::ClangTidyOptionsProvider> Server::optionsProvider(const std::string &Path) {
  // What the CLI uses (Driver.cpp makeOptionsProvider): the default set, .clang-tidy files.
  tidy::ClangTidyGlobalOptions Global;
  tidy::ClangTidyOptions Defaults = tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = defaultChecksGlob(Opts.Level);
  Defaults.HeaderFilterRegex = "";
  Defaults.SystemHeaders = false;
  tidy::ClangTidyOptions Overrides;
  if (!Opts.Checks.empty())
    Overrides.Checks = Opts.Checks;
  // The project index the checks will read (checkbase/TorchCheck.cpp), with its time stamp: only
  // in the options' text, so that results decided by an older index are not reused.
  if (std::optional<std::string> Index = model::findIndex(Path)) {
    sys::fs::file_status St;
    std::string Stamp = *Index;
    if (!sys::fs::status(*Index, St))
      Stamp += "@" + std::to_string(St.getLastModificationTime().time_since_epoch().count());
    Overrides.CheckOptions["ProjectIndexStamp"] = tidy::ClangTidyOptions::ClangTidyValue(Stamp, 1000);
  }
  return std::make_unique<TorchOptionsProvider>(std::make_unique<tidy::FileOptionsProvider>(
      std::move(Global), std::move(Defaults), std::move(Overrides), vfs::getRealFileSystem()));
}

// ---------------------------------------------------------------------------------------------
// Analysis.

/// clang-tidy's errors as findings (cli/TidyErrors.h), lines and columns from the analysed text for
/// the main file.
void collectErrors(const std::vector<tidy::ClangTidyError> &Errors, const std::string &Main, StringRef Text,
                   RunResult &R) {
  auto LineCol = [&](const std::string &File, unsigned Offset, unsigned &Line, unsigned &Col) {
    if (File != Main) {
      offsetToLineColumn(File, Offset, Line, Col);
      return;
    }
    StringRef Before = Text.substr(0, std::min<size_t>(Offset, Text.size()));
    Line = Before.count('\n') + 1;
    size_t NL = Before.rfind('\n');
    Col = Before.size() - (NL == StringRef::npos ? 0 : NL + 1) + 1;
  };
  collectTidyErrors(Errors, R, /*AbsoluteNotesAndFixes=*/true, LineCol);
}

RunResult Server::analyze(const Job &J, std::string &FlagsSource, std::string &FlagsProblem,
                          std::function<void()> &After, std::vector<std::string> &UserDeps) {
  auto KeepUserDeps = [&](const std::vector<std::string> &Paths) {
    for (const std::string &D : Paths)
      if (D != J.Path && !isLibtorchFile(D))
        UserDeps.push_back(D);
  };
  Flags F = flagsFor(J.Path);
  FlagsSource = F.Source;
  FlagsProblem = F.Problem;
  if (Opts.BackgroundIndex && sys::path::filename(F.Source) == "compile_commands.json") {
    std::lock_guard<std::mutex> L(M);
    // First use of the database, or a save: (re)write its index.
    if (!IndexedOnce.count(F.Source) || J.Why == "save")
      requestIndex(F.Source);
  }
  auto Provider = optionsProvider(J.Path);
  std::string CommandKey = tidy::configurationAsText(Provider->getOptions(J.Path));
  for (const tooling::CompileCommand &C : F.DB->getCompileCommands(J.Path))
    CommandKey += "\n" + C.Directory + "\n" + join(C.CommandLine, "\x1f");
  uint64_t TextHash = xxh3_64bits(J.Text);

  // 1. Analysed from memory before (an edit undone, a save of what was analysed while typing).
  bool DiskOk = false;
  bool OnDisk = readDisk(J.Path, DiskOk) == J.Text && DiskOk;
  std::optional<ResultCache> Cache;
  if (!Opts.NoCache)
    Cache.emplace(Opts.CacheDir);
  std::string DiskKey;
  if (Cache && OnDisk)
    DiskKey = Cache->key(*F.DB, J.Path, Provider->getOptions(J.Path));
  std::vector<MemoryEntry> &Entries = Memory[J.Path];
  for (auto It = Entries.begin(); It != Entries.end(); ++It) {
    if (It->TextHash != TextHash || It->CommandKey != CommandKey)
      continue;
    bool Valid = true;
    for (auto &[P, S] : It->Deps)
      if (P != J.Path && fileStamp(P) != S) {
        Valid = false;
        break;
      }
    if (!Valid) {
      Entries.erase(It);
      break;
    }
    MemoryEntry Hit = std::move(*It); // most recently used last
    Entries.erase(It);
    Entries.push_back(std::move(Hit));
    const MemoryEntry &E = Entries.back();
    if (Opts.Verbose)
      log(J.Path + ": result reused from memory");
    // Saved now: the next server finds it in the CLI's cache (stored after the publication).
    std::vector<std::string> Deps;
    for (auto &D : E.Deps)
      Deps.push_back(D.first);
    KeepUserDeps(Deps);
    // (Without the headers it missed, which the server does not record: never a partial result.)
    if (!DiskKey.empty() && !E.R.hasErrors() && E.R.Notices.empty()) {
      After = [Cache, DiskKey, R = E.R, Deps = std::move(Deps)]() {
        RunResult Probe;
        if (!Cache->lookup(DiskKey, Probe))
          Cache->store(DiskKey, R, Deps);
      };
    }
    return E.R;
  }
  // 2. The CLI's result cache (only for a buffer that is what is on disk: its key hashes the file).
  if (!DiskKey.empty()) {
    RunResult R;
    if (Cache->lookup(DiskKey, R)) {
      if (Opts.Verbose)
        log(J.Path + ": cached result");
      return R;
    }
  }
  // 3. Analyse: the buffer from memory over the real file system; the CLI's entry point and PCH.
  auto Mem = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  Mem->addFile(J.Path, /*ModificationTime=*/0, MemoryBuffer::getMemBufferCopy(J.Text, J.Path));
  // torch/extension.h without Python's headers reads as its C++ part, as in the CLI (core/Recovery.h).
  std::shared_ptr<std::atomic<bool>> ExtensionRead;
  std::vector<tooling::CompileCommand> Cmds = F.DB->getCompileCommands(J.Path);
  auto BaseFS = Cmds.empty() ? makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem())
                             : withPythonlessTorchExtension(vfs::getRealFileSystem(), Cmds.front().CommandLine,
                                                            Cmds.front().Directory, ExtensionRead);
  BaseFS->pushOverlay(Mem);
  AccelOptions AO;
  if (!Opts.NoPch)
    AO.PchCacheDir = Opts.CacheDir;
  tidy::ClangTidyContext Context(optionsProvider(J.Path));
  TUAnalysis A;
  RunResult R;
  auto Start = Clock::now();
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { A = analyzeTU(Context, *F.DB, J.Path, BaseFS, /*ApplyAnyFix=*/true, AO); })) {
    R.Errors.push_back("'" + J.Path +
                       "': the analysis crashed (a bug in torchlint or clang; please report it "
                       "with the file); no findings from it");
    return R;
  }
  collectErrors(A.Errors, J.Path, J.Text, R);
  if (ExtensionRead && *ExtensionRead)
    log(pythonlessTorchExtensionNotice(J.Path)); // the server's log: the file's diagnostics are its own
  R.FilesAnalyzed = 1;
  foldPartialAnalysis(R, J.Path, /*Strict=*/false);
  collapseCompilerErrors(R);
  R.sort();
  log(J.Path + " (" + J.Why + ", version " + std::to_string(J.Version) + "): analysed in " +
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Start).count()) +
      " ms, pch " + (A.UsedPch ? (A.BuiltPch ? "built" : "reused") : "none (" + A.NoPchWhy + ")") + ", " +
      std::to_string(R.Findings.size()) + " findings");
  KeepUserDeps(A.Deps);
  // The caches are filled after the publication (hashing the include closure takes a while).
  After = [this, Path = J.Path, TextHash, CommandKey, R, Deps = std::move(A.Deps), DiskKey,
           Cache = std::move(Cache)]() {
    MemoryEntry E;
    E.TextHash = TextHash;
    E.CommandKey = CommandKey;
    E.R = R;
    for (const std::string &D : Deps)
      E.Deps.push_back({D, fileStamp(D)});
    if (!DiskKey.empty() && !R.hasErrors() && R.Notices.empty())
      Cache->store(DiskKey, R, Deps);
    // A few versions per file (an edit undone is found again), the most recent last.
    std::vector<MemoryEntry> &Entries = Memory[Path];
    Entries.push_back(std::move(E));
    if (Entries.size() > 4)
      Entries.erase(Entries.begin());
  };
  return R;
}

json::Object Server::diagnosticOf(const Finding &F, StringRef Uri, StringRef Text, size_t Index, int64_t Version) {
  auto [B, E] = tokenAt(Text, F.Offset);
  json::Object D{{"range", lsp::rangeOf(Text, B, E, Enc)},
                 {"severity", F.isCompilerError()   ? 1
                              : F.Level == "remark" ? 3
                                                    : 2},
                 {"source", "torchlint"},
                 {"code", F.Check},
                 {"message", F.Message},
                 {"data", json::Object{{"index", static_cast<int64_t>(Index)}, {"version", Version}}}};
  if (const CheckInfo *C = findCheck(F.Check))
    D["codeDescription"] = json::Object{{"href", lsp::pathToUri(torchlintHome() + "/" + C->docPath())}};
  json::Array Related;
  std::string Extra;
  for (const Note &N : F.Notes) {
    if (N.File.empty()) {
      Extra += "\nnote: " + N.Message;
      continue;
    }
    std::string NoteText;
    bool Same = N.File == F.File;
    if (Same)
      NoteText = Text.str();
    else {
      bool Ok;
      NoteText = readDisk(N.File, Ok);
    }
    auto [NB, NE] = tokenAt(NoteText, N.Offset);
    Related.push_back(json::Object{{"location", json::Object{{"uri", Same ? Uri.str() : lsp::pathToUri(N.File)},
                                                             {"range", lsp::rangeOf(NoteText, NB, NE, Enc)}}},
                                   {"message", N.Message}});
  }
  if (!Extra.empty())
    D["message"] = F.Message + Extra;
  if (!Related.empty())
    D["relatedInformation"] = std::move(Related);
  return D;
}

json::Array Server::diagnosticsOf(const Job &J, const RunResult &R, const std::string &FlagsSource,
                                  const std::string &FlagsProblem, std::vector<Finding> &Kept) {
  json::Array Diags;
  json::Object Top{{"start", json::Object{{"line", 0}, {"character", 0}}},
                   {"end", json::Object{{"line", 0}, {"character", 0}}}};
  if (!FlagsProblem.empty())
    Diags.push_back(json::Object{{"range", json::Object(Top)},
                                 {"severity", 1},
                                 {"source", "torchlint"},
                                 {"code", "torchlint-compile-database"},
                                 {"message", "torchlint: " + FlagsProblem}});
  // Where the flags came from, when it may be why (no database: the defaults were guessed).
  std::string FlagsNote;
  if (FlagsProblem.empty() && StringRef(FlagsSource).starts_with("torchlint's default flags"))
    FlagsNote = " (no compile_commands.json or compile_flags.txt was found above this file; " + FlagsSource +
                " were used: generate a compilation database, or pass --compile-commands-dir)";
  for (const std::string &E : R.Errors)
    Diags.push_back(json::Object{{"range", json::Object(Top)},
                                 {"severity", StringRef(E).contains("analysed partially") ? 2 : 1},
                                 {"source", "torchlint"},
                                 {"code", "torchlint-input"},
                                 {"message", "torchlint: " + E + FlagsNote}});
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError()) {
      // The file does not parse: torchlint cannot judge it. Say so where clang stopped (the first
      // error, with how many more there are).
      Finding At = F;
      At.Message = "torchlint cannot analyse this file, it does not parse: " + F.Message;
      if (At.File != J.Path) {
        At.Message += " (in " + F.File + ":" + std::to_string(F.Line) + ")";
        At.Offset = 0;
      }
      At.Notes.clear();
      json::Object D = diagnosticOf(At, J.Uri, J.Text, ~size_t(0) >> 1, J.Version);
      D.erase("data");
      Diags.push_back(std::move(D));
      continue;
    }
    if (F.File != J.Path)
      continue; // a finding in a header: shown when the header is open
    Diags.push_back(diagnosticOf(F, J.Uri, J.Text, Kept.size(), J.Version));
    Kept.push_back(F);
  }
  return Diags;
}

void Server::publish(const std::string &Uri, std::optional<int64_t> Version, json::Array Diags) {
  json::Object P{{"uri", Uri}, {"diagnostics", std::move(Diags)}};
  if (Version)
    P["version"] = *Version;
  Out.notify("textDocument/publishDiagnostics", std::move(P));
}

void Server::schedule(const std::string &Uri, int Delay, const std::string &Why) {
  // Called with M held.
  auto D = Docs.find(Uri);
  if (D == Docs.end())
    return;
  Job J;
  J.Uri = Uri;
  J.Path = D->second.Path;
  J.Version = D->second.Version;
  J.Text = D->second.Text;
  J.Queued = Clock::now();
  J.Due = J.Queued + std::chrono::milliseconds(Delay);
  J.Why = Why;
  auto It = Pending.find(Uri);
  if (It != Pending.end() && Opts.Verbose)
    log(J.Path + ": queued version " + std::to_string(It->second.Version) + " superseded by " +
        std::to_string(J.Version));
  Pending[Uri] = std::move(J); // a newer edit replaces the work not yet started
  CV.notify_all();
}

void Server::requestIndex(const std::string &Database) {
  IndexedOnce.insert(Database);
  IndexQueue.insert(Database);
  IndexCV.notify_all();
}

/// The background index (clangd's model, with the CLI as the indexer): one `torchlint index -p
/// DIR` at a time, in a child process (a crash there never reaches the server), sharing the
/// server's result cache, so that after the first run a save re-parses the saved file only. When
/// it is written, every open document is analysed again with it.
void Server::indexer() {
  std::string Self = sys::fs::getMainExecutable("torchlint", (void *)&lspMain);
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    if (Stopping)
      return;
    if (IndexQueue.empty()) {
      IndexCV.wait(L);
      continue;
    }
    std::string Database = *IndexQueue.begin();
    IndexQueue.erase(IndexQueue.begin());
    L.unlock();
    std::string Dir = sys::path::parent_path(Database).str();
    unsigned Jobs = std::max(1u, llvm::hardware_concurrency().compute_thread_count() / 2);
    std::vector<std::string> Args = {Self, "index", "-p", Dir, "--quiet", "-j", std::to_string(Jobs),
                                     "--cache-dir=" + Opts.CacheDir};
    if (Opts.NoPch)
      Args.push_back("--no-pch");
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    SmallString<128> ErrFile;
    sys::fs::createTemporaryFile("torchlint-index", "log", ErrFile);
    std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""), StringRef(ErrFile)};
    std::string Err;
    auto Start = Clock::now();
    log("indexing the project of " + Database + " in the background");
    int RC = sys::ExecuteAndWait(Self, Refs, std::nullopt, Redirects, 0, 0, &Err);
    std::string Output;
    if (auto B = MemoryBuffer::getFile(ErrFile))
      Output = (*B)->getBuffer().trim().str();
    sys::fs::remove(ErrFile);
    long Ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Start).count();
    L.lock();
    if (Stopping)
      return;
    if (RC != 0) {
      log("the background index of " + Database + " failed (exit " + std::to_string(RC) + "): " +
          (Err.empty() ? Output : Err));
      continue;
    }
    log("project index of " + Database + " written in " + std::to_string(Ms) + " ms; open documents are analysed again");
    for (auto &[Uri, D] : Docs)
      schedule(Uri, 0, "project index");
  }
}

void Server::worker() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    if (Stopping)
      return;
    auto Next = Pending.end();
    for (auto It = Pending.begin(); It != Pending.end(); ++It)
      if (Next == Pending.end() || It->second.Due < Next->second.Due)
        Next = It;
    if (Next == Pending.end()) {
      CV.wait(L);
      continue;
    }
    if (Next->second.Due > Clock::now()) {
      CV.wait_until(L, Next->second.Due);
      continue;
    }
    Job J = std::move(Next->second);
    Pending.erase(Next);
    L.unlock();
    if (Opts.Verbose)
      log(J.Path + ": analysing version " + std::to_string(J.Version) + " (" + J.Why + ")");
    std::string Source, Problem;
    std::function<void()> After;
    std::vector<std::string> Deps;
    RunResult R = analyze(J, Source, Problem, After, Deps);
    // Fills the caches once the result is out (or discarded), without the lock.
    auto Finish = llvm::make_scope_exit([&] {
      if (After) {
        L.unlock();
        After();
        L.lock();
      }
    });
    L.lock();
    auto D = Docs.find(J.Uri);
    // Superseded while it ran (a newer version is queued or the document was closed): discard.
    if (D == Docs.end() || D->second.Version != J.Version) {
      log(J.Path + ": result for version " + std::to_string(J.Version) + " discarded (superseded)");
      continue;
    }
    Published P;
    P.Version = J.Version;
    P.Text = J.Text;
    P.Deps = std::move(Deps);
    json::Array Diags = diagnosticsOf(J, R, Source, Problem, P.Findings);
    Results[J.Uri] = std::move(P);
    publish(J.Uri, J.Version, std::move(Diags));
    if (Opts.Verbose)
      log(J.Path + ": published " +
          std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - J.Queued).count()) +
          " ms after the " + J.Why);
  }
}

// ---------------------------------------------------------------------------------------------
// Protocol.

void Server::logMessage(int Type, const std::string &Text) {
  Out.notify("window/logMessage", json::Object{{"type", Type}, {"message", Text}});
}

/// textDocument.uri of Params as (uri, path).
std::optional<std::pair<std::string, std::string>> Server::document(const json::Object *Params, std::string &Err) {
  const json::Object *TD = Params ? Params->getObject("textDocument") : nullptr;
  std::optional<StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  if (!Uri) {
    Err = "missing textDocument.uri";
    return std::nullopt;
  }
  auto Path = lsp::uriToPath(*Uri, Err);
  if (!Path)
    return std::nullopt;
  return std::make_pair(Uri->str(), *Path);
}

json::Value Server::initialize(const json::Object *Params) {
  Enc = Encoding::UTF16;
  if (Params)
    if (const json::Object *Caps = Params->getObject("capabilities"))
      if (const json::Object *G = Caps->getObject("general"))
        if (const json::Array *Encs = G->getArray("positionEncodings"))
          for (const json::Value &V : *Encs)
            if (V.getAsString() && *V.getAsString() == "utf-8") {
              Enc = Encoding::UTF8;
              break;
            }
  if (Params)
    if (const json::Object *IO = Params->getObject("initializationOptions")) {
      // clangd's name for it too.
      for (const char *Key : {"compileCommandsDir", "compilationDatabasePath"})
        if (auto D = IO->getString(Key))
          Opts.CompileCommandsDir = D->str();
      if (auto C = IO->getString("checks"))
        Opts.Checks = C->str();
      if (auto B = IO->getBoolean("backgroundIndex"))
        Opts.BackgroundIndex = *B;
    }
  Initialized = true;
  return json::Object{
      {"capabilities",
       json::Object{{"positionEncoding", Enc == Encoding::UTF8 ? "utf-8" : "utf-16"},
                    {"textDocumentSync", json::Object{{"openClose", true},
                                                      {"change", 1}, // full
                                                      {"save", json::Object{{"includeText", true}}}}},
                    {"codeActionProvider",
                     json::Object{{"codeActionKinds", json::Array{"quickfix", "source.fixAll.torchlint"}}}}}},
      {"serverInfo", json::Object{{"name", "torchlint"}, {"version", TORCHLINT_VERSION}}}};
}

json::Value Server::codeActions(const json::Object &Params, std::string &Err) {
  auto Doc = document(&Params, Err);
  if (!Doc)
    return nullptr;
  const json::Object *Range = Params.getObject("range");
  const json::Object *Start = Range ? Range->getObject("start") : nullptr;
  const json::Object *End = Range ? Range->getObject("end") : nullptr;
  if (!Start || !End || !Start->getInteger("line") || !End->getInteger("line")) {
    Err = "missing or malformed range";
    return nullptr;
  }
  std::vector<std::string> Only;
  const json::Object *Ctx = Params.getObject("context");
  if (Ctx)
    if (const json::Array *O = Ctx->getArray("only"))
      for (const json::Value &V : *O)
        if (auto S = V.getAsString())
          Only.push_back(S->str());
  auto Wanted = [&](StringRef Kind) {
    if (Only.empty())
      return true;
    for (const std::string &O : Only)
      if (Kind == O || Kind.starts_with(O + "."))
        return true;
    return false;
  };

  std::lock_guard<std::mutex> L(M);
  json::Array Actions;
  auto R = Results.find(Doc->first);
  auto D = Docs.find(Doc->first);
  // Only from the analysis of the text the editor has now: older offsets would edit the wrong code.
  if (R == Results.end() || D == Docs.end() || D->second.Version != R->second.Version) {
    if (Opts.Verbose)
      log("codeAction for " + Doc->first + ": " +
          (D == Docs.end()      ? "not open"
           : R == Results.end() ? "not analysed yet"
                                : "analysed version " + std::to_string(R->second.Version) +
                                      " is not the open version " + std::to_string(D->second.Version)));
    return Actions;
  }
  const Published &P = R->second;
  StringRef Text = P.Text;
  size_t From = lsp::offsetAt(Text, *Start->getInteger("line"), Start->getInteger("character").value_or(0), Enc);
  size_t To = lsp::offsetAt(Text, *End->getInteger("line"), End->getInteger("character").value_or(0), Enc);
  std::set<size_t> Asked; // findings named by the client's diagnostics (data.index)
  if (Ctx)
    if (const json::Array *Ds = Ctx->getArray("diagnostics"))
      for (const json::Value &V : *Ds)
        if (const json::Object *DO = V.getAsObject())
          if (const json::Object *Data = DO->getObject("data"))
            if (auto I = Data->getInteger("index"); I && Data->getInteger("version") == P.Version)
              Asked.insert(static_cast<size_t>(*I));
  for (size_t I = 0; I < P.Findings.size(); ++I) {
    const Finding &F = P.Findings[I];
    auto [B, E] = tokenAt(Text, F.Offset);
    // The line of the finding intersects the asked range (editors ask for the cursor's position).
    size_t LineBegin = Text.rfind('\n', B == 0 ? 0 : B - 1);
    LineBegin = (LineBegin == StringRef::npos || B == 0) ? 0 : LineBegin + 1;
    size_t LineEnd = Text.find('\n', B);
    if (LineEnd == StringRef::npos)
      LineEnd = Text.size();
    bool Hit = Asked.count(I) || (From <= LineEnd && To >= LineBegin);
    if (!Hit)
      continue;
    json::Object Diag = diagnosticOf(F, Doc->first, Text, I, P.Version);
    if (!F.Fixes.empty() && Wanted("quickfix")) {
      json::Object Changes;
      bool Ok = true;
      std::map<std::string, json::Array> PerFile;
      for (const Replacement &Rp : F.Fixes) {
        std::string FileText;
        if (Rp.File == F.File)
          FileText = Text.str();
        else
          FileText = readDisk(Rp.File, Ok);
        if (!Ok || Rp.Offset + Rp.Length > FileText.size()) {
          Ok = false;
          break;
        }
        PerFile[Rp.File].push_back(json::Object{
            {"range", lsp::rangeOf(FileText, Rp.Offset, Rp.Offset + Rp.Length, Enc)}, {"newText", Rp.Text}});
      }
      if (Ok) {
        for (auto &[File, Edits] : PerFile)
          Changes[File == F.File ? Doc->first : lsp::pathToUri(File)] = std::move(Edits);
        Actions.push_back(json::Object{{"title", "torchlint: apply the fix for " + F.Check},
                                       {"kind", "quickfix"},
                                       {"isPreferred", true},
                                       {"diagnostics", json::Array{json::Object(Diag)}},
                                       {"edit", json::Object{{"changes", std::move(Changes)}}}});
      }
    }
    if (Wanted("quickfix")) {
      std::string Comment = " // NOLINT(" + F.Check + ")";
      Actions.push_back(json::Object{
          {"title", "torchlint: suppress with NOLINT(" + F.Check + ")"},
          {"kind", "quickfix"},
          {"diagnostics", json::Array{std::move(Diag)}},
          {"edit",
           json::Object{{"changes", json::Object{{Doc->first, json::Array{json::Object{
                                                                  {"range", lsp::rangeOf(Text, LineEnd, LineEnd, Enc)},
                                                                  {"newText", Comment}}}}}}}}});
    }
  }
  // Every fix in the file at once, exactly as `torchlint --fix` applies them (overlapping fixes
  // skipped, the earlier finding first).
  if (Wanted("source.fixAll.torchlint")) {
    FixReport Rep;
    std::string Fixed = applyFixesToContent(Doc->second, Text, P.Findings, Rep);
    if (Rep.Applied && Fixed != Text) {
      // One edit: the part between the common prefix and the common suffix.
      StringRef A = Text, B = Fixed;
      size_t Pre = 0;
      while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
        ++Pre;
      size_t Suf = 0;
      while (Suf < A.size() - Pre && Suf < B.size() - Pre && A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
        ++Suf;
      Actions.push_back(json::Object{
          {"title", "torchlint: apply all " + std::to_string(Rep.Applied) + " fixes in this file"},
          {"kind", "source.fixAll.torchlint"},
          {"edit",
           json::Object{{"changes",
                         json::Object{{Doc->first, json::Array{json::Object{
                                                       {"range", lsp::rangeOf(Text, Pre, A.size() - Suf, Enc)},
                                                       {"newText", B.substr(Pre, B.size() - Pre - Suf).str()}}}}}}}}});
    }
  }
  return Actions;
}

void Server::handleRequest(const json::Value &Id, StringRef Method, const json::Object *Params) {
  if (Method == "initialize") {
    if (Initialized)
      return Out.replyError(Id, lsp::InvalidRequest, "initialize was already called");
    return Out.reply(Id, initialize(Params));
  }
  if (!Initialized)
    return Out.replyError(Id, lsp::ServerNotInitialized, "the server is not initialized: send initialize first");
  if (ShutDown)
    return Out.replyError(Id, lsp::InvalidRequest, "the server is shut down: only exit is accepted");
  if (Method == "shutdown") {
    ShutDown = true;
    {
      std::lock_guard<std::mutex> L(M);
      Pending.clear();
    }
    return Out.reply(Id, nullptr);
  }
  if (Method == "textDocument/codeAction") {
    if (!Params)
      return Out.replyError(Id, lsp::InvalidParams, "textDocument/codeAction: missing params");
    std::string Err;
    json::Value V = codeActions(*Params, Err);
    if (!Err.empty())
      return Out.replyError(Id, lsp::InvalidParams, "textDocument/codeAction: " + Err);
    return Out.reply(Id, std::move(V));
  }
  Out.replyError(Id, lsp::MethodNotFound, "method not found: " + Method.str());
}

void Server::handleNotification(StringRef Method, const json::Object *Params) {
  if (Method == "exit")
    return; // handled by run()
  if (!Initialized || ShutDown)
    return; // notifications before initialize and after shutdown are dropped
  bool Open = Method == "textDocument/didOpen", Change = Method == "textDocument/didChange",
       Save = Method == "textDocument/didSave", Close = Method == "textDocument/didClose";
  if (!Open && !Change && !Save && !Close)
    return; // initialized, $/cancelRequest, $/setTrace, workspace/didChangeConfiguration, ...: nothing to do
  std::string Err;
  auto Doc = document(Params, Err);
  if (!Doc) {
    logMessage(1, "torchlint: " + Method.str() + ": " + Err);
    return;
  }
  const json::Object *TD = Params->getObject("textDocument");
  std::unique_lock<std::mutex> L(M);
  if (Open) {
    auto Text = TD->getString("text");
    if (!Text) {
      L.unlock();
      logMessage(1, "torchlint: didOpen: missing textDocument.text");
      return;
    }
    Document &D = Docs[Doc->first];
    D.Path = Doc->second;
    D.Version = TD->getInteger("version").value_or(0);
    D.Text = Text->str();
    schedule(Doc->first, 0, "open");
    return;
  }
  auto D = Docs.find(Doc->first);
  if (D == Docs.end()) {
    L.unlock();
    logMessage(2, "torchlint: " + Method.str() + " for a document that is not open: " + Doc->first);
    return;
  }
  if (Close) {
    Docs.erase(D);
    Pending.erase(Doc->first);
    Results.erase(Doc->first);
    L.unlock();
    publish(Doc->first, std::nullopt, json::Array());
    return;
  }
  if (Change) {
    const json::Array *Changes = Params->getArray("contentChanges");
    if (!Changes || Changes->empty()) {
      L.unlock();
      logMessage(1, "torchlint: didChange: missing contentChanges");
      return;
    }
    // Full sync: the last whole-text change wins; a ranged change (a client that ignored our
    // capability) is applied as well.
    for (const json::Value &C : *Changes) {
      const json::Object *CO = C.getAsObject();
      auto T = CO ? CO->getString("text") : std::nullopt;
      if (!T)
        continue;
      const json::Object *R = CO->getObject("range");
      if (!R) {
        D->second.Text = T->str();
        continue;
      }
      const json::Object *S = R->getObject("start"), *E = R->getObject("end");
      if (!S || !E)
        continue;
      size_t B =
          lsp::offsetAt(D->second.Text, S->getInteger("line").value_or(0), S->getInteger("character").value_or(0), Enc);
      size_t En =
          lsp::offsetAt(D->second.Text, E->getInteger("line").value_or(0), E->getInteger("character").value_or(0), Enc);
      if (En < B)
        std::swap(B, En);
      D->second.Text = D->second.Text.substr(0, B) + T->str() + D->second.Text.substr(En);
    }
    D->second.Version = TD->getInteger("version").value_or(D->second.Version + 1);
    schedule(Doc->first, Opts.DebounceMs, "change");
    return;
  }
  // Save: analyse now (with the text the client sent, if any).
  if (auto T = Params->getString("text"); T && *T != D->second.Text) {
    D->second.Text = T->str();
  }
  schedule(Doc->first, 0, "save");
  // The open documents that read this file (a header) are analysed again, as the file on disk changed.
  for (auto &[Uri, P] : Results)
    if (Uri != Doc->first && std::find(P.Deps.begin(), P.Deps.end(), Doc->second) != P.Deps.end())
      schedule(Uri, Opts.DebounceMs, "save of " + Doc->second);
}

void Server::handle(const json::Value &Message) {
  const json::Object *O = Message.getAsObject();
  if (!O) {
    Out.replyError(nullptr, lsp::InvalidRequest, "a JSON-RPC message must be an object");
    return;
  }
  const json::Value *Id = O->get("id");
  std::optional<StringRef> Method = O->getString("method");
  if (!Method) {
    if (Id && (O->get("result") || O->get("error")))
      return; // a response to a request of ours (we send none that need one)
    Out.replyError(Id ? *Id : json::Value(nullptr), lsp::InvalidRequest, "message without a method");
    return;
  }
  const json::Value *P = O->get("params");
  const json::Object *Params = P ? P->getAsObject() : nullptr;
  if (P && !Params && P->kind() != json::Value::Null && Id) {
    Out.replyError(*Id, lsp::InvalidParams, Method->str() + ": params must be an object");
    return;
  }
  if (Opts.Verbose) {
    std::string Version;
    if (const json::Object *TD = Params ? Params->getObject("textDocument") : nullptr)
      if (auto V = TD->getInteger("version"))
        Version = " version " + std::to_string(*V);
    log("<- " + Method->str() + Version);
  }
  if (Id)
    handleRequest(*Id, *Method, Params);
  else
    handleNotification(*Method, Params);
}

int Server::run() {
  if (Opts.CacheDir.empty())
    Opts.CacheDir = defaultCacheDir();
  CrashRecoveryContext::Enable();
  // Analyses run on their own thread, with the stack the main thread would have.
  llvm::thread Worker(std::optional<unsigned>(16u << 20), [this] { worker(); });
  llvm::thread Indexer([this] { indexer(); });
  int Code = 1;
  for (;;) {
    std::string Body, Err;
    lsp::ReadStatus S = lsp::readMessage(stdin, Body, Err);
    if (S == lsp::ReadStatus::Eof) {
      log("end of input without exit");
      break;
    }
    if (S == lsp::ReadStatus::BadHeader) {
      log("bad message header: " + Err);
      Out.replyError(nullptr, lsp::ParseError, Err);
      continue;
    }
    Expected<json::Value> V = json::parse(Body);
    if (!V) {
      std::string Msg = toString(V.takeError());
      log("malformed JSON: " + Msg);
      Out.replyError(nullptr, lsp::ParseError, "malformed JSON: " + Msg);
      continue;
    }
    if (const json::Object *O = V->getAsObject(); O && O->getString("method") == StringRef("exit")) {
      Code = ShutDown ? 0 : 1;
      break;
    }
    handle(*V);
  }
  {
    std::lock_guard<std::mutex> L(M);
    Stopping = true;
    Pending.clear();
  }
  CV.notify_all();
  IndexCV.notify_all();
  // An analysis in flight is not waited for (nor is a background index: its child process
  // finishes writing the index on its own, atomically).
  std::fflush(Protocol);
  errs().flush();
  sys::Process::Exit(Code, /*NoCleanup=*/true);
  Worker.join();
  Indexer.join();
  return Code;
}

const char *Usage =
    "usage: torchlint lsp [options]\n"
    "  A Language Server Protocol server on stdin/stdout, beside clangd: diagnostics and fix-its\n"
    "  for the documents the editor has open (see docs/editors.md).\n"
    "options:\n"
    "  --compile-commands-dir=DIR  read DIR/compile_commands.json (default: walk up from each file,\n"
    "                              also trying build/; else torchlint's default libtorch flags)\n"
    "  --checks=GLOBS              clang-tidy check globs (default: levels 0 and 1; .clang-tidy files apply)\n"
    "  --level=N                   default set: 0 = level-0 checks only, 1 = levels 0 and 1\n"
    "  --debounce-ms=N             wait after the last change before analysing (default 400)\n"
    "  --cache-dir=DIR             results and precompiled headers (default: as the CLI)\n"
    "  --no-cache, --no-pch        as the CLI\n"
    "  --background-index[=false]  keep the project index of each compile database in use up to date\n"
    "                              (`torchlint index -p DIR` when first used and after each save), so\n"
    "                              findings use the whole project (docs/project-model.md); on by default,\n"
    "                              as clangd's; =false decides each file alone\n"
    "  --verbose                   log cache use and superseded work on stderr\n";

} // namespace

int lspMain(int argc, const char **argv) {
  setProjectIndexLookup(true); // main() turned it off for the CLI
  ServerOptions O;
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    auto Value = [&](StringRef Name, std::string &Into) {
      if (A.consume_front(Name)) {
        if (A.consume_front("=")) {
          Into = A.str();
          return true;
        }
        if (A.empty() && I + 1 < argc) {
          Into = argv[++I];
          return true;
        }
      }
      A = argv[I];
      return false;
    };
    std::string V;
    if (A == "--help" || A == "-h") {
      outs() << Usage;
      return 0;
    }
    if (A == "--stdio")
      continue; // what some clients pass
    if (Value("--compile-commands-dir", O.CompileCommandsDir) || Value("--checks", O.Checks) ||
        Value("--cache-dir", O.CacheDir))
      continue;
    if (Value("--level", V)) {
      O.Level = V == "0" ? 0 : 1;
      continue;
    }
    if (Value("--debounce-ms", V)) {
      if (StringRef(V).getAsInteger(10, O.DebounceMs) || O.DebounceMs < 0) {
        errs() << "torchlint lsp: error: --debounce-ms wants a number of milliseconds\n" << Usage;
        return 2;
      }
      continue;
    }
    if (A == "--no-cache") {
      O.NoCache = true;
      continue;
    }
    if (A == "--no-pch") {
      O.NoPch = true;
      continue;
    }
    if (A == "--background-index" || A == "--background-index=true" || A == "--background-index=1") {
      O.BackgroundIndex = true;
      continue;
    }
    if (A == "--background-index=false" || A == "--background-index=0") {
      O.BackgroundIndex = false;
      continue;
    }
    if (A == "--verbose" || A == "-v") {
      O.Verbose = true;
      continue;
    }
    errs() << "torchlint lsp: error: unknown argument '" << A << "'\n" << Usage;
    return 2;
  }
  // The protocol gets its own descriptor, and whatever else would write to stdout (clang, a check,
  // a library) goes to stderr instead of corrupting the message stream.
  std::FILE *Protocol = stdout;
  std::fflush(stdout);
  int Fd = ::dup(STDOUT_FILENO);
  if (Fd >= 0) {
    if (std::FILE *F = ::fdopen(Fd, "wb")) {
      Protocol = F;
      ::dup2(STDERR_FILENO, STDOUT_FILENO);
    } else {
      ::close(Fd);
    }
  }
  Server S(std::move(O), Protocol);
  return S.run();
}

} // namespace torchlint
