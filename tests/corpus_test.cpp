// The corpus harness. Every case in test_corpus/<check>/*.cpp runs through the torchlint CLI
// against BOTH libtorch versions (Debian's 1.13 and the 2.x headers from the torch wheel), and
// through clang-tidy-19 -load torchlint-tidy-plugin.so against the newest version the case runs on
// (every version with TORCHLINT_CORPUS_PLUGIN_ALL=1). Each must report exactly the findings
// written inline in the case (// CHECK-MESSAGES: ...), and the two front ends must agree to the
// letter. Cases that expect fixes (inline // CHECK-FIXES: ..., or a whole <case>.fixed.cpp) are
// fixed with `torchlint --fix` (and the plugin's --fix where the plugin runs), each on its own
// copy; both results must be what the case expects, and the fixed file must compile against every
// version the case runs on.
//
// Speed by design: torch/torch.h is parsed once per version into a PCH (build/corpus-pch) that
// every run shares, and each front end analyses all selected cases of a version in one batch
// (two processes, one per core).
#include "CorpusSupport.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace torchlint::testing;

namespace {

std::vector<Case> &allCases() {
  static std::vector<Case> Cases = discoverCases(TORCHLINT_SOURCE_DIR "/test_corpus");
  return Cases;
}

struct Param {
  const Case *C;
  int Version;
};

std::vector<Param> params(bool FixOnly) {
  std::vector<Param> Out;
  for (const Case &C : allCases()) {
    if (FixOnly && !C.testsFixes())
      continue;
    for (int V : C.Versions)
      Out.push_back({&C, V});
  }
  return Out;
}

std::string paramName(const ::testing::TestParamInfo<Param> &I) {
  return sanitizeTestName(I.param.C->Check + "__" + I.param.C->Name + "__v" + std::to_string(I.param.Version));
}

/// Which cases the current gtest filter will run, per version: only those are analysed.
std::set<std::string> selectedCasePaths(int Version, const char *Suite) {
  std::set<std::string> Out;
  auto *UT = ::testing::UnitTest::GetInstance();
  for (int I = 0; I < UT->total_test_suite_count(); ++I) {
    const ::testing::TestSuite *S = UT->GetTestSuite(I);
    if (std::string(S->name()).find(Suite) == std::string::npos)
      continue;
    for (int J = 0; J < S->total_test_count(); ++J) {
      const ::testing::TestInfo *T = S->GetTestInfo(J);
      if (!T->should_run())
        continue;
      for (const Param &P : params(std::string(Suite) == "Fix")) {
        if (P.Version != Version)
          continue;
        std::string Name = std::string(S->name()) + "." + T->name();
        if (Name.find("/" + sanitizeTestName(P.C->Check + "__" + P.C->Name + "__v" + std::to_string(Version))) !=
            std::string::npos)
          Out.insert(P.C->Path);
      }
    }
  }
  return Out;
}

/// `torchlint --print-cuda-host-flags` (its header written under the build folder), split.
std::vector<std::string> cudaHostFlags(std::string &Error) {
  static std::mutex M;
  static std::vector<std::string> Flags;
  static std::string Err;
  std::lock_guard<std::mutex> L(M);
  if (Flags.empty() && Err.empty()) {
    CommandResult R = runCommand(
        {TORCHLINT_CLI, "--print-cuda-host-flags", "--cache-dir=" + std::string(TORCHLINT_BINARY_DIR) + "/corpus-cuda"});
    std::istringstream In(R.Stdout);
    for (std::string W; In >> W;)
      Flags.push_back(W);
    if (R.ExitCode != 0 || Flags.empty())
      Err = "torchlint --print-cuda-host-flags failed (exit " + std::to_string(R.ExitCode) + "): " + R.Stderr;
  }
  Error = Err;
  return Flags;
}

/// Batch results per (front end, version): file -> findings.
struct Batch {
  std::map<std::string, std::vector<Diag>> ByFile;
  /// The CLI's "'<file>': analysed partially: ..." input problems, by file.
  std::map<std::string, std::string> PartialByFile;
  std::string Error; // the batch itself failed
};

/// The plugin runs each case on its newest libtorch version only, the CLI on every version: the two
/// front ends share the checks, and what differs between libtorch versions is the checks' logic,
/// which the CLI's runs cover (this halves the plugin's share of the suite's time).
/// TORCHLINT_CORPUS_PLUGIN_ALL=1 runs the plugin on every version as well.
bool pluginRuns(const Case &C, int Version) {
  static const bool All = [] {
    const char *E = std::getenv("TORCHLINT_CORPUS_PLUGIN_ALL");
    return E && *E && std::string(E) != "0";
  }();
  return All || C.Versions.empty() || Version == *std::max_element(C.Versions.begin(), C.Versions.end());
}

class Runs {
public:
  static Runs &get() {
    static Runs R;
    return R;
  }

