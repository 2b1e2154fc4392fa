#include "CorpusSupport.h"
#include "cli/PchCache.h"
#include "core/Catalog.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

namespace torchlint::testing {

bool Diag::operator<(const Diag &O) const {
  return std::tie(File, Line, Column, Check, Level, Message) <
         std::tie(O.File, O.Line, O.Column, O.Check, O.Level, O.Message);
}

bool Expectation::matches(const Diag &D) const {
  return D.Line == Line && D.Column == Column && D.Level == Level && D.Check == Check &&
         D.Message.find(Substring) != std::string::npos;
}

std::string Expectation::describe() const {
  return std::to_string(Line) + ":" + std::to_string(Column) + ": " + Level + ": " + Substring + " [" + Check + "]";
}

std::vector<std::string> Case::requiredMissing(int Version) const {
  std::vector<std::string> Out;
  for (const MissingHeader &M : MissingHeaders)
    if (!M.Optional && (M.Version == 0 || M.Version == Version))
      Out.push_back(M.Name);
  return Out;
}

bool Case::isNegative() const {
  llvm::StringRef N(Name);
  return N.ends_with("_ok") || N.starts_with("negative") || N.starts_with("clean");
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

Case parseCase(const std::string &Path, const std::string &Check) {
  Case C;
  C.Path = Path;
  C.Check = Check;
  C.Name = fs::path(Path).stem().string();
  C.Checks = "-*," + Check;
  fs::path Fixed = fs::path(Path).parent_path() / (C.Name + ".fixed.cpp");
  if (fs::exists(Fixed))
    C.FixedPath = Fixed.string();
  static const std::regex Msg(
      R"(//\s*CHECK-(?:MESSAGES|NOTES):\s*:(?:\[\[@LINE([+-]\d+)?\]\]|(\d+)):(\d+):\s*(warning|remark|note|error):\s*(.*?)\s*\[([A-Za-z0-9.-]+)\]\s*$)");
  static const std::regex Directive(R"(//\s*TORCHLINT-(CHECKS|VERSIONS|OPTIONS|MISSING-HEADERS):\s*(.*?)\s*$)");
  static const std::regex Fix(R"(//\s*CHECK-FIXES:\s*(?::(?:\[\[@LINE([+-]\d+)?\]\]|(\d+)):\s*)?(.*?)\s*$)");
  static const std::regex Malformed(R"(//\s*CHECK-(MESSAGES|NOTES|FIXES)\b)");
  std::istringstream In(readFile(Path));
  std::string Line;
  std::vector<std::string> Seen; // the lines before this one
  unsigned N = 0;
  for (; std::getline(In, Line); Seen.push_back(Line)) {
    ++N;
    std::smatch M;
    if (std::regex_search(Line, M, Fix)) {
      FixExpectation E;
      E.Directive = N;
      E.Text = M[3];
      if (M[2].matched) {
        E.Line = std::stoul(M[2]);
      } else if (M[1].matched || llvm::StringRef(M[0].str()).contains("[[@LINE]]")) {
        E.Line = N + (M[1].matched ? std::stoi(M[1]) : 0);
      } else {
        // The nearest line above that is code: not blank, not a // comment (another CHECK line).
        for (size_t I = Seen.size(); I-- > 0;) {
          llvm::StringRef T = llvm::StringRef(Seen[I]).trim();
          if (!T.empty() && !T.starts_with("//")) {
            E.Line = I + 1;
            break;
          }
        }
      }
      if (E.Line == 0 || E.Text.empty())
        C.ParseError += "line " + std::to_string(N) + ": CHECK-FIXES needs a text and a line above it\n";
      else
        C.ExpectedFixes.push_back(E);
      continue;
    }
    if (std::regex_search(Line, M, Msg)) {
      Expectation E;
      if (M[2].matched)
        E.Line = std::stoul(M[2]);
      else
        E.Line = N + (M[1].matched ? std::stoi(M[1]) : 0);
      E.Column = std::stoul(M[3]);
      E.Level = M[4];
      E.Substring = M[5];
      E.Check = M[6];
      C.Expected.push_back(E);
      continue;
    }
    // A CHECK line the patterns above do not read (prose that mentions one is not a CHECK line).
    if (std::regex_search(Line, M, Malformed)) {
      C.ParseError += "line " + std::to_string(N) + ": malformed CHECK-" + M[1].str() + "\n";
      continue;
    }
    if (std::regex_search(Line, M, Directive)) {
      std::string Kind = M[1], Value = M[2];
      if (Kind == "CHECKS") {
        C.Checks = Value;
      } else if (Kind == "MISSING-HEADERS") {
        std::istringstream Names(Value);
        for (std::string H; Names >> H;) {
          Case::MissingHeader M;
          if (H.back() == '?') {
            M.Optional = true;
            H.pop_back();
          }
          if (size_t At = H.rfind('@'); At != std::string::npos && At + 2 == H.size()) {
            M.Version = H.back() - '0';
            H.resize(At);
          }
          M.Name = H;
          C.MissingHeaders.push_back(M);
        }
      } else if (Kind == "VERSIONS") {
        C.Versions.clear();
        for (char Ch : Value)
          if (Ch == '1' || Ch == '2')
            C.Versions.push_back(Ch - '0');
        if (C.Versions.empty())
          C.ParseError += "line " + std::to_string(N) + ": TORCHLINT-VERSIONS takes 1 and/or 2\n";
      } else {
        // "a.b=1;c.d=x" -> {CheckOptions: {a.b: '1', c.d: 'x'}}
        std::string Cfg = "{CheckOptions: {";
        std::stringstream SS(Value);
        std::string KV;
        bool First = true;
        while (std::getline(SS, KV, ';')) {
          auto Eq = KV.find('=');
          if (Eq == std::string::npos)
            continue;
          Cfg += (First ? "" : ", ") + llvm::StringRef(KV.substr(0, Eq)).trim().str() + ": '" +
                 llvm::StringRef(KV.substr(Eq + 1)).trim().str() + "'";
          First = false;
        }
        C.Config = Cfg + "}}";
      }
    }
  }
  if (!C.FixedPath.empty() && !C.ExpectedFixes.empty())
    C.ParseError +=
        "both " + fs::path(C.FixedPath).filename().string() + " and inline CHECK-FIXES: expect the fixes one way\n";
  return C;
}

std::string FixExpectation::describe() const {
  return "line " + std::to_string(Line) + " (CHECK-FIXES at line " + std::to_string(Directive) + "): " + Text;
}

static std::vector<std::string> splitLines(const std::string &S) {
  std::vector<std::string> Out;
  std::istringstream In(S);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

FixedLines mapFixedLines(const std::string &Original, const std::string &Fixed) {
  std::vector<std::string> O = splitLines(Original), F = splitLines(Fixed);
  size_t N = O.size(), M = F.size();
  // Longest common subsequence of lines; L[i][j] for the suffixes O[i..], F[j..].
  std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      L[I][J] = O[I] == F[J] ? L[I + 1][J + 1] + 1 : std::max(L[I + 1][J], L[I][J + 1]);
  FixedLines R;
  R.Lines.assign(N, "");
  R.Changed.assign(N, false);
  R.Hunk.assign(N, 0);
  R.Written.assign(N, {});
  int Hunks = 0;
  auto Join = [&](size_t From, size_t To) { // F[From, To)
    std::string S;
    for (size_t K = From; K < To; ++K)
      S += (K == From ? "" : "\n") + F[K];
    return S;
  };
  // One hunk: original lines [I0, I1) became fixed lines [J0, J1); Prev: the unchanged line above.
  auto Hunk = [&](size_t I0, size_t I1, size_t J0, size_t J1, std::optional<size_t> Prev) {
    if (I0 == I1 && J0 == J1)
      return;
    int Id = ++Hunks;
    if (I0 == I1) { // pure insertion: belongs to the line above (or to line 1)
      size_t At = Prev ? *Prev : 0;
      if (At >= N)
        return;
      R.Lines[At] = Prev ? R.Lines[At] + "\n" + Join(J0, J1) : Join(J0, J1) + "\n" + R.Lines[At];
      R.Changed[At] = true;
      R.Written[At].insert(R.Written[At].end(), F.begin() + J0, F.begin() + J1);
      return;
    }
    for (size_t K = I0; K < I1; ++K) {
      bool Pairwise = I1 - I0 == J1 - J0;
      R.Lines[K] = Pairwise ? F[J0 + (K - I0)] : Join(J0, J1);
      R.Changed[K] = true;
      if (Pairwise) {
        R.Written[K] = {F[J0 + (K - I0)]};
      } else {
        R.Hunk[K] = Id;
        R.Written[K].assign(F.begin() + J0, F.begin() + J1);
      }
    }
  };
  size_t I = 0, J = 0, HI = 0, HJ = 0;
  std::optional<size_t> Prev;
  while (I < N && J < M) {
    if (O[I] == F[J] && L[I][J] == L[I + 1][J + 1] + 1) {
      R.Lines[I] = F[J];
      Hunk(HI, I, HJ, J, Prev);
      Prev = I;
      HI = ++I;
      HJ = ++J;
    } else if (L[I + 1][J] >= L[I][J + 1]) {
      ++I;
    } else {
      ++J;
    }
  }
  Hunk(HI, N, HJ, M, Prev); // the rest of both files
  return R;
}

std::string checkFixes(const std::vector<FixExpectation> &Expected, const std::string &Original,
                       const std::string &Fixed) {
  std::vector<std::string> O = splitLines(Original);
  FixedLines R = mapFixedLines(Original, Fixed);
  std::string Problems;
  for (const FixExpectation &E : Expected) {
    if (E.Line == 0 || E.Line > O.size()) {
      Problems += E.describe() + ": no such line\n";
      continue;
    }
    if (O[E.Line - 1].find(E.Text) != std::string::npos)
      Problems += E.describe() + ": the line already reads so before the fix; the expectation checks nothing\n";
    else if (R.Lines[E.Line - 1].find(E.Text) == std::string::npos)
      Problems += E.describe() + ": after the fix the line reads: " + R.Lines[E.Line - 1] + "\n";
  }
  // Every line the fix wrote must be expected: it contains the text of a CHECK-FIXES about its
  // original line (or, in a replacement of several lines by a different number, about any of them).
  for (size_t I = 0; I < O.size(); ++I) {
    if (!R.Changed[I])
      continue;
    if (R.Written[I].empty() && (R.Hunk[I] == 0 || I == 0 || R.Hunk[I - 1] != R.Hunk[I]))
      Problems += "line " + std::to_string(I + 1) + ": the fix deleted `" + O[I] +
                  "`, which CHECK-FIXES cannot expect: compare the whole file (<case>.fixed.cpp)\n";
    if (R.Hunk[I] != 0 && I > 0 && R.Hunk[I - 1] == R.Hunk[I])
      continue; // the hunk's lines were checked at its first line
    for (const std::string &W : R.Written[I]) {
      bool Covered = false;
      for (const FixExpectation &E : Expected)
        Covered |= E.Line >= 1 && E.Line <= O.size() &&
                   (E.Line - 1 == I || (R.Hunk[I] != 0 && R.Hunk[E.Line - 1] == R.Hunk[I])) &&
                   W.find(E.Text) != std::string::npos;
      if (!Covered)
        Problems += "line " + std::to_string(I + 1) + " (`" + O[I] + "`): the fix wrote `" + W +
                    "`, which no CHECK-FIXES expects\n";
    }
  }
  return Problems;
}

std::string Case::checkFixed(const std::string &After) const {
  if (!FixedPath.empty())
    return After == readFile(FixedPath) ? "" : "the file after --fix differs from " + FixedPath + "\n";
  return checkFixes(ExpectedFixes, readFile(Path), After);
}

std::vector<Case> discoverCases(const std::string &CorpusDir) {
  std::vector<Case> Out;
  if (!fs::exists(CorpusDir))
    return Out;
  for (const auto &Dir : fs::directory_iterator(CorpusDir)) {
    if (!Dir.is_directory())
      continue;
    for (const auto &F : fs::directory_iterator(Dir.path())) {
      std::string P = F.path().string();
      // .cu: CUDA glue code, which the CLI parses as CUDA host code (cli/CudaHost.h).
      if ((F.path().extension() != ".cpp" && F.path().extension() != ".cu") ||
          llvm::StringRef(P).ends_with(".fixed.cpp"))
        continue;
      Out.push_back(parseCase(fs::absolute(P).lexically_normal().string(), Dir.path().filename().string()));
    }
  }
  std::sort(Out.begin(), Out.end(), [](const Case &A, const Case &B) { return A.Path < B.Path; });
  return Out;
}

static bool wildcard(llvm::StringRef Pat, llvm::StringRef S) {
  if (Pat.empty())
    return S.empty();
  if (Pat.front() == '*')
    return wildcard(Pat.drop_front(), S) || (!S.empty() && wildcard(Pat, S.drop_front()));
  return !S.empty() && Pat.front() == S.front() && wildcard(Pat.drop_front(), S.drop_front());
}

bool globMatches(const std::string &Glob, const std::string &Name) {
  bool Result = false;
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Glob).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    bool Neg = P.consume_front("-");
    if (wildcard(P, Name))
      Result = !Neg;
  }
  return Result;
}

std::vector<std::string> versionFlags(int Version) {
  if (Version == 1)
    return {"-x", "c++", "-std=c++17", "-isystem", TORCHLINT_TORCH1_INCLUDE "/torch/csrc/api/include"};
  std::string R = TORCHLINT_TORCH2_ROOT;
  return {"-x", "c++", "-std=c++20", "-isystem", R + "/include", "-isystem", R + "/include/torch/csrc/api/include"};
}

std::string buildPch(int Version, std::string &Error) {
  std::vector<std::string> Flags = versionFlags(Version);
  // Built by `torchlint pch` (as torchlint's automatic PCH: templates instantiated into it, its
  // vtable uses dropped; about 0.8 s per case instead of 3.5 s with clang++'s), loaded by both
  // front ends. PchFormat names what that command does to the PCH.
  std::string Key = std::string(TORCHLINT_CLI) + " pch " + torchlint::PchFormat;
  for (auto &F : Flags)
    Key += " " + F;
  Key += readFile(TORCHLINT_TORCH2_ROOT "/VERSION");
  fs::path Dir = fs::path(TORCHLINT_BINARY_DIR) / "corpus-pch";
  fs::create_directories(Dir);
  char Hex[17];
  snprintf(Hex, sizeof Hex, "%016llx", (unsigned long long)llvm::xxh3_64bits(Key));
  fs::path Pch = Dir / ("torch-v" + std::to_string(Version) + "-" + Hex + ".pch");
  if (fs::exists(Pch))
    return Pch.string();
  // The PCHs of other keys (150 MB each) go.
  std::error_code EC;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir, EC)) {
    std::string Name = E.path().filename().string();
    if (Name.rfind("torch-v" + std::to_string(Version) + "-", 0) == 0 && E.path().extension() == ".pch")
      fs::remove(E.path(), EC);
  }
  fs::path Header = Dir / ("torch-v" + std::to_string(Version) + ".h");
  std::ofstream(Header) << "#include <torch/torch.h>\n";
  fs::path Tmp = Pch;
  Tmp += ".tmp";
  std::vector<std::string> Args = {TORCHLINT_CLI, "pch", Header.string(), "-o", Tmp.string(), "--"};
  for (auto &F : Flags)
    if (F != "-x" && F != "c++")
      Args.push_back(F);
  CommandResult R = runCommand(Args);
  if (R.ExitCode != 0) {
    Error = "building the PCH for libtorch v" + std::to_string(Version) + " failed:\n" + R.Stderr.substr(0, 4000);
    return {};
  }
  fs::rename(Tmp, Pch);
  return Pch.string();
}

