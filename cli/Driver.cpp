// torchlint: the command-line front end. Runs the torchlint clang-tidy module through the
// clang-tidy library (clang::tidy::runClangTidy) and writes clang-style text, JSON, SARIF or
// clang-tidy's export-fixes YAML.
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "cli/Accel.h"
#include "cli/PchCache.h"
#include "utils/FileHashes.h"
#include "cli/CudaHost.h"
#include "cli/InputCheck.h"
#include "cli/ProjectConfig.h"
#include "cli/ProjectFlags.h"
#include "cli/Progress.h"
#include "cli/ResultCache.h"
#include "cli/TidyErrors.h"
#include "cli/TorchInstall.h"
#include "core/Catalog.h"
#include "core/Findings.h"
#include "core/InstallLayout.h"
#include "core/Recovery.h"
#include "core/TraversalScope.h"
#include "fixits/ApplyFixes.h"
#include "fixits/VerifyFixes.h"
#include "lsp/LspServer.h"
#include "checkbase/TorchCheck.h"
#include "model/ProjectIndex.h"
#include "model/ProjectModel.h"
#include "report/CodeQuality.h"
#include "utils/JsonFile.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "cli/CompileDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <tuple>
#include <optional>
#include <thread>

using namespace llvm;
using namespace clang;

extern volatile int TorchlintModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED TorchlintModuleAnchorDestination = TorchlintModuleAnchorSource;

