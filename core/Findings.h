// torchlint's own view of a run's results, independent of the front end: what every output
// format (text, json, sarif, yaml, and later html/markdown) and --fix consume.
#pragma once
#include <functional>
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace torchlint {

struct Replacement {
  std::string File;
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

struct Note {
  std::string Message, File;
  unsigned Line = 0, Column = 0, Offset = 0;
};

struct Finding {
  std::string Check; // torch-sync-item; clang-diagnostic-error for compiler errors
  std::string Level; // warning, note, remark, error
  std::string Message;
  std::string File; // absolute path
  unsigned Line = 0, Column = 0, Offset = 0;
  std::vector<Note> Notes;
  std::vector<Replacement> Fixes;
  /// Stable identity across unrelated edits (see computeFingerprints); SARIF partialFingerprints.
  std::string Fingerprint;

  /// A compiler error (the TU did not parse): a tool/input error, not a finding.
  bool isCompilerError() const { return Level == "error" || Level == "fatal"; }
};

struct RunResult {
  std::vector<Finding> Findings;
  /// Tool or input errors that are not diagnostics (missing file, bad compile database).
  std::vector<std::string> Errors;
  /// Notices: what the user should know that is not an error and leaves the exit status alone
  /// (a file typed completely through stand-in or synthesised declarations; --allow-partial).
  std::vector<std::string> Notices;
  unsigned FilesAnalyzed = 0;
  /// A project-mode shard (`-p build --shard K/N`): the project-model summaries (file, JSON text)
  /// of the files it analysed, written with its results (JSON "summaries", SARIF run property
  /// "torchlint/summaries"); its findings still carry their basis (model/HotBasis.h) and
  /// `torchlint merge` decides them with the model of every shard's summaries.
  std::vector<std::pair<std::string, std::string>> Summaries;

  unsigned findingCount() const;
  bool hasErrors() const;
  /// 0 clean, 1 findings, 2 tool or input errors, 3 both.
  int exitCode() const;
  void sort();
};

/// 1-based line and column (in bytes, as clang counts) of Offset in File.
bool offsetToLineColumn(llvm::StringRef File, unsigned Offset, unsigned &Line, unsigned &Column);
/// The text of line Line (1-based) of File, without the newline.
std::string sourceLine(llvm::StringRef File, unsigned Line);

enum class Format { Text, Json, Sarif, Yaml, Html, Markdown, CodeQuality };

void writeText(llvm::raw_ostream &OS, const RunResult &R, bool Color);
void writeJson(llvm::raw_ostream &OS, const RunResult &R);
/// Options of the audit reports (SARIF, HTML, Markdown).
struct ReportOptions {
  /// Absolute directory URIs and paths are made relative to (SARIF: uriBaseId SRCROOT). Empty: absolute.
  std::string Root;
  /// Where the probe's results live (docs/probe/*.json, issue 6 shape); empty: none.
  std::string ProbeDir;
};
void writeSarif(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts = {});
/// Self-contained (offline) HTML audit report: summaries, chart, snippets, why, fix diffs, probe speedups.
void writeHtml(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts);
/// A summary for pull-request comments.
void writeMarkdown(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts);
/// Reads what writeSarif wrote (merge, --baseline).
bool readSarif(llvm::StringRef Text, RunResult &Out, std::string &Err);
/// Reads a JSON or SARIF result file, whichever it is.
bool readResultsFile(llvm::StringRef Path, RunResult &Out, std::string &Err);

/// Fills Finding::Fingerprint where empty: a hash of the check, the file's name, the enclosing
/// function, the finding's source line with whitespace removed, and its rank among identical
/// (check, file, function, line) findings. Survives unrelated line moves.
void computeFingerprints(RunResult &R);
/// Removes the findings whose fingerprint is in Baseline (as a multiset). Returns how many.
unsigned applyBaseline(RunResult &R, const RunResult &Baseline);
/// Keeps only findings on lines added or changed since the git revision Ref (working tree vs Ref).
bool filterSinceGitRef(RunResult &R, llvm::StringRef Ref, std::string &Err);
/// The deterministic slice K of N (1-based) of Inputs: every N-th file of the sorted list.
std::vector<std::string> selectShard(const std::vector<std::string> &Inputs, unsigned K, unsigned N);
/// Parses "K/N" (1 <= K <= N).
bool parseShard(llvm::StringRef Spec, unsigned &K, unsigned &N);
/// `torchlint merge OUT IN...`: merges SARIF or JSON results of shards into OUT.
/// Decide: called with the merged results before they are written (the CLI decides a
/// project-mode shard's findings with the project model there; report/ cannot include model/).
int mergeMain(int Argc, const char **Argv, const std::function<void(RunResult &)> &Decide = {});
void writeYaml(llvm::raw_ostream &OS, const RunResult &R, llvm::StringRef MainFile);
/// Reads what writeJson wrote (used to merge -j worker results).
bool readJson(llvm::StringRef Text, RunResult &Out, std::string &Err);

} // namespace torchlint