std::vector<FixRun> fixRuns(const std::vector<const Case *> &Cases, const std::string &Dir, int Version,
                            const std::string &Pch, const std::vector<std::string> &Options, bool Plugin) {
  std::map<std::pair<std::string, std::string>, std::vector<const Case *>> Groups;
  for (const Case *C : Cases)
    Groups[{C->Checks, C->Config}].push_back(C);
  std::vector<FixRun> Runs;
  for (auto &[Key, Group] : Groups) {
    FixRun R;
    if (Plugin)
      R.Args = {TORCHLINT_CLANG_TIDY, "-load", TORCHLINT_PLUGIN, "--fix"};
    else
      R.Args = {TORCHLINT_CLI, "--fix"};
    R.Args.insert(R.Args.end(), Options.begin(), Options.end());
    R.Args.push_back("--checks=" + Key.first);
    if (!Key.second.empty())
      R.Args.push_back("--config=" + Key.second);
    for (const Case *C : Group) {
      fs::path Sub = fs::path(Dir) / C->Check;
      fs::create_directories(Sub);
      fs::path Copy = Sub / (C->Name + ".cpp");
      fs::copy_file(C->Path, Copy, fs::copy_options::overwrite_existing);
      R.Copies[Copy.string()] = C;
      R.Args.push_back(Copy.string());
    }
    R.Args.push_back("--");
    for (const std::string &F : versionFlags(Version))
      R.Args.push_back(F);
    R.Args.push_back("-include-pch");
    R.Args.push_back(Pch);
    Runs.push_back(std::move(R));
  }
  return Runs;
}