namespace {

cl::OptionCategory Category("torchlint options");

cl::list<std::string> Files(cl::Positional, cl::desc("<source files>"), cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory containing compile_commands.json"),
                               cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> Checks("checks",
                            cl::desc("Comma-separated check globs, clang-tidy syntax (e.g. "
                                     "'-*,torch-sync-*'). Default: every level 0 and 1 check"),
                            cl::cat(Category));
cl::opt<int> Level("level", cl::desc("Default set: 0 = level-0 checks only, 1 = levels 0 and 1"), cl::init(1),
                   cl::cat(Category));
cl::opt<std::string> FormatOpt("format",
                               cl::desc("Output format: text, json, sarif, yaml, html, markdown, codequality"),
                               cl::init("text"), cl::cat(Category));
cl::opt<std::string> Output("output", cl::desc("Write the report to this file instead of stdout"),
                            cl::value_desc("file"), cl::cat(Category));
cl::alias OutputA("o", cl::aliasopt(Output), cl::desc("Alias for --output"));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fix-its in place"), cl::cat(Category));
cl::opt<bool> Verify("verify",
                     cl::desc("With --fix: recompile each fixed file's translation unit and undo "
                              "the fixes of one that no longer compiles"),
                     cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("List the checks with their level and summary"), cl::cat(Category));
cl::opt<std::string> Explain("explain", cl::desc("Print the documentation of a check"), cl::value_desc("check"),
                             cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Translation units analysed in parallel (default: cores)"), cl::init(0),
                       cl::Prefix, cl::cat(Category));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("Regex of headers whose findings are shown (as clang-tidy)"), cl::init(""),
                                  cl::cat(Category));
cl::opt<std::string> Config("config",
                            cl::desc("Configuration in YAML/JSON, as clang-tidy's -config (then .clang-tidy "
                                     "files are not read), e.g. \"{CheckOptions: {torch-x.Opt: 8}}\""),
                            cl::init(""), cl::cat(Category));
cl::opt<bool> StrictIncludes("strict-includes",
                             cl::desc("A missing header ends the analysis of its file (an error, exit 2), as in "
                                      "clang-tidy. Default: the include is skipped, the rest of the file is "
                                      "analysed, and torchlint says which headers were missing"),
                             cl::cat(Category));
cl::opt<bool> AllowPartial("allow-partial",
                           cl::desc("A file with code left unjudged (compiler errors that follow from missing "
                                    "headers) is a notice, not an input error (exit 0/1 instead of 2/3); see "
                                    "docs/reliability.md"),
                           cl::cat(Category));
cl::opt<bool> NoSynthesis("no-synthesis",
                          cl::desc("Do not synthesise declarations for missing libraries that have no stand-in "
                                   "(the code that uses them is then not judged)"),
                          cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("No summary line"), cl::cat(Category));
cl::opt<std::string> ColorOpt("use-color", cl::desc("Colour the text output: auto (on a terminal), always, never"),
                              cl::init("auto"), cl::cat(Category));
cl::opt<bool> Worker("internal-worker", cl::Hidden, cl::desc("Run as a -j worker"));
// Speed (cli/Accel.h, PchCache.h, ResultCache.h).
cl::opt<std::string> CacheDir("cache-dir",
                              cl::desc("Cache of results and precompiled libtorch headers "
                                       "(default: $TORCHLINT_CACHE_DIR or ~/.cache/torchlint)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Do not read or write cached results (the PCH is still used)"),
                      cl::cat(Category));
cl::opt<bool> NoPch("no-pch", cl::desc("Do not precompile the leading #include <...> block"), cl::cat(Category));
cl::opt<bool> NoAccel("no-accel", cl::desc("Run as plain clang-tidy does: whole-AST traversal, no PCH, no cache"),
                      cl::cat(Category));
cl::opt<bool> PrintCudaHostFlags("print-cuda-host-flags",
                                  cl::desc("Print the compiler flags that parse a .cu file as CUDA host code without "
                                           "a CUDA toolkit (for clang-tidy with the plugin) and exit"),
                                  cl::cat(Category));
cl::opt<bool> AccelLog("accel-log", cl::Hidden, cl::desc("Report cache hits and PCH use on stderr"));
cl::opt<bool> ShowCompilerErrors("show-compiler-errors",
                                 cl::desc("Print each compiler error of a file analysed partially on stderr (they are "
                                          "otherwise folded into one input problem that names the functions left "
                                          "unjudged); use with --no-cache"),
                                 cl::cat(Category));

/// --show-compiler-errors: One's compiler errors, before foldPartialAnalysis folds them.
void showCompilerErrors(const torchlint::RunResult &One) {
  if (!ShowCompilerErrors)
    return;
  for (const torchlint::Finding &F : One.Findings)
    if (F.isCompilerError())
      errs() << F.File << ":" << F.Line << ":" << F.Column << ": error: " << F.Message << "\n";
}

std::string cacheRoot() { return CacheDir.empty() ? torchlint::defaultCacheDir() : CacheDir.getValue(); }
// Audit reports and integrations (docs/reports.md).
cl::opt<std::string> SarifRoot("sarif-root",
                               cl::desc("Directory that SARIF URIs and report paths are relative to "
                                        "(default: the compile database's directory, else the current one)"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> Baseline("baseline",
                              cl::desc("Report only findings absent from this earlier SARIF or JSON output "
                                       "(matched by fingerprint, not by line)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Since("since", cl::desc("Report only findings on lines changed since this git revision"),
                           cl::value_desc("git-ref"), cl::cat(Category));
cl::opt<std::string> Shard("shard", cl::desc("Analyse only slice K of N (1-based) of the files; see `torchlint merge`"),
                           cl::value_desc("K/N"), cl::cat(Category));
cl::opt<std::string> ProgressFile("internal-progress", cl::Hidden, cl::desc("Worker progress file"));
// The project model (issue 23, model/ProjectModel.h).
cl::opt<bool> NoProject("no-project",
                        cl::desc("With -p: decide what runs on every training step one file at a time, as "
                                 "before (default: from a model of every file of the compile database)"),
                        cl::cat(Category));
cl::opt<std::string> SummariesOut("internal-summaries", cl::Hidden,
                                  cl::desc("Worker: write the project-model summaries here"));

/// -p with the project model: every file of the compile database is summarised, the merged model
/// decides what runs per step, and the files named (all, when none is) are reported on.
bool ProjectMode = false;
/// `torchlint index -p BUILD`: project mode that writes the summaries to the project index
/// (model/ProjectIndex.h) for the plugin and the server, instead of a report.
bool IndexMode = false;

struct Options {
  std::vector<std::string> ExtraArgs; // after --
  bool HaveFixedArgs = false;
};

std::string checksGlob() { return Checks.empty() ? torchlint::defaultChecksGlob(Level) : Checks.getValue(); }

/// Warns about names in --checks that match no check.
void warnUnknownChecks(const std::string &Glob) {
  SmallVector<StringRef> Parts;
  StringRef(Glob).split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    P = P.trim();
    P.consume_front("-");
    if (P.empty() || P.contains('*') || !P.starts_with("torch-"))
      continue;
    if (!torchlint::findCheck(P))
      errs() << "torchlint: warning: unknown check '" << P << "' in --checks; see --list-checks\n";
  }
}

std::unique_ptr<tidy::ClangTidyOptionsProvider> makeOptionsProvider() {
  tidy::ClangTidyGlobalOptions Global;
  tidy::ClangTidyOptions Defaults = tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = torchlint::defaultChecksGlob(Level);
  Defaults.HeaderFilterRegex = HeaderFilter.getValue();
  Defaults.SystemHeaders = false;
  tidy::ClangTidyOptions Overrides;
  if (!Checks.empty())
    Overrides.Checks = Checks.getValue();
  if (HeaderFilter.getNumOccurrences())
    Overrides.HeaderFilterRegex = HeaderFilter.getValue();
  if (ProjectMode) // read by every check (TorchCheck::registerPPCallbacks); also in the cache key
    Overrides.CheckOptions["ProjectModel"] = tidy::ClangTidyOptions::ClangTidyValue("true", 1000);
  if (StrictIncludes) // read by every check (TorchCheck::registerPPCallbacks); also in the cache key
    Overrides.CheckOptions["StrictIncludes"] = tidy::ClangTidyOptions::ClangTidyValue("true", 1000);
  if (NoSynthesis) // read by every check as StrictIncludes; also in the cache key
    Overrides.CheckOptions["Synthesis"] = tidy::ClangTidyOptions::ClangTidyValue("false", 1000);
  if (AllowPartial) // read by the driver only; in the options so that it is in the cache key
    Overrides.CheckOptions["AllowPartial"] = tidy::ClangTidyOptions::ClangTidyValue("true", 1000);
  if (!Config.empty()) {
    auto Parsed = tidy::parseConfiguration(MemoryBufferRef(Config.getValue(), "--config"));
    if (!Parsed) {
      errs() << "torchlint: error: invalid --config: " << Parsed.getError().message() << "\n";
      return nullptr;
    }
    return std::make_unique<tidy::ConfigOptionsProvider>(std::move(Global), std::move(Defaults), std::move(*Parsed),
                                                         std::move(Overrides));
  }
  // A .clang-tidy that never names a torch check leaves the default set on (cli/ProjectConfig.h).
  return std::make_unique<torchlint::TorchOptionsProvider>(std::make_unique<tidy::FileOptionsProvider>(
      std::move(Global), std::move(Defaults), std::move(Overrides), vfs::getRealFileSystem()));
}

/// The database makeDatabase found where clangd looks: decided once, by the parent, and passed on
/// to the -j workers (with none found, each worker guesses the flags per file as the parent does).
std::string DiscoveredDatabase;
/// Without a compile database: each file's flags as guessed for it (cli/TorchInstall.h; the
/// include folders in the file's own order, cli/ProjectFlags.h nearestFirst), once per file (the
/// result cache's key and the analysis both ask).
class GuessedDatabase : public tooling::CompilationDatabase {
public:
  std::vector<tooling::CompileCommand> getCompileCommands(StringRef File) const override {
    auto It = Args.find(File.str());
    if (It == Args.end()) {
      std::string Summary;
      It = Args.emplace(File.str(), torchlint::guessedCompileFlags(File.str(), Summary)).first;
    }
    return tooling::FixedCompilationDatabase(".", It->second).getCompileCommands(File);
  }

private:
  mutable std::map<std::string, std::vector<std::string>> Args;
};

/// The compilation database: `-- flags`, -p, one found where clangd looks for one, or flags
/// guessed from the project's build files and the libtorch found (-std=c++17 or c++20 as its
/// headers need, or newer as the project's build says).
std::unique_ptr<tooling::CompilationDatabase> makeDatabase(std::unique_ptr<tooling::CompilationDatabase> Fixed,
                                                           const std::vector<std::string> &Inputs,
                                                           torchlint::RunResult &R) {
  std::unique_ptr<tooling::CompilationDatabase> DB;
  std::string Err;
  if (Fixed) {
    DB = std::move(Fixed);
  } else if (!BuildPath.empty()) {
    // compile_commands.json: the parse the input checks made (cli/CompileDatabase.h).
    SmallString<256> InDir(BuildPath.getValue());
    sys::path::append(InDir, "compile_commands.json");
    if (!sys::fs::is_directory(BuildPath) && sys::path::filename(BuildPath) == "compile_commands.json")
      DB = torchlint::jsonDatabaseAsWritten(BuildPath, Err);
    else if (sys::fs::is_regular_file(InDir))
      DB = torchlint::interpolatedJsonDatabase(InDir, Err);
    else
      DB = tooling::CompilationDatabase::loadFromDirectory(BuildPath, Err);
    if (!DB) {
      R.Errors.push_back("cannot read the compilation database in '" + BuildPath.getValue() + "': " + Err);
      return nullptr;
    }
  } else if (!Inputs.empty()) {
    // Where clangd looks (cli/ProjectFlags.h); the -j workers are given the one found with -p.
    torchlint::DatabaseFound Found = torchlint::findCompileDatabase(Inputs.front());
    if (sys::path::filename(Found.Path) == "compile_commands.json")
      DB = torchlint::interpolatedJsonDatabase(Found.Path, Err);
    else if (!Found.Path.empty())
      DB = tooling::CompilationDatabase::loadFromDirectory(sys::path::parent_path(Found.Path), Err);
    if (DB) {
      DiscoveredDatabase = Found.Path;
      if (!Worker && !Quiet)
        errs() << "torchlint: compile database: " << Found.Path << " (" << Found.Why << "; -p DIR chooses another)\n";
    }
  }
  if (!DB) {
    // The project's build files and the libtorch found (cli/TorchInstall.h), guessed per file
    // (GuessedDatabase); the line on stderr says what the first file got.
    std::string Summary;
    torchlint::guessedCompileFlags(Inputs.empty() ? std::string(".") : Inputs.front(), Summary);
    if (!Worker && !Quiet)
      errs() << "torchlint: " << Summary << "\n";
    DB = std::make_unique<GuessedDatabase>();
  }
  auto Adjusted = std::make_unique<tooling::ArgumentsAdjustingCompilations>(std::move(DB));
  // No "N warnings generated." on stderr (findings are reported by torchlint, not by clang).
  Adjusted->appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster("-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
  // .cu files: CUDA host code, parsed without a CUDA toolkit (cli/CudaHost.h).
  Adjusted->appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, StringRef File) {
    if (!torchlint::isCudaSource(File))
      return Args;
    static const std::string Header = [] {
      std::string Err, H = torchlint::cudaHostHeader(cacheRoot(), Err);
      if (H.empty())
        errs() << "torchlint: warning: CUDA files are parsed as C++: " << Err << "\n";
      return H;
    }();
    return Header.empty() ? Args : torchlint::cudaHostArgs(Args, File, Header);
  });
  // Our binary does not live next to clang's builtin headers: point at them.
  Adjusted->appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, StringRef) {
    for (const std::string &A : Args)
      if (StringRef(A).starts_with("-resource-dir"))
        return Args;
    tooling::CommandLineArguments Out = Args;
    Out.insert(Out.begin() + (Out.empty() ? 0 : 1),
               "-resource-dir=" + torchlint::clangResourceDir(TORCHLINT_CLANG_RESOURCE_DIR));
    return Out;
  });
  return Adjusted;
}