  const Batch &cli(int Version) { return batch(Version, true); }
  const Batch &plugin(int Version) { return batch(Version, false); }

  /// The fixed copy of each case that expects fixes, per front end and version.
  struct FixedCopy {
    std::string Path, Text;
  };
  using FixedCopies = std::map<std::string, FixedCopy>; // case path -> its fixed copy
  const FixedCopies &fixed(int Version, bool Plugin, std::string &Error) {
    std::lock_guard<std::mutex> L(M);
    auto Key = std::make_pair(Version, Plugin);
    auto It = Fixed.find(Key);
    if (It == Fixed.end()) {
      It = Fixed.emplace(Key, FixedCopies()).first;
      FixErrors[Key] = runFixes(Version, Plugin, It->second);
    }
    Error = FixErrors[Key];
    return It->second;
  }

  const std::string &pch(int Version, std::string &Error) {
    std::lock_guard<std::mutex> L(PchM);
    auto It = Pch.find(Version);
    if (It == Pch.end()) {
      std::string Err;
      std::string P = buildPch(Version, Err);
      It = Pch.emplace(Version, P).first;
      PchErr[Version] = Err;
    }
    Error = PchErr[Version];
    return It->second;
  }

  /// One case run alone through a front end (a case that failed in its batch is run again so:
  /// does it fail alone too?).
  Batch alone(const Case &C, int Version, bool Cli) { return runBatch(Version, Cli, {&C}); }

private:
  const Batch &batch(int Version, bool Cli) {
    std::lock_guard<std::mutex> L(M);
    auto Key = std::make_pair(Version, Cli);
    auto It = Batches.find(Key);
    if (It != Batches.end())
      return It->second;
    std::set<std::string> Sel = selectedCasePaths(Version, "Corpus");
    std::vector<const Case *> Cases;
    for (const Case &C : allCases())
      if (Sel.count(C.Path) && std::count(C.Versions.begin(), C.Versions.end(), Version) &&
          (Cli || pluginRuns(C, Version)))
        Cases.push_back(&C);
    return Batches[Key] = runBatch(Version, Cli, Cases);
  }