CommandResult runCommand(const std::vector<std::string> &Args) {
  CommandResult R;
  llvm::SmallString<128> Out, Err;
  llvm::sys::fs::createTemporaryFile("corpus-out", "txt", Out);
  llvm::sys::fs::createTemporaryFile("corpus-err", "txt", Err);
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Out), llvm::StringRef(Err)};
  std::string Msg;
  R.ExitCode = llvm::sys::ExecuteAndWait(Args[0], Refs, std::nullopt, Redirects, 0, 0, &Msg);
  R.Stdout = readFile(std::string(Out));
  R.Stderr = readFile(std::string(Err)) + Msg;
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  return R;
}

bool parseCliJson(const std::string &Text, std::vector<Diag> &Out, std::string &Error,
                  std::vector<std::string> *Errors) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    Error = "bad JSON from torchlint: " + llvm::toString(V.takeError());
    return false;
  }
  const auto *Root = V->getAsObject();
  const auto *Fs = Root ? Root->getArray("findings") : nullptr;
  if (!Fs) {
    Error = "no findings array";
    return false;
  }
  // Input problems and notices (a file typed completely through stand-in or synthesised
  // declarations is a notice: docs/reliability.md).
  for (const char *Key : {"errors", "notices"})
    if (const auto *Es = Root->getArray(Key); Es && Errors)
      for (const auto &E : *Es)
        if (auto S = E.getAsString())
          Errors->push_back(S->str());
  for (const auto &FV : *Fs) {
    const auto *O = FV.getAsObject();
    Diag D;
    D.File = O->getString("file").value_or("").str();
    D.Level = O->getString("level").value_or("").str();
    D.Message = O->getString("message").value_or("").str();
    D.Check = O->getString("check").value_or("").str();
    D.Line = static_cast<unsigned>(O->getInteger("line").value_or(0));
    D.Column = static_cast<unsigned>(O->getInteger("column").value_or(0));
    Out.push_back(D);
    // Notes, under their finding's check (the corpus compares them where a case expects one).
    if (const auto *Notes = O->getArray("notes"))
      for (const auto &NV : *Notes) {
        const auto *N = NV.getAsObject();
        if (!N)
          continue;
        Diag ND;
        ND.File = N->getString("file").value_or("").str();
        ND.Level = "note";
        ND.Message = N->getString("message").value_or("").str();
        ND.Check = D.Check;
        ND.Line = static_cast<unsigned>(N->getInteger("line").value_or(0));
        ND.Column = static_cast<unsigned>(N->getInteger("column").value_or(0));
        Out.push_back(ND);
      }
  }
  return true;
}

