// Support for the corpus harness: case discovery and parsing of inline expectations, running the
// front ends, parsing their output.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace torchlint::testing {

struct Diag {
  std::string File, Level, Message, Check;
  unsigned Line = 0, Column = 0;
  bool operator<(const Diag &O) const;
};

struct Expectation {
  unsigned Line = 0, Column = 0;
  std::string Level, Substring, Check;
  bool matches(const Diag &D) const;
  std::string describe() const;
};

struct Case {
  std::string Path;      // absolute path of test_corpus/<check>/<name>.cpp
  std::string Check;     // directory name
  std::string Name;      // file stem
  std::string FixedPath; // <name>.fixed.cpp when present
  std::string Checks;    // glob of the checks under test
  std::string Config;    // --config for CheckOptions ("" for none)
  std::vector<int> Versions{1, 2};
  /// TORCHLINT-MISSING-HEADERS: headers the case includes that do not exist (never provided): the
  /// CLI must say the file was analysed partially, naming each; the plugin must report each as
  /// "'<h>' file not found" and still give the case's findings. `<h>@1` / `<h>@2`: only with that
  /// libtorch version; `<h>?`: may be missing, depending on the machine (the CUDA toolkit's headers).
  struct MissingHeader {
    std::string Name;
    int Version = 0; // 0: both
    bool Optional = false;
  };
  std::vector<MissingHeader> MissingHeaders;
  /// The headers that must be reported missing with libtorch Version.
  std::vector<std::string> requiredMissing(int Version) const;
  std::vector<Expectation> Expected;
  std::string ParseError;
  bool isNegative() const;
};

std::vector<Case> discoverCases(const std::string &CorpusDir);
Case parseCase(const std::string &Path, const std::string &Check);

/// clang-tidy glob semantics: comma-separated, '-' negates, '*' wildcard, the last match wins.
bool globMatches(const std::string &Glob, const std::string &Name);

/// Compiler flags for libtorch 1.13 (Debian) or 2.x (bundled wheel headers).
std::vector<std::string> versionFlags(int Version);
/// A PCH of torch/torch.h for the version, built once into build/corpus-pch.
std::string buildPch(int Version, std::string &Error);

struct CommandResult {
  int ExitCode = -1;
  std::string Stdout, Stderr;
};
CommandResult runCommand(const std::vector<std::string> &Args);

/// One `torchlint --fix` command over copies of corpus cases that share their checks and --config.
struct FixRun {
  /// TORCHLINT_CLI --fix <Options> --checks=... [--config=...] <copies> -- <flags> -include-pch <Pch>
  std::vector<std::string> Args;
  std::map<std::string, const Case *> Copies; // copy path -> case
};
/// Copies each case to Dir/<check>/<name>.cpp and groups the copies by (checks, config): one --fix
/// command per group, against libtorch Version with the PCH Pch. Options go right after --fix.
std::vector<FixRun> fixRuns(const std::vector<const Case *> &Cases, const std::string &Dir, int Version,
                            const std::string &Pch, const std::vector<std::string> &Options);

/// Findings of the CLI's JSON; its input problems (errors) go to Errors when given.
bool parseCliJson(const std::string &Text, std::vector<Diag> &Out, std::string &Error,
                  std::vector<std::string> *Errors = nullptr);
bool parseClangTidyText(const std::string &Text, std::vector<Diag> &Out, std::string &Error);

std::string readFile(const std::string &Path);
std::string sanitizeTestName(const std::string &S);
std::vector<std::string> catalogNames();

} // namespace torchlint::testing