  Batch runBatch(int Version, bool Cli, const std::vector<const Case *> &Selected) {
    Batch B;
    // By --config, and .cu cases apart: the CLI is given the C++ flags (as a compile database
    // would give them) and rewrites them itself; clang-tidy is given the CLI's
    // --print-cuda-host-flags in their place (what a plugin user does).
    std::map<std::pair<std::string, bool>, std::vector<const Case *>> Groups;
    for (const Case *C : Selected)
      Groups[{C->Config, fs::path(C->Path).extension() == ".cu"}].push_back(C);
    std::string PchErr;
    const std::string &P = pch(Version, PchErr);
    if (!PchErr.empty()) {
      B.Error = PchErr;
      return B;
    }
    for (auto &[Key, Cases] : Groups) {
      const auto &[Config, Cuda] = Key;
      // Two processes, one per core.
      std::vector<std::vector<const Case *>> Halves(2);
      for (size_t I = 0; I < Cases.size(); ++I)
        Halves[I % 2].push_back(Cases[I]);
      std::vector<std::future<CommandResult>> Futures;
      for (auto &H : Halves) {
        if (H.empty())
          continue;
        std::vector<std::string> Args;
        if (Cli) {
          Args = {TORCHLINT_CLI, "--format=json", "-j1", "--checks=-*,torch-*", "--quiet", "--no-cache"};
          if (!Config.empty())
            Args.push_back("--config=" + Config);
        } else {
          Args = {TORCHLINT_CLANG_TIDY, "-load", TORCHLINT_PLUGIN, "--checks=-*,torch-*", "--quiet"};
          if (!Config.empty())
            Args.push_back("--config=" + Config);
        }
        for (const Case *C : H)
          Args.push_back(C->Path);
        Args.push_back("--");
        if (Cuda && !Cli) {
          std::string CudaErr;
          std::vector<std::string> Host = cudaHostFlags(CudaErr);
          if (!CudaErr.empty()) {
            B.Error += CudaErr;
            continue;
          }
          Args.insert(Args.end(), Host.begin(), Host.end());
          for (const std::string &F : versionFlags(Version))
            if (F != "-x" && F != "c++")
              Args.push_back(F);
        } else {
          for (const std::string &F : versionFlags(Version))
            Args.push_back(F);
          Args.push_back("-include-pch");
          Args.push_back(P);
        }
        Futures.push_back(std::async(std::launch::async, [Args] { return runCommand(Args); }));
      }
      for (auto &F : Futures) {
        CommandResult R = F.get();
        std::vector<Diag> Ds;
        std::vector<std::string> InputProblems;
        std::string Err;
        bool Ok = Cli ? parseCliJson(R.Stdout, Ds, Err, &InputProblems) : parseClangTidyText(R.Stdout, Ds, Err);
        for (const std::string &P : InputProblems) {
          size_t End = P.find("': analysed partially");
          if (End == std::string::npos)
            End = P.find("': header"); // "'<file>': header(s) not found: ...; every statement was typed"
          if (P.rfind("'", 0) == 0 && End != std::string::npos)
            B.PartialByFile[P.substr(1, End - 1)] = P;
        }
        if (!Ok || R.ExitCode < 0 || R.ExitCode > 3) {
          B.Error += (Cli ? "torchlint" : "clang-tidy") + std::string(" failed (exit ") + std::to_string(R.ExitCode) +
                     "): " + Err + "\n" + R.Stderr.substr(0, 4000);
          continue;
        }
        for (Diag &D : Ds)
          B.ByFile[D.File].push_back(D);
      }
    }
    return B;
  }

  std::string runFixes(int Version, bool Plugin, FixedCopies &Out) {
    std::set<std::string> Sel = selectedCasePaths(Version, "Fix");
    fs::path Dir = fs::path(TORCHLINT_BINARY_DIR) / (Plugin ? "corpus-fix-plugin" : "corpus-fix") /
                   ("v" + std::to_string(Version));
    std::error_code EC;
    fs::remove_all(Dir, EC);
    fs::create_directories(Dir);
    std::string PchErr;
    const std::string &P = pch(Version, PchErr);
    if (!PchErr.empty())
      return PchErr;
    std::string Errors;
    // One --fix run per (checks, config) group.
    std::vector<const Case *> Cases;
    for (const Case &C : allCases())
      if (C.testsFixes() && Sel.count(C.Path) && (!Plugin || pluginRuns(C, Version)))
        Cases.push_back(&C);
    std::vector<std::string> Options = {"--quiet"};
    if (!Plugin)
      Options.insert(Options.end(), {"-j2", "--format=json", "--no-cache"});
    for (const FixRun &Run : fixRuns(Cases, Dir.string(), Version, P, Options, Plugin)) {
      CommandResult R = runCommand(Run.Args);
      // clang-tidy exits 1 when it found something; the CLI 1 for findings.
      if (R.ExitCode < 0 || R.ExitCode > 1)
        Errors += std::string(Plugin ? "clang-tidy-19 -load plugin" : "torchlint") + " --fix failed (exit " +
                  std::to_string(R.ExitCode) + "): " + R.Stderr.substr(0, 4000) + R.Stdout.substr(0, 2000);
      for (auto &[Copy, C] : Run.Copies)
        Out[C->Path] = {Copy, readFile(Copy)};
    }
    return Errors;
  }