bool parseClangTidyText(const std::string &Text, std::vector<Diag> &Out, std::string &) {
  static const std::regex Line(
      R"(^(.+?):(\d+):(\d+): (warning|error|remark|fatal error): (.*) \[([A-Za-z0-9.,_-]+)\]$)");
  // clang-tidy prints a finding's notes after it, without a check name: they take the finding's.
  static const std::regex NoteLine(R"(^(.+?):(\d+):(\d+): note: (.*?)(?: \[([A-Za-z0-9.,_-]+)\])?$)");
  std::istringstream In(Text);
  std::string L, LastCheck;
  while (std::getline(In, L)) {
    std::smatch M;
    if (!std::regex_match(L, M, Line)) {
      if (!LastCheck.empty() && std::regex_match(L, M, NoteLine)) {
        Diag N;
        N.File = fs::path(M[1].str()).lexically_normal().string();
        N.Line = std::stoul(M[2]);
        N.Column = std::stoul(M[3]);
        N.Level = "note";
        N.Message = M[4];
        N.Check = LastCheck;
        Out.push_back(N);
      }
      continue;
    }
    LastCheck = M[6];
    Diag D;
    D.File = fs::path(M[1].str()).lexically_normal().string();
    D.Line = std::stoul(M[2]);
    D.Column = std::stoul(M[3]);
    D.Level = M[4] == "fatal error" ? "error" : M[4].str();
    D.Message = M[5];
    D.Check = M[6];
    Out.push_back(D);
  }
  return true;
}

