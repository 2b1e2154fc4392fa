// torchlint's own view of a run's results, independent of the front end: what every output
// format (text, json, sarif, yaml, and later html/markdown) and --fix consume.
#pragma once
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
  std::string Check;   // torch-sync-item; clang-diagnostic-error for compiler errors
  std::string Level;   // warning, note, remark, error
  std::string Message;
  std::string File;    // absolute path
  unsigned Line = 0, Column = 0, Offset = 0;
  std::vector<Note> Notes;
  std::vector<Replacement> Fixes;

  /// A compiler error (the TU did not parse): a tool/input error, not a finding.
  bool isCompilerError() const { return Level == "error" || Level == "fatal"; }
};

struct RunResult {
  std::vector<Finding> Findings;
  /// Tool or input errors that are not diagnostics (missing file, bad compile database).
  std::vector<std::string> Errors;
  unsigned FilesAnalyzed = 0;

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

enum class Format { Text, Json, Sarif, Yaml };

void writeText(llvm::raw_ostream &OS, const RunResult &R, bool Color);
void writeJson(llvm::raw_ostream &OS, const RunResult &R);
void writeSarif(llvm::raw_ostream &OS, const RunResult &R);
void writeYaml(llvm::raw_ostream &OS, const RunResult &R, llvm::StringRef MainFile);
/// Reads what writeJson wrote (used to merge -j worker results).
bool readJson(llvm::StringRef Text, RunResult &Out, std::string &Err);

} // namespace torchlint