  std::mutex M, PchM;
  std::map<std::pair<int, bool>, Batch> Batches;
  std::map<std::pair<int, bool>, FixedCopies> Fixed;
  std::map<std::pair<int, bool>, std::string> FixErrors;
  std::map<int, std::string> Pch, PchErr;
};

std::string describe(const std::vector<Diag> &Ds) {
  std::ostringstream OS;
  for (const Diag &D : Ds)
    OS << "    " << D.Line << ":" << D.Column << ": " << D.Level << ": " << D.Message << " [" << D.Check << "]\n";
  return OS.str();
}

/// Findings of one case from a batch, restricted to the checks the case enables.
std::vector<Diag> findingsFor(const Batch &B, const Case &C) {
  std::vector<Diag> Out;
  auto It = B.ByFile.find(C.Path);
  if (It == B.ByFile.end())
    return Out;
  // Notes are compared only in cases that expect one (as clang-tidy's CHECK-NOTES is opt-in).
  bool Notes =
      std::any_of(C.Expected.begin(), C.Expected.end(), [](const Expectation &E) { return E.Level == "note"; });
  for (const Diag &D : It->second)
    if ((D.Level != "note" || Notes) && (D.Check.rfind("clang-diagnostic-", 0) == 0 || globMatches(C.Checks, D.Check)))
      Out.push_back(D);
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// What differs between the findings Got and the case's expectations ("" when nothing does).
std::string mismatch(const Case &C, const std::vector<Diag> &Got, const char *FrontEnd, int Version) {
  std::vector<bool> Used(Got.size(), false);
  std::string Missing, Unexpected;
  for (const Expectation &E : C.Expected) {
    bool Found = false;
    for (size_t I = 0; I < Got.size(); ++I) {
      if (Used[I] || !E.matches(Got[I]))
        continue;
      Used[I] = Found = true;
      break;
    }
    if (!Found)
      Missing += "    " + E.describe() + "\n";
  }
  for (size_t I = 0; I < Got.size(); ++I)
    if (!Used[I])
      Unexpected += describe({Got[I]});
  if (Missing.empty() && Unexpected.empty())
    return "";
  return std::string(FrontEnd) + " on " + C.Path + " (libtorch " + (Version == 1 ? "1.13" : "2.x") + ")\n" +
         (Missing.empty() ? "" : "  expected but not reported:\n" + Missing) +
         (Unexpected.empty() ? "" : "  reported but not expected:\n" + Unexpected);
}

/// What is wrong with the findings of case C in these batches ("" when nothing is).
std::string verdict(const Case &C, int V, const Batch &Cli, const Batch &Plugin) {
  std::ostringstream Why;
  if (!Cli.Error.empty())
    return Cli.Error;
  const bool WithPlugin = pluginRuns(C, V);
  if (WithPlugin && !Plugin.Error.empty())
    return Plugin.Error;
  std::vector<Diag> A = findingsFor(Cli, C), B = findingsFor(Plugin, C);
  // Missing headers (TORCHLINT-MISSING-HEADERS): the CLI folds them and their consequences into
  // one "analysed partially" input problem; the plugin shows clang's errors, the first of which
  // name the headers. Both must still give exactly the case's findings.
  auto Partial = Cli.PartialByFile.find(C.Path);
  std::vector<std::string> Required = C.requiredMissing(V);
  if (C.MissingHeaders.empty()) {
    if (Partial != Cli.PartialByFile.end())
      Why << "unexpected partial analysis: " << Partial->second << "\n";
  } else {
    if (!Required.empty() && Partial == Cli.PartialByFile.end())
      return Why.str() + "torchlint CLI did not say " + C.Path + " was analysed partially\n";
    for (const std::string &H : Required) {
      size_t Named = Partial->second.find("'" + H + "' (");
      if (Named == std::string::npos)
        return Why.str() + "the partial-analysis message does not name " + H + ": " + Partial->second + "\n";
      // A header with a stand-in (stand-ins/) is served by it, and both front ends say so.
      bool HasStandIn = fs::exists(fs::path(TORCHLINT_SOURCE_DIR) / "stand-ins" / H);
      std::string Where = Partial->second.substr(Named, Partial->second.find(')', Named) - Named);
      if ((Where.find("a stand-in was used") != std::string::npos) != HasStandIn)
        Why << "stand-in use of " << H << " misreported: " << Partial->second << "\n";
      std::string Expected = "'" + H + "' file not found";
      if (HasStandIn)
        Expected += "; analysed with torchlint's stand-in declarations for it";
      // (A header missing inside another header, say cuda_runtime_api.h in libtorch's CUDA
      // headers, is reported at that header, under its own file.)
      // (A header served by synthesised declarations, core/Synthesis.h, says so, with the names.)
      auto NotFound = [&](const Diag &D) {
        return D.Level == "error" &&
               (D.Message == Expected ||
                (!HasStandIn && D.Message.rfind(Expected + "; typed through torchlint's synthesised", 0) == 0));
      };
      if (!WithPlugin)
        continue;
      bool Reported = std::any_of(B.begin(), B.end(), NotFound);
      for (const auto &[File, Ds] : Plugin.ByFile)
        Reported |= File.find("/test_corpus/") == std::string::npos && std::any_of(Ds.begin(), Ds.end(), NotFound);
      if (!Reported)
        Why << "clang-tidy-19 -load plugin did not report '" << H << "' file not found on " << C.Path << "\n";
    }
    auto Compiler = [](const Diag &D) { return D.Check.rfind("clang-diagnostic-", 0) == 0; };
    if (std::any_of(A.begin(), A.end(), Compiler))
      Why << "the CLI reports compiler errors one by one\n";
    B.erase(std::remove_if(B.begin(), B.end(), Compiler), B.end());
  }
  Why << mismatch(C, A, "torchlint CLI", V);
  if (!WithPlugin)
    return Why.str();
  Why << mismatch(C, B, "clang-tidy-19 -load plugin", V);
  if (describe(A) != describe(B))
    Why << "the CLI and the plugin disagree on " << C.Path << ":\n  CLI:\n" << describe(A) << "  plugin:\n"
        << describe(B);
  return Why.str();
}

class Corpus : public ::testing::TestWithParam<Param> {};

TEST_P(Corpus, BothFrontEndsReportExactlyTheExpectedFindings) {
  const Case &C = *GetParam().C;
  int V = GetParam().Version;
  ASSERT_TRUE(C.ParseError.empty()) << C.Path << ": " << C.ParseError;
  const Batch &Cli = Runs::get().cli(V);
  ASSERT_TRUE(Cli.Error.empty()) << Cli.Error;
  const Batch &Plugin = Runs::get().plugin(V);
  if (pluginRuns(C, V))
    ASSERT_TRUE(Plugin.Error.empty()) << Plugin.Error;
  std::string InBatch = verdict(C, V, Cli, Plugin);
  if (InBatch.empty())
    return;
  // Wrong in the batch (every case of a version in two processes): is it wrong alone too?
  Batch CliAlone = Runs::get().alone(C, V, true);
  Batch PluginAlone = pluginRuns(C, V) ? Runs::get().alone(C, V, false) : Batch();
  std::string Alone = verdict(C, V, CliAlone, PluginAlone);
  if (Alone.empty())
    // Only a batch gets it wrong: what an earlier TU of the same process left behind, or the
    // machine. Said loudly, with the difference, but the case itself is right.
    GTEST_SKIP() << "[ FLAKY    ] " << C.Path << " (libtorch " << (V == 1 ? "1.13" : "2.x")
                 << ") is right alone and wrong in its batch:\n"
                 << InBatch;
  ADD_FAILURE() << InBatch << (Alone == InBatch ? "(the same alone)\n" : "alone:\n" + Alone);
}

INSTANTIATE_TEST_SUITE_P(Cases, Corpus, ::testing::ValuesIn(params(false)), paramName);

class Fix : public ::testing::TestWithParam<Param> {};

TEST_P(Fix, FixItProducesTheExpectedFileWhichCompiles) {
  const Case &C = *GetParam().C;
  int V = GetParam().Version;
  ASSERT_TRUE(C.ParseError.empty()) << C.Path << ": " << C.ParseError;
  std::string CliFixed;
  for (bool Plugin : {false, true}) {
    if (Plugin && !pluginRuns(C, V))
      continue;
    const char *FrontEnd = Plugin ? "clang-tidy-19 -load plugin --fix" : "torchlint --fix";
    std::string Err;
    const auto &Out = Runs::get().fixed(V, Plugin, Err);
    ASSERT_TRUE(Err.empty()) << Err;
    auto It = Out.find(C.Path);
    ASSERT_NE(It, Out.end());
    const std::string &After = It->second.Text;
    EXPECT_EQ(C.checkFixed(After), "") << FrontEnd << " on " << C.Path << " (libtorch " << (V == 1 ? "1.13" : "2.x")
                                       << "), fixed copy " << It->second.Path;
    EXPECT_NE(After, readFile(C.Path)) << FrontEnd << " changed nothing in " << C.Path;
    if (Plugin)
      EXPECT_EQ(After, CliFixed) << "the two front ends fix " << C.Path << " differently";
    else
      CliFixed = After;
  }
  // The fixed file (the expected .fixed.cpp, or the CLI's fixed copy when the case expects its
  // fixes inline) compiles against this libtorch version.
  std::string Err;
  std::string Compiled = C.FixedPath.empty() ? Runs::get().fixed(V, false, Err).at(C.Path).Path : C.FixedPath;
  std::string PchErr;
  const std::string &P = Runs::get().pch(V, PchErr);
  ASSERT_TRUE(PchErr.empty()) << PchErr;
  std::vector<std::string> Args = {TORCHLINT_CLANGXX, "-fsyntax-only"};
  for (const std::string &F : versionFlags(V))
    Args.push_back(F);
  Args.push_back("-include-pch");
  Args.push_back(P);
  Args.push_back(Compiled);
  CommandResult R = runCommand(Args);
  EXPECT_EQ(R.ExitCode, 0) << Compiled << " does not compile against libtorch " << (V == 1 ? "1.13" : "2.x") << ":\n"
                           << R.Stderr.substr(0, 4000);
}

INSTANTIATE_TEST_SUITE_P(Cases, Fix, ::testing::ValuesIn(params(true)), paramName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Fix);

// The corpus itself: every catalogued check has positive and negative cases, and every corpus
// directory names a catalogued check.
TEST(CorpusLayout, EveryCheckHasPositiveAndNegativeCases) {
  std::set<std::string> Dirs;
  for (const Case &C : allCases())
    Dirs.insert(C.Check);
  for (const std::string &Name : catalogNames()) {
    bool Pos = false, Neg = false;
    for (const Case &C : allCases()) {
      if (C.Check != Name)
        continue;
      Pos |= !C.Expected.empty();
      Neg |= C.isNegative();
    }
    EXPECT_TRUE(Pos) << Name << " has no corpus case with expected findings";
    EXPECT_TRUE(Neg) << Name << " has no negative corpus case (*_ok.cpp, negative*.cpp, clean*.cpp)";
    EXPECT_TRUE(fs::exists(fs::path(TORCHLINT_SOURCE_DIR) / "docs/checks" / (Name + ".md")))
        << Name << " has no docs/checks/" << Name << ".md";
  }
  for (const std::string &D : Dirs) {
    auto Names = catalogNames();
    EXPECT_TRUE(std::count(Names.begin(), Names.end(), D)) << "test_corpus/" << D << " names no catalogued check";
  }
}

TEST(CorpusLayout, NegativeCasesExpectNothing) {
  for (const Case &C : allCases())
    if (C.isNegative())
      EXPECT_TRUE(C.Expected.empty() && !C.testsFixes())
          << C.Path << " is named as a negative case but expects findings";
}

TEST(CorpusLayout, EveryCaseParses) {
  for (const Case &C : allCases())
    EXPECT_EQ(C.ParseError, "") << C.Path;
}

// The harness itself: an expectation that cannot be satisfied fails (each of the ways).
std::string writeTemp(const std::string &Name, const std::string &Text) {
  fs::path P = fs::path(TORCHLINT_BINARY_DIR) / "corpus-harness-selftest" / Name;
  fs::create_directories(P.parent_path());
  std::ofstream(P) << Text;
  return P.string();
}

const char *SelfTestOriginal = "int main() {\n"           // 1
                               "  auto a = f(1);\n"       // 2
                               "  // CHECK-FIXES: f(2)\n" // 3
                               "  auto b = g();\n"        // 4
                               "  return 0;\n"            // 5
                               "}\n";                     // 6

TEST(CorpusHarness, CheckFixesParsesLinesAndOffsets) {
  Case C = parseCase(writeTemp("parse.cpp", std::string(SelfTestOriginal) +
                                                "// CHECK-FIXES: :[[@LINE-3]]: g(1)\n" // 7 -> 4
                                                "// CHECK-FIXES: :2: f(2)\n"           // 8
                                                "// CHECK-NOTES: :[[@LINE-6]]:3: note: n [torch-x]\n"),
                     "torch-x");
  ASSERT_EQ(C.ParseError, "");
  ASSERT_EQ(C.ExpectedFixes.size(), 3u);
  EXPECT_EQ(C.ExpectedFixes[0].Line, 2u); // the code line above the comment
  EXPECT_EQ(C.ExpectedFixes[0].Text, "f(2)");
  EXPECT_EQ(C.ExpectedFixes[1].Line, 4u);
  EXPECT_EQ(C.ExpectedFixes[1].Text, "g(1)");
  EXPECT_EQ(C.ExpectedFixes[2].Line, 2u);
  ASSERT_EQ(C.Expected.size(), 1u);
  EXPECT_EQ(C.Expected[0].Line, 3u);
  EXPECT_EQ(C.Expected[0].Level, "note");
  EXPECT_TRUE(parseCase(writeTemp("bad.cpp", "int x;\n// CHECK-FIXES:\n"), "torch-x").ParseError.size());
  EXPECT_TRUE(parseCase(writeTemp("bad2.cpp", "int x;\n// CHECK-FIXES int y;\n"), "torch-x").ParseError.size());
  EXPECT_TRUE(
      parseCase(writeTemp("bad3.cpp", "int x;\n// CHECK-NOTES: :1: note: n [torch-x]\n"), "torch-x").ParseError.size());
  // Prose that mentions a CHECK line is not one.
  Case Prose =
      parseCase(writeTemp("prose.cpp", "// Fixes: a .fixed.cpp, not inline CHECK-FIXES: why.\nint x;\n"), "torch-x");
  EXPECT_EQ(Prose.ParseError, "");
  EXPECT_TRUE(Prose.ExpectedFixes.empty());
}

TEST(CorpusHarness, SatisfiedCheckFixesPass) {
  std::string Fixed = "int main() {\n  auto a = f(2);\n  // CHECK-FIXES: f(2)\n  auto b = g();\n  return 0;\n}\n";
  EXPECT_EQ(checkFixes({{2, 3, "auto a = f(2);"}}, SelfTestOriginal, Fixed), "");
  // An inserted line is expected on the line above it.
  std::string Inserted =
      "int main() {\n  guard g;\n  auto a = f(1);\n  // CHECK-FIXES: f(2)\n  auto b = g();\n  return 0;\n}\n";
  EXPECT_EQ(checkFixes({{1, 0, "guard g;"}}, SelfTestOriginal, Inserted), "");
}

TEST(CorpusHarness, UnsatisfiableCheckFixesFail) {
  std::string Fixed = "int main() {\n  auto a = f(2);\n  // CHECK-FIXES: f(2)\n  auto b = g();\n  return 0;\n}\n";
  // The wrong text.
  EXPECT_NE(checkFixes({{2, 3, "f(3)"}}, SelfTestOriginal, Fixed), "");
  // The right text on the wrong line (the text of the comment itself does not count).
  EXPECT_NE(checkFixes({{2, 3, "f(2)"}, {4, 0, "f(2)"}}, SelfTestOriginal, Fixed), "");
  // No fix applied at all.
  EXPECT_NE(checkFixes({{2, 3, "f(2)"}}, SelfTestOriginal, SelfTestOriginal), "");
  // A text the line already had: checks nothing.
  EXPECT_NE(checkFixes({{2, 3, "f(2)"}, {4, 0, "g()"}}, SelfTestOriginal, Fixed), "");
  // A change no CHECK-FIXES expects.
  std::string Two = "int main() {\n  auto a = f(2);\n  // CHECK-FIXES: f(2)\n  auto b = g(0);\n  return 0;\n}\n";
  EXPECT_NE(checkFixes({{2, 3, "f(2)"}}, SelfTestOriginal, Two), "");
  // An inserted line nobody expects.
  std::string Inserted =
      "int main() {\n  guard g;\n  auto a = f(2);\n  // CHECK-FIXES: f(2)\n  auto b = g();\n  return 0;\n}\n";
  EXPECT_NE(checkFixes({{2, 3, "f(2)"}}, SelfTestOriginal, Inserted), "");
  // Through a case: the same expectation read from a file, checked against a fixed text.
  Case C = parseCase(writeTemp("wrong.cpp", SelfTestOriginal), "torch-x");
  EXPECT_EQ(C.checkFixed(Fixed), "");
  EXPECT_NE(C.checkFixed(SelfTestOriginal), "");
}

} // namespace