int runWorkers(const std::vector<std::string> &Inputs, unsigned N, const std::vector<std::string> &Extra,
               torchlint::RunResult &R, torchlint::Progress &Prog, std::map<std::string, std::string> &Summaries) {
  std::string Self = sys::fs::getMainExecutable("torchlint", (void *)&runWorkers);
  std::vector<std::vector<std::string>> Groups(N);
  for (size_t I = 0; I < Inputs.size(); ++I)
    Groups[I % N].push_back(Inputs[I]);
  struct Child {
    sys::ProcessInfo PI;
    std::string Out;
    std::vector<std::string> Files;
  };
  std::vector<Child> Children;
  for (auto &G : Groups) {
    if (G.empty())
      continue;
    SmallString<128> Tmp;
    sys::fs::createTemporaryFile("torchlint-worker", "json", Tmp);
    // What the user said, and only that: a --checks here would override every .clang-tidy file.
    std::vector<std::string> Args = {Self, "--internal-worker", "--format=json", "--output=" + std::string(Tmp)};
    if (!Checks.empty())
      Args.push_back("--checks=" + Checks.getValue());
    if (Level.getNumOccurrences())
      Args.push_back("--level=" + std::to_string(Level.getValue()));
    if (Prog.enabled())
      Args.push_back("--internal-progress=" + std::string(Tmp) + ".progress");
    if (ProjectMode)
      Args.push_back("--internal-summaries=" + std::string(Tmp) + ".summaries");
    if (!BuildPath.empty())
      Args.push_back("-p=" + BuildPath.getValue());
    else if (!DiscoveredDatabase.empty())
      Args.push_back("-p=" + sys::path::parent_path(DiscoveredDatabase).str());
    if (HeaderFilter.getNumOccurrences())
      Args.push_back("--header-filter=" + HeaderFilter.getValue());
    if (!Config.empty())
      Args.push_back("--config=" + Config.getValue());
    for (auto [On, Flag] : {std::pair<bool, const char *>{NoCache, "--no-cache"},
                            {NoPch, "--no-pch"},
                            {NoAccel, "--no-accel"},
                            {AccelLog, "--accel-log"},
                            {StrictIncludes, "--strict-includes"},
                            {AllowPartial, "--allow-partial"},
                            {NoSynthesis, "--no-synthesis"},
                            {NoProject, "--no-project"}})
      if (On)
        Args.push_back(Flag);
    Args.push_back("--cache-dir=" + cacheRoot());
    for (auto &F : G)
      Args.push_back(F);
    if (!Extra.empty()) {
      Args.push_back("--");
      Args.insert(Args.end(), Extra.begin(), Extra.end());
    }
    // Guessed flags: each worker guesses them as this process does, per file (GuessedDatabase).
    std::vector<StringRef> Refs(Args.begin(), Args.end());
    std::string Err;
    Child C;
    C.PI = sys::ExecuteNoWait(Self, Refs, std::nullopt, {}, 0, &Err);
    C.Out = std::string(Tmp);
    C.Files = G;
    if (!C.PI.Pid) {
      R.Errors.push_back("cannot start a worker: " + Err);
      continue;
    }
    Children.push_back(std::move(C));
  }
  std::vector<std::optional<sys::ProcessInfo>> Finished(Children.size());
  for (bool Running = Prog.enabled(); Running;) { // poll, showing the workers' progress
    Running = false;
    unsigned FilesDone = 0, Found = 0;
    for (size_t I = 0; I < Children.size(); ++I) {
      if (!Finished[I]) {
        sys::ProcessInfo W = sys::Wait(Children[I].PI, 0);
        if (W.Pid == Children[I].PI.Pid)
          Finished[I] = W;
        else
          Running = true;
      }
      torchlint::readProgress(Children[I].Out + ".progress", FilesDone, Found);
    }
    Prog.update(std::min<unsigned>(FilesDone, Inputs.size() - 1), Found, /*FindingsKnown=*/false);
    if (Running)
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (size_t I = 0; I < Children.size(); ++I) {
    Child &C = Children[I];
    std::string Err;
    std::optional<sys::ProcessStatistics> Stat;
    sys::ProcessInfo Done = Finished[I] ? *Finished[I] : sys::Wait(C.PI, std::nullopt, &Err, &Stat);
    if (AccelLog && Stat) // tools/bench reads this
      errs() << formatv("torchlint: worker {0} ({1} files): peak RSS {2} MB, {3:f1} s CPU\n", C.PI.Pid, C.Files.size(),
                        Stat->PeakMemory / 1024, Stat->TotalTime.count() / 1e6);
    sys::fs::remove(C.Out + ".progress");
    auto Buf = MemoryBuffer::getFile(C.Out);
    std::string JErr;
    if (Done.ReturnCode < 0 || Done.ReturnCode > 3 || !Buf || !torchlint::readJson((*Buf)->getBuffer(), R, JErr)) {
      std::string Names;
      for (auto &F : C.Files)
        Names += (Names.empty() ? "" : ", ") + F;
      R.Errors.push_back("the analysis of " + Names + " crashed or failed (exit " + std::to_string(Done.ReturnCode) +
                         (Err.empty() ? "" : ", " + Err) + ")");
    }
    sys::fs::remove(C.Out);
    if (ProjectMode) {
      if (std::optional<json::Value> V = torchlint::readJsonFile(C.Out + ".summaries"))
        if (const json::Object *O = V->getAsObject())
          for (const auto &[File, Text] : *O)
            if (auto T = Text.getAsString())
              Summaries[File.str()] = T->str();
      sys::fs::remove(C.Out + ".summaries");
    }
  }
  Prog.update(Inputs.size(), R.findingCount());
  return 0;
}

/// Report paths are relative to --sarif-root, else the compile database's directory, else cwd.
torchlint::ReportOptions reportOptions() {
  torchlint::ReportOptions O;
  SmallString<256> Root(SarifRoot.empty() ? BuildPath.getValue() : SarifRoot.getValue());
  if (!Root.empty() && !sys::fs::is_directory(Root))
    sys::path::remove_filename(Root); // -p build/compile_commands.json
  if (Root.empty())
    sys::fs::current_path(Root);
  sys::fs::make_absolute(Root);
  sys::path::remove_dots(Root, true);
  O.Root = std::string(Root);
  O.ProbeDir = torchlint::torchlintHome() + "/docs/probe";
  return O;
}

} // namespace