std::string sanitizeTestName(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return Out;
}

std::vector<std::string> catalogNames() {
  std::vector<std::string> Out;
  for (const auto &C : torchlint::catalog())
    Out.push_back(C.Name.str());
  return Out;
}

} // namespace torchlint::testing

namespace {

/// Repeats each failed or skipped test's messages after the run: CI shows the tail of a long log,
/// where gtest alone names the failed tests without saying why.
class FailureDigest : public ::testing::EmptyTestEventListener {
  // (The test's name is kept at its start: UnitTest::current_test_info() takes the lock that
  // gtest holds while it reports a result.)
  void OnTestStart(const ::testing::TestInfo &T) override {
    Current = std::string(T.test_suite_name()) + "." + T.name();
  }
  void OnTestEnd(const ::testing::TestInfo &) override { Current = "(global)"; }
  void OnTestPartResult(const ::testing::TestPartResult &R) override {
    if (!R.failed() && !R.skipped())
      return;
    std::string Msg = R.message();
    if (Msg.size() > 3000)
      Msg = Msg.substr(0, 3000) + "\n    [... cut]";
    Failures.push_back(std::string(R.skipped() ? "skipped: " : "failed: ") + Current + " (" +
                       (R.file_name() ? R.file_name() : "?") + ":" + std::to_string(R.line_number()) + ")\n" + Msg);
  }
  void OnTestProgramEnd(const ::testing::UnitTest &) override {
    if (Failures.empty())
      return;
    std::fprintf(stdout, "\n[ DIGEST   ] why each failed or skipped test did (%zu):\n", Failures.size());
    for (size_t I = 0; I < Failures.size() && I < 20; ++I)
      std::fprintf(stdout, "[ DIGEST   ] %s\n", Failures[I].c_str());
    if (Failures.size() > 20)
      std::fprintf(stdout, "[ DIGEST   ] ... and %zu more\n", Failures.size() - 20);
    std::fflush(stdout);
  }
  std::vector<std::string> Failures;
  std::string Current = "(global)";
};

/// Registered before main (gtest_main's) runs the tests; the listeners own it.
const bool DigestRegistered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new FailureDigest);
  return true;
}();

} // namespace
