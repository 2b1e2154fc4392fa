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

/// `// CHECK-FIXES: <text>` (or `// CHECK-FIXES: :[[@LINE-N]]: <text>`, `:<line>: <text>`): after
/// all fix-its are applied, original line Line must read <text> (a substring). Without a line, the
/// expectation is about the nearest line above it that is not blank and not a `//` comment.
struct FixExpectation {
  unsigned Line = 0;      // line of the original case
  unsigned Directive = 0; // line of the CHECK-FIXES comment
  std::string Text;
  std::string describe() const;
};

/// What each original line became after --fix: a line diff (longest common subsequence) of Original
/// and Fixed. A replaced line maps to its replacement; lines inserted between two unchanged lines are
/// appended to the line above them (a fix that inserts a statement after `{` is expected on the `{`
/// line), or to line 1 when inserted before it. Lines[i] is line i+1's text after the fix ('\n'
/// between the lines it became), Changed[i] whether the fix touched it. Several lines replaced by a
/// different number of lines each map to the whole replacement and share a Hunk number (0: none).
struct FixedLines {
  std::vector<std::string> Lines;
  std::vector<bool> Changed;
  std::vector<int> Hunk;
  /// The lines the fix wrote for line i+1: its replacement, and the lines inserted after it.
  std::vector<std::vector<std::string>> Written;
};
FixedLines mapFixedLines(const std::string &Original, const std::string &Fixed);

/// The CHECK-FIXES of a case against the file after --fix, as lit's CHECK-FIXES: "" when every
/// expectation holds, else one line per problem. Also a problem: an expectation whose text the
/// original line already contains (it would check nothing), and a line the fix wrote (replaced or
/// inserted) that contains no CHECK-FIXES text about its original line: an inline case is nearly
/// as strict as a whole-file .fixed.cpp comparison. A deleted line cannot be expected inline.
std::string checkFixes(const std::vector<FixExpectation> &Expected, const std::string &Original,
                       const std::string &Fixed);

struct Case {
  std::string Path;      // absolute path of test_corpus/<check>/<name>.cpp
  std::string Check;     // directory name
  std::string Name;      // file stem
  std::string FixedPath; // <name>.fixed.cpp when present
  std::string Checks;    // glob of the checks under test
  std::string Config;    // --config for CheckOptions ("" for none)
  std::vector<int> Versions{1, 2};
  /// TORCHLINT-MISSING-HEADERS: headers the case includes that do not exist (never provided): the
  /// CLI must say the file was analysed partially (or, when every statement was typed through
  /// stand-in or synthesised declarations, say so in a notice), naming each; the plugin must report
  /// each as "'<h>' file not found" (with what served it) and still give the case's findings. `<h>@1` / `<h>@2`: only with that
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
  std::vector<FixExpectation> ExpectedFixes; // inline CHECK-FIXES
  /// The case tests its fix-its: a <name>.fixed.cpp or inline CHECK-FIXES (never both).
  bool testsFixes() const { return !FixedPath.empty() || !ExpectedFixes.empty(); }
  /// "" when the file after --fix is what the case expects; else what differs.
  std::string checkFixed(const std::string &After) const;
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

/// One `torchlint --fix` (or `clang-tidy-19 -load <plugin> --fix`) command over copies of corpus cases that share their
/// checks and --config.
struct FixRun {
  /// TORCHLINT_CLI --fix <Options> --checks=... [--config=...] <copies> -- <flags> -include-pch <Pch>
  std::vector<std::string> Args;
  std::map<std::string, const Case *> Copies; // copy path -> case
};
/// Copies each case to Dir/<check>/<name>.cpp and groups the copies by (checks, config): one --fix
/// command per group, against libtorch Version with the PCH Pch. Options go right after --fix.
/// Plugin: clang-tidy-19 -load torchlint-tidy-plugin.so --fix instead of the CLI.
std::vector<FixRun> fixRuns(const std::vector<const Case *> &Cases, const std::string &Dir, int Version,
                            const std::string &Pch, const std::vector<std::string> &Options, bool Plugin = false);

/// Findings of the CLI's JSON; its input problems (errors) go to Errors when given.
bool parseCliJson(const std::string &Text, std::vector<Diag> &Out, std::string &Error,
                  std::vector<std::string> *Errors = nullptr);
bool parseClangTidyText(const std::string &Text, std::vector<Diag> &Out, std::string &Error);

std::string readFile(const std::string &Path);
std::string sanitizeTestName(const std::string &S);
std::vector<std::string> catalogNames();

} // namespace torchlint::testing