/// `torchlint trace [options] -- PROGRAM [ARGS...]`: runs tools/torchlint_trace.py (issue 15), with
/// the preload library built next to this binary (../lib/libtorchlint-trace.so) when there is one.
static int traceMain(int argc, const char **argv) {
  std::string Script = torchlint::torchlintHome() + "/tools/torchlint_trace.py";
  auto Python = sys::findProgramByName("python3");
  if (!Python || !sys::fs::exists(Script)) {
    errs() << "torchlint trace: error: needs python3 and " << Script << "\n";
    return 2;
  }
  SmallString<256> Lib(
      sys::path::parent_path(sys::path::parent_path(sys::fs::getMainExecutable("torchlint", (void *)&traceMain))));
  sys::path::append(Lib, "lib", "libtorchlint-trace.so");
  if (sys::fs::exists(Lib) && !getenv("TORCHLINT_TRACE_LIB"))
    setenv("TORCHLINT_TRACE_LIB", Lib.c_str(), 1);
  std::vector<StringRef> Args{*Python, Script};
  for (int I = 1; I < argc; ++I)
    Args.push_back(argv[I]);
  return sys::ExecuteAndWait(*Python, Args);
}

namespace {

// The steps of main(), in order.

/// --list-checks and --explain: answered from the catalog, no analysis. nullopt when neither.
std::optional<int> answerInfoCommand() {
  if (PrintCudaHostFlags) { // cli/CudaHost.h
    std::string Err, H = torchlint::cudaHostHeader(cacheRoot(), Err);
    if (H.empty()) {
      errs() << "torchlint: error: " << Err << "\n";
      return 2;
    }
    std::vector<std::string> Args = torchlint::cudaHostArgs({"clang++"}, "", H);
    for (size_t I = 1; I < Args.size(); ++I)
      outs() << (I > 1 ? " " : "") << Args[I];
    outs() << "\n";
    return 0;
  }
  if (ListChecks) {
    for (const torchlint::CheckInfo &C : torchlint::catalog())
      outs() << formatv("{0,-32} level {1,-7} {2,-20} {3}{4}\n", C.Name, C.Level, C.Category, C.Fixable ? "[fix] " : "",
                        C.Summary);
    return 0;
  }
  if (Explain.empty())
    return std::nullopt;
  const torchlint::CheckInfo *C = torchlint::findCheck(Explain);
  if (!C) {
    errs() << "torchlint: error: unknown check '" << Explain << "'; see --list-checks\n";
    return 2;
  }
  std::string Path = torchlint::torchlintHome() + "/" + C->docPath();
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    outs() << C->Name << " (level " << C->Level << ", " << C->Category << ")\n\n"
           << C->Summary << "\n\n"
           << C->Description << "\n\nSource: " << C->Seed << "\n";
    return 0;
  }
  outs() << (*Buf)->getBuffer();
  return 0;
}

/// --format; nullopt (after saying why) when unknown.
std::optional<torchlint::Format> parseFormat() {
  if (FormatOpt == "text")
    return torchlint::Format::Text;
  if (FormatOpt == "json")
    return torchlint::Format::Json;
  if (FormatOpt == "sarif")
    return torchlint::Format::Sarif;
  if (FormatOpt == "yaml")
    return torchlint::Format::Yaml;
  if (FormatOpt == "html")
    return torchlint::Format::Html;
  if (FormatOpt == "markdown" || FormatOpt == "md")
    return torchlint::Format::Markdown;
  if (FormatOpt == "codequality") // GitLab Code Quality (report/CodeQuality.cpp)
    return torchlint::Format::CodeQuality;
  errs() << "torchlint: error: unknown --format '" << FormatOpt
         << "' (text, json, sarif, yaml, html, markdown, codequality)\n";
  return std::nullopt;
}

/// Warnings about the options themselves: unknown checks (in --checks, --config or a
/// .clang-tidy file), --verify without --fix.
void warnAboutOptions(const std::vector<std::string> &Inputs) {
  if (Verify && !Fix)
    errs() << "torchlint: warning: --verify does nothing without --fix\n";
  if (Worker)
    return;
  if (Config.empty()) {
    for (const std::string &W : torchlint::unknownChecksInConfigFiles(Inputs))
      errs() << "torchlint: warning: " << W << "\n";
    if (auto P = makeOptionsProvider())
      for (const std::string &W : torchlint::configsDisablingEveryTorchCheck(*P, Inputs))
        errs() << "torchlint: warning: " << W << "\n";
  }
  else if (auto P = tidy::parseConfiguration(MemoryBufferRef(Config.getValue(), "--config")); P && P->Checks)
    for (const std::string &N : torchlint::unknownCheckNames(*P->Checks))
      errs() << "torchlint: warning: unknown check '" << N << "' in --config; see --list-checks\n";
}

/// One run of the CLI: what the steps share.
struct Run {
  std::unique_ptr<tooling::CompilationDatabase> Fixed; // the flags after "--", if any
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> Inputs;
  std::unique_ptr<tooling::CompilationDatabase> DB;
  torchlint::RunResult R;
  torchlint::FileHashes Seen; // what the analysis read, for --fix to refuse files changed since
  bool AnalysisCrashed = false;
  // Project mode: the files of the database analysed only for the model (not reported on), and
  // every TU's summary (JSON text) by file.
  std::vector<std::string> ModelOnly;
  std::map<std::string, std::string> Summaries;
};

/// The results of Run.Inputs: from the result cache where the inputs are unchanged, else by
/// analysing them (in -j worker processes, or here one TU at a time). Returns false on a tool
/// error that ends the run.
bool analyzeInputs(Run &Run, torchlint::Progress &Prog) {
  torchlint::RunResult &R = Run.R;
  // Results cached from an earlier run with the same inputs need no analysis (ResultCache.h).
  if (!Run.Inputs.empty() && !Run.DB)
    Run.DB = makeDatabase(std::move(Run.Fixed), Run.Inputs, R);
  if (AccelLog && !Worker) // each compile_commands.json is parsed once (cli/CompileDatabase.h)
    errs() << "torchlint: compile_commands.json parsed " << torchlint::jsonDatabaseParses() << " time(s)\n";
  std::optional<torchlint::ResultCache> Cache;
  if (!NoCache && !NoAccel)
    Cache.emplace(cacheRoot());
  std::vector<std::string> Todo;
  std::map<std::string, std::string> Keys;
  auto KeyProvider = makeOptionsProvider();
  if (!KeyProvider)
    return false;
  std::vector<std::string> All = Run.Inputs;
  All.insert(All.end(), Run.ModelOnly.begin(), Run.ModelOnly.end());
  for (const std::string &F : Run.DB ? All : std::vector<std::string>()) {
    if (Cache) {
      std::string K = Cache->key(*Run.DB, F, KeyProvider->getOptions(F));
      // A partial analysis is cached as it was folded (foldPartialAnalysis): under these flags.
      if (!K.empty() && (AllowPartial || StrictIncludes))
        K += std::string("-") + (AllowPartial ? "a" : "") + (StrictIncludes ? "s" : "");
      std::string Summary;
      if (Cache->lookup(K, R, ProjectMode ? &Summary : nullptr)) {
        if (ProjectMode)
          Run.Summaries[F] = std::move(Summary);
        if (AccelLog)
          errs() << "torchlint: " << F << ": cached result\n";
        continue;
      }
      Keys[F] = K;
    }
    Todo.push_back(F);
  }
  // A worker hands its summaries back in a file (the parent's runWorkers reads it).
  auto WriteSummaries = make_scope_exit([&] {
    if (SummariesOut.empty())
      return;
    json::Object O;
    for (auto &[File, Text] : Run.Summaries)
      O[File] = Text;
    std::error_code EC;
    raw_fd_ostream OS(SummariesOut, EC);
    if (!EC)
      OS << json::Value(std::move(O));
  });
  if (Todo.empty())
    return true;

  unsigned N = Jobs ? Jobs.getValue() : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  N = std::min<unsigned>(N, Todo.size());
  if (N > 1 && !Worker) {
    runWorkers(Todo, N, Run.ExtraArgs, R, Prog, Run.Summaries);
    // The workers' headers were read in other processes: hash them now (weaker; see
    // docs/reliability.md).
    if (Fix)
      for (const torchlint::Finding &F : R.Findings)
        for (const torchlint::Replacement &Rp : F.Fixes)
          if (!Run.Seen.lookup(Rp.File))
            Run.Seen.recordFromDisk(Rp.File);
    return true;
  }
  IntrusiveRefCntPtr<vfs::FileSystem> Real = vfs::getRealFileSystem();
  if (Fix && !Worker)
    Real = makeIntrusiveRefCnt<torchlint::HashingFileSystem>(Real, Run.Seen);
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Real);
  // A file whose flags find torch/extension.h and no Python.h reads it as its C++ part
  // (core/Recovery.h, pythonlessTorchExtension): its own file system, and a notice.
  // (The notice only when the file reached torch/extension.h: ExtensionRead.)
  std::shared_ptr<std::atomic<bool>> ExtensionRead;
  auto FileSystemFor = [&](const std::string &F) -> IntrusiveRefCntPtr<vfs::OverlayFileSystem> {
    ExtensionRead.reset();
    std::vector<tooling::CompileCommand> Cmds = Run.DB->getCompileCommands(F);
    if (Cmds.empty())
      return BaseFS;
    auto FS = torchlint::withPythonlessTorchExtension(Real, Cmds.front().CommandLine, Cmds.front().Directory,
                                                      ExtensionRead);
    return ExtensionRead ? FS : BaseFS;
  };
  auto ExtensionNotice = [&](const std::string &F, torchlint::RunResult &One) {
    if (ExtensionRead && *ExtensionRead)
      One.Notices.push_back(torchlint::pythonlessTorchExtensionNotice(F));
  };
  // A crash in the analysis (a clang or torchlint bug) becomes an input error naming the
  // files, not a stack dump: see docs/reliability.md.
  CrashRecoveryContext::Enable();
  auto Crashed = [&](const std::vector<std::string> &Files) {
    std::string Names;
    for (const std::string &F : Files)
      Names += (Names.empty() ? "'" : ", '") + F + "'";
    R.Errors.push_back(Names +
                       ": the analysis crashed (a bug in torchlint or clang; please report it "
                       "with the file); no findings from " +
                       (Files.size() == 1 ? "it" : "them"));
    Run.AnalysisCrashed = true;
  };
  // One TU's results into R (after foldPartialAnalysis: a TU with missing headers was analysed
  // partially, core/Recovery.h).
  auto Merge = [&](torchlint::RunResult &One) {
    R.FilesAnalyzed += One.FilesAnalyzed;
    for (torchlint::Finding &Fd : One.Findings)
      R.Findings.push_back(std::move(Fd));
    for (std::string &E : One.Errors)
      R.Errors.push_back(std::move(E));
    for (std::string &N : One.Notices)
      R.Notices.push_back(std::move(N));
  };
  if (NoAccel) {
    // As clang-tidy, one TU at a time (each with its own context, so that its results are its own).
    for (const std::string &F : Todo) {
      tidy::ClangTidyContext Context(makeOptionsProvider());
      std::vector<tidy::ClangTidyError> Errors;
      CrashRecoveryContext CRC;
      IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS = FileSystemFor(F);
      if (!CRC.RunSafely([&] { Errors = tidy::runClangTidy(Context, *Run.DB, {F}, FS, /*ApplyAnyFix=*/true); })) {
        Crashed({F});
        continue;
      }
      torchlint::RunResult One;
      ExtensionNotice(F, One);
      torchlint::collectTidyErrors(Errors, One);
      One.FilesAnalyzed = 1;
      if (!ProgressFile.empty())
        torchlint::appendProgress(ProgressFile, One.findingCount());
      showCompilerErrors(One);
      torchlint::foldPartialAnalysis(One, F, StrictIncludes, AllowPartial);
      Merge(One);
    }
    return true;
  }
  torchlint::AccelOptions AO;
  if (!NoPch)
    AO.PchCacheDir = cacheRoot();
  AO.Summary = ProjectMode;
  for (const std::string &F : Todo) {
    // A context per TU: analyzeTU gives each TU its own DiagnosticIDs, and a context maps
    // diagnostic IDs to check names for its whole life.
    tidy::ClangTidyContext TUContext(makeOptionsProvider());
    torchlint::TUAnalysis A;
    CrashRecoveryContext CRC;
    IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS = FileSystemFor(F);
    if (!CRC.RunSafely([&] { A = torchlint::analyzeTU(TUContext, *Run.DB, F, FS, /*ApplyAnyFix=*/true, AO); })) {
      Crashed({F});
      continue;
    }
    torchlint::RunResult One;
    ExtensionNotice(F, One);
    torchlint::collectTidyErrors(A.Errors, One);
    One.FilesAnalyzed = 1;
    if (AccelLog)
      errs() << "torchlint: " << F << ": analysed, pch "
             << (A.UsedPch ? (A.BuiltPch ? "built" : "reused") : "none (" + A.NoPchWhy + ")") << ", " << A.Deps.size()
             << " files read\n";
    showCompilerErrors(One);
    torchlint::foldPartialAnalysis(One, F, StrictIncludes, AllowPartial);
    // A partial analysis too (or one typed through stand-in or synthesised declarations): once a
    // missing header is installed where the search would find it (A.Absent), it is analysed again.
    if (Cache)
      Cache->store(Keys[F], One, A.Deps, A.Absent, A.Summary);
    if (ProjectMode && !A.Summary.empty())
      Run.Summaries[F] = std::move(A.Summary);
    if (!ProgressFile.empty())
      torchlint::appendProgress(ProgressFile, One.findingCount());
    Merge(One);
    Prog.update(R.FilesAnalyzed, R.findingCount());
  }
  return true;
}

/// P absolute, without . and .. (how findings name their files).
std::string absolutePath(StringRef P) {
  SmallString<256> A(P);
  sys::fs::make_absolute(A);
  sys::path::remove_dots(A, true);
  return std::string(A);
}

template <typename Summaries> void addSummaries(torchlint::model::ProjectModel &M, const Summaries &S) {
  for (auto &[File, Text] : S) {
    Expected<json::Value> V = json::parse(Text);
    if (!V) {
      consumeError(V.takeError());
      M.addJson(json::Value(nullptr), File);
      continue;
    }
    M.addJson(*V, File);
  }
  M.finish();
}

/// A finding in a header's inline function comes from every TU that includes it; once the project
/// model has decided them, the project has one (the first, in the order the files were analysed):
/// each TU may word it after what it knows of its own calls, but it is one place and one fix.
void keepOnePerPlace(torchlint::RunResult &R) {
  std::set<std::tuple<std::string, std::string, unsigned, unsigned>> Seen;
  llvm::erase_if(R.Findings, [&](const torchlint::Finding &F) {
    return !F.isCompilerError() && !Seen.insert({F.Check, F.File, F.Line, F.Column}).second;
  });
}

/// `torchlint merge` of project-mode shards: the model of every shard's summaries decides the
/// findings they carry undecided (keepForMerge).
void decideMerged(torchlint::RunResult &R) {
  if (R.Summaries.empty())
    return;
  torchlint::model::ProjectModel M;
  addSummaries(M, R.Summaries);
  for (const std::string &N : M.notes())
    errs() << "torchlint merge: note: " << N << "\n";
  std::vector<torchlint::Finding> Kept;
  for (torchlint::Finding &F : R.Findings)
    if (M.resolve(F))
      Kept.push_back(std::move(F));
  R.Findings = std::move(Kept);
  keepOnePerPlace(R);
}

/// A partial analysis ("'f.cpp': analysed partially: ...", core/Recovery.h foldPartialAnalysis) of a
/// file read only for the project model is not the user's input problem: `torchlint -p build
/// a.cpp` asks about a.cpp, and another file's missing header must not fail the run (exit 2/3).
/// Those problems and notices become one notice naming the files (what their unjudged code does
/// is missing from the model); a crash stays an error.
void foldModelOnlyProblems(Run &Run, const std::set<std::string> &Hidden, std::vector<std::string> Partial) {
  if (Hidden.empty())
    return;
  auto FileOf = [&](const std::string &Msg) -> std::optional<std::string> {
    StringRef M(Msg);
    if (!M.consume_front("'"))
      return std::nullopt;
    size_t End = M.find("': ");
    if (End == StringRef::npos)
      return std::nullopt;
    std::string F = absolutePath(M.take_front(End));
    if (!Hidden.count(F))
      return std::nullopt;
    return F;
  };
  auto Move = [&](std::vector<std::string> &From, bool Errors) {
    std::vector<std::string> Kept;
    for (std::string &E : From) {
      std::optional<std::string> F = FileOf(E);
      if (!F || (Errors && StringRef(E).contains(": the analysis crashed"))) {
        Kept.push_back(std::move(E));
        continue;
      }
      if (Errors)
        Partial.push_back(*F);
    }
    From = std::move(Kept);
  };
  Move(Run.R.Errors, true);
  Move(Run.R.Notices, false);
  if (Partial.empty())
    return;
  std::sort(Partial.begin(), Partial.end());
  Partial.erase(std::unique(Partial.begin(), Partial.end()), Partial.end());
  std::string Msg = std::to_string(Partial.size()) + " file" + (Partial.size() == 1 ? "" : "s") +
                    " of the compile database read only for the project model " +
                    (Partial.size() == 1 ? "was" : "were") +
                    " analysed partially (missing headers or compiler errors; what their unjudged code does is "
                    "not in the model): ";
  for (size_t I = 0; I < Partial.size() && I < 5; ++I)
    Msg += (I ? ", " : "") + Partial[I];
  if (Partial.size() > 5)
    Msg += ", ... (" + std::to_string(Partial.size() - 5) + " more)";
  Msg += "; name them to see why";
  Run.R.Notices.push_back(std::move(Msg));
}

/// Keeps the findings Decide accepts (it may reword them), leaving out those of the files analysed
/// only for the project model (compiler errors stay).
template <typename Fn> void keepReported(Run &Run, Fn Decide) {
  std::set<std::string> Hidden;
  for (const std::string &F : Run.ModelOnly)
    Hidden.insert(absolutePath(F));
  std::vector<torchlint::Finding> Kept;
  std::vector<std::string> WithErrors; // model-only files with compiler errors
  for (torchlint::Finding &F : Run.R.Findings) {
    if (F.isCompilerError() && Hidden.count(F.File))
      WithErrors.push_back(F.File);
    else if (Decide(F) && (F.isCompilerError() || !Hidden.count(F.File)))
      Kept.push_back(std::move(F));
  }
  Run.R.Findings = std::move(Kept);
  foldModelOnlyProblems(Run, Hidden, std::move(WithErrors));
}

/// A project-mode shard (`-p build --shard K/N`): its slice of every file of the database is
/// analysed; the findings stay undecided (with their basis) and the summaries go with the results,
/// for `torchlint merge` (decideMerged). Findings of files only analysed for the model are left out.
void keepForMerge(Run &Run) {
  keepReported(Run, [](torchlint::Finding &) { return true; });
  Run.R.Summaries.assign(Run.Summaries.begin(), Run.Summaries.end());
}

/// Project mode: merges the summaries into the project model, decides every finding that rests on
/// code being hot (model/HotBasis.h), and leaves out the findings of files analysed only for the
/// model. The model's notes (bad input) go to stderr.
void decideWithProjectModel(Run &Run) {
  if (!ProjectMode || Worker)
    return;
  torchlint::model::ProjectModel M;
  addSummaries(M, Run.Summaries);
  if (!Quiet)
    for (const std::string &N : M.notes())
      errs() << "torchlint: note: " << N << "\n";
  keepReported(Run, [&](torchlint::Finding &F) { return M.resolve(F); });
  keepOnePerPlace(Run.R);
}

/// `torchlint index`: the summaries of every file of the database, written to --output or
/// BUILD/torchlint-index.json. 0, or 2 when it cannot be written or a file could not be analysed.
int writeProjectIndex(Run &Run, torchlint::Progress &Prog) {
  Prog.finish();
  SmallString<256> Path(Output.empty() ? StringRef(BuildPath.getValue()) : StringRef(Output.getValue()));
  if (Output.empty())
    sys::path::append(Path, torchlint::model::IndexFileName);
  SmallString<256> Database(BuildPath.getValue());
  sys::fs::make_absolute(Database);
  sys::path::append(Database, "compile_commands.json");
  std::string Err;
  if (!torchlint::model::writeIndex(Path, Database, Run.Summaries, Err)) {
    errs() << "torchlint: error: " << Err << "\n";
    return 2;
  }
  for (const std::string &E : Run.R.Errors)
    errs() << "torchlint: error: " << E << "\n";
  if (!Quiet)
    errs() << "torchlint: wrote the project index of " << Run.Summaries.size() << " translation unit"
           << (Run.Summaries.size() == 1 ? "" : "s") << " to " << Path
           << " (the clang-tidy plugin and `torchlint lsp` read it)\n";
  return Run.R.Errors.empty() ? 0 : 2;
}

/// --baseline and --since: drop the findings the user already knows of.
void filterKnownFindings(torchlint::RunResult &R) {
  if (Worker)
    return;
  if (!Baseline.empty()) {
    torchlint::RunResult Base;
    std::string Err;
    if (!torchlint::readResultsFile(Baseline, Base, Err))
      R.Errors.push_back("--baseline: " + Err);
    else if (unsigned Known = torchlint::applyBaseline(R, Base); Known && !Quiet)
      errs() << "torchlint: " << Known << (Known == 1 ? " finding" : " findings") << " already in the baseline\n";
  }
  if (!Since.empty()) {
    std::string Err;
    if (!torchlint::filterSinceGitRef(R, Since, Err))
      R.Errors.push_back(Err);
  }
}

/// --fix (and --verify): applies the fix-its atomically, file by file, refusing files changed
/// since they were read; --verify recompiles and undoes the fixes of a file that no longer compiles.
void applyFixIts(Run &Run) {
  if (!Fix || Worker)
    return;
  torchlint::RunResult &R = Run.R;
  torchlint::FixReport FR = torchlint::applyFixes(R, &Run.Seen);
  for (const std::string &C : FR.Conflicts)
    errs() << "torchlint: warning: " << C << "\n";
  for (const std::string &E : FR.Errors)
    R.Errors.push_back("--fix: " + E);
  if (Verify && !FR.FilesChanged.empty()) {
    if (!Run.DB)
      Run.DB = makeDatabase(std::move(Run.Fixed), Run.Inputs, R);
    if (Run.DB) {
      torchlint::VerifyReport VR = torchlint::verifyFixes(FR, Run.Inputs, *Run.DB);
      for (const std::string &W : VR.Restored)
        errs() << "torchlint: warning: --verify: " << W << "\n";
      for (const std::string &E : VR.Errors)
        R.Errors.push_back("--verify: " + E);
      if (!Quiet)
        errs() << "torchlint: --verify recompiled " << VR.Compiled << " translation unit"
               << (VR.Compiled == 1 ? "" : "s") << ", undid the fixes in " << VR.Restored.size() << "\n";
    }
  }
  if (!Quiet)
    errs() << "torchlint: applied " << FR.Applied << (FR.Applied == 1 ? " fix" : " fixes") << " in "
           << FR.FilesChanged.size() << (FR.FilesChanged.size() == 1 ? " file" : " files") << "\n";
}

/// Writes the report in Fmt to --output or stdout (errors to stderr when stdout is not the text
/// report). Returns false when --output cannot be written.
bool writeReport(const Run &Run, torchlint::Format Fmt) {
  const torchlint::RunResult &R = Run.R;
  std::error_code EC;
  std::unique_ptr<raw_fd_ostream> File;
  if (!Output.empty()) {
    File = std::make_unique<raw_fd_ostream>(Output, EC);
    if (EC) {
      errs() << "torchlint: error: cannot write '" << Output << "': " << EC.message() << "\n";
      return false;
    }
  }
  raw_ostream &OS = File ? static_cast<raw_ostream &>(*File) : outs();
  switch (Fmt) {
  case torchlint::Format::Text: {
    bool Color = ColorOpt == "always" || (ColorOpt == "auto" && !File && sys::Process::StandardOutIsDisplayed());
    if (File)
      Color = ColorOpt == "always";
    torchlint::writeText(OS, R, Color);
    break;
  }
  case torchlint::Format::Json:
    torchlint::writeJson(OS, R);
    break;
  case torchlint::Format::Sarif:
    torchlint::writeSarif(OS, R, reportOptions());
    break;
  case torchlint::Format::Html:
    torchlint::writeHtml(OS, R, reportOptions());
    break;
  case torchlint::Format::Markdown:
    torchlint::writeMarkdown(OS, R, reportOptions());
    break;
  case torchlint::Format::Yaml:
    torchlint::writeYaml(OS, R, Run.Inputs.empty() ? "" : Run.Inputs.front());
    break;
  case torchlint::Format::CodeQuality:
    torchlint::writeCodeQuality(OS, R, reportOptions());
    break;
  }
  // (A -j worker's errors are printed once, by the parent that merges its results.)
  if ((Fmt != torchlint::Format::Text || File) && !Worker) {
    for (const std::string &E : R.Errors)
      errs() << "torchlint: error: " << E << "\n";
    for (const std::string &N : R.Notices)
      errs() << "torchlint: note: " << N << "\n";
    for (const torchlint::Finding &F : R.Findings)
      if (F.isCompilerError())
        errs() << F.File << ":" << F.Line << ":" << F.Column << ": error: " << F.Message << "\n";
  }
  OS.flush();
  return true;
}

} // namespace

int main(int argc, const char **argv) {
  // The CLI decides the traversal scope itself (Accel.cpp; none with --no-accel).
  torchlint::setModuleLimitsTraversal(false);
  // The CLI builds its own model (project mode) or decides per file (--no-project, no -p): the
  // project index that the plugin and the server read is not for it (`torchlint lsp` sets it back).
  torchlint::setProjectIndexLookup(false);
  // Every TU of this process gets its own FileManager (one ClangTool per file): a TU's synthesised
  // declarations can go with it (core/Recovery.h).
  torchlint::setSynthesisFoldersRemovedWithTheirTU(true);
  InitLLVM X(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "merge")
    return torchlint::mergeMain(argc - 1, argv + 1, decideMerged);
  if (argc > 1 && StringRef(argv[1]) == "trace")
    return traceMain(argc - 1, argv + 1);
  if (argc > 1 && StringRef(argv[1]) == "lsp")
    return torchlint::lspMain(argc - 1, argv + 1);
  if (argc > 1 && StringRef(argv[1]) == "pch")
    return torchlint::pchMain(argc - 1, argv + 1, torchlint::clangResourceDir(TORCHLINT_CLANG_RESOURCE_DIR));
  std::vector<const char *> IndexArgv;
  if (argc > 1 && StringRef(argv[1]) == "index") {
    IndexMode = true;
    IndexArgv.push_back(argv[0]);
    IndexArgv.insert(IndexArgv.end(), argv + 2, argv + argc);
    IndexArgv.push_back(nullptr);
    argv = IndexArgv.data();
    --argc;
  }
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "torchlint " TORCHLINT_VERSION " (LLVM " LLVM_VERSION_STRING ")\n"; });

  // 1. Options. Split off "-- compiler flags" first, as clang-tidy does.
  Run Run;
  std::string FixedErr;
  int Argc = argc;
  Run.Fixed = tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, argv, FixedErr);
  for (int I = Argc; I < argc; ++I)
    if (StringRef(argv[I]) != "--")
      Run.ExtraArgs.push_back(argv[I]);
  if (!cl::ParseCommandLineOptions(Argc, argv,
                                   "torchlint: finds performance anti-patterns in libtorch training code\n\n"
                                   "  torchlint [options] FILE... [-- COMPILER FLAGS]\n"
                                   "  torchlint merge OUT IN...   (merge --shard results; see merge --help)\n"
                                   "  torchlint index -p BUILD [-o FILE]  (write BUILD/torchlint-index.json, the project\n"
                                   "                              model the clang-tidy plugin and the server read)\n"
                                   "  torchlint trace [opts] -- PROGRAM [ARGS]  (count would-be syncs per line)\n"
                                   "  torchlint lsp [opts]        (language server on stdio; see lsp --help)\n"
                                   "  exit codes: 0 clean, 1 findings, 2 tool or input error, 3 both\n",
                                   &errs()))
    return 2;
  if (std::optional<int> RC = answerInfoCommand())
    return *RC;
  std::optional<torchlint::Format> Fmt = parseFormat();
  if (!Fmt)
    return 2;
  ProjectMode = (!BuildPath.empty() || !SummariesOut.empty()) && !NoProject && !NoAccel && !Run.Fixed;
  if (ProjectMode && !Shard.empty() && !Worker && *Fmt != torchlint::Format::Json &&
      *Fmt != torchlint::Format::Sarif) {
    errs() << "torchlint: error: with -p, a --shard writes its results for `torchlint merge` "
              "(which decides them with the whole project's model): use --format=sarif or --format=json\n";
    return 2;
  }
  if (IndexMode && (!ProjectMode || !Shard.empty())) {
    errs() << "torchlint: error: torchlint index needs a compile database (-p BUILD), without --no-project, "
              "--no-accel, --shard or fixed flags after --\n";
    return 2;
  }
  if (Files.empty() && !(ProjectMode && !Worker)) {
    errs() << "torchlint: error: no input files; usage: torchlint [options] FILE... [-- FLAGS]\n";
    return 2;
  }
  if (!Worker)
    warnUnknownChecks(checksGlob());

  // 2. Inputs: the files that exist and are source files, this shard of them. In project mode, the
  // compile database's other files are analysed for the model only (a file it lists that no
  // longer exists is left out, with a note).
  std::vector<std::string> Named(Files.begin(), Files.end());
  if (ProjectMode && !Worker) {
    if (std::string P = torchlint::buildPathProblem(BuildPath.getValue()); !P.empty()) {
      errs() << "torchlint: error: " << P << "\n";
      return 2;
    }
    Run.DB = makeDatabase(nullptr, Named, Run.R);
    if (!Run.DB) {
      torchlint::RunResult &R = Run.R;
      for (const std::string &E : R.Errors)
        errs() << "torchlint: error: " << E << "\n";
      return 2;
    }
    std::set<std::string> Listed;
    for (std::string F : Run.DB->getAllFiles()) {
      if (!sys::fs::exists(F)) {
        if (!Quiet)
          errs() << "torchlint: note: the compile database lists '" << F
                 << "', which does not exist; the project model is built from the other files\n";
        continue;
      }
      Listed.insert(F);
    }
    if (Named.empty())
      Named.assign(Listed.begin(), Listed.end());
    Run.Inputs = torchlint::checkInputs(Named, {BuildPath.getValue(), false}, Run.R);
    std::set<std::string> Reported;
    for (const std::string &F : Run.Inputs)
      Reported.insert(absolutePath(F));
    for (const std::string &F : Listed)
      if (!Reported.count(F))
        Run.ModelOnly.push_back(F);
  } else {
    Run.Inputs = torchlint::checkInputs(Named, {BuildPath.getValue(), Run.Fixed != nullptr}, Run.R);
  }
  warnAboutOptions(Run.Inputs);
  if (!Worker && !Quiet)
    for (const std::string &F : Run.Inputs)
      if (torchlint::isCudaSource(F))
        errs() << "torchlint: '" << F << "': CUDA source analysed as host code (no CUDA toolkit needed); its device "
                  "code (__global__ and __device__ functions) is not analysed\n";
  if (Fix && !Worker)
    for (const std::string &F : Run.Inputs)
      Run.Seen.recordFromDisk(F);
  if (!Shard.empty()) {
    unsigned K, Of;
    if (!torchlint::parseShard(Shard, K, Of)) {
      errs() << "torchlint: error: --shard wants K/N with 1 <= K <= N, not '" << Shard << "'\n";
      return 2;
    }
    Run.Inputs = torchlint::selectShard(Run.Inputs, K, Of);
    // Project mode: the database's other files are split among the shards too; `torchlint merge`
    // builds the model from every shard's summaries (keepForMerge).
    if (ProjectMode)
      Run.ModelOnly = torchlint::selectShard(Run.ModelOnly, K, Of);
  }

  // 3. Analysis (or cached results).
  torchlint::Progress Prog(Run.Inputs.size() + Run.ModelOnly.size(), /*Allowed=*/!Worker);
  if (!analyzeInputs(Run, Prog))
    return 2;
  if (IndexMode)
    return writeProjectIndex(Run, Prog);
  if (ProjectMode && !Shard.empty() && !Worker)
    keepForMerge(Run);
  else
    decideWithProjectModel(Run);
  torchlint::collapseCompilerErrors(Run.R);
  Run.R.sort();
  if (!Run.Inputs.empty()) // also when every result came from the cache and no worker ran
    Prog.update(static_cast<unsigned>(Run.Inputs.size()), Run.R.findingCount());
  Prog.finish();

  // 4. Results: fingerprints, known findings out, fixes applied, the report written.
  torchlint::computeFingerprints(Run.R);
  filterKnownFindings(Run.R);
  applyFixIts(Run);
  if (!writeReport(Run, *Fmt))
    return 2;
  // After a recovered crash, objects the crashed analysis left behind (timers registered from its
  // stack frames, for one) must not be touched by static destructors: leave without them.
  if (Run.AnalysisCrashed) {
    errs().flush();
    sys::Process::Exit(Run.R.exitCode(), /*NoCleanup=*/true);
  }
  return Run.R.exitCode();
}
