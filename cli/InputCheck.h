// Bad input, caught before the analysis: every problem becomes one line that names the file
// (RunResult::Errors, exit code 2, or 3 with findings), never a crash or a hang.
#pragma once
#include "core/Findings.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace torchlint {

struct InputCheckOptions {
  std::string BuildPath;       // -p: a build directory or a compile_commands.json
  bool HaveFixedFlags = false; // flags after --: no compilation database is read
};

/// The inputs worth analysing (absolute, dots removed, duplicates dropped). Reports, one line
/// each: a file that does not exist, a directory, something that is not a regular file (a FIFO
/// would hang the parser), an unreadable file, a binary file (NUL bytes), a compilation database
/// that cannot be parsed or has no entries, and a file the database has no command for (LLVM's
/// JSON database would silently borrow another file's flags).
std::vector<std::string> checkInputs(const std::vector<std::string> &Files, const InputCheckOptions &Opts,
                                     RunResult &R);

/// The problem with -p BUILD (one line: no such directory, no database in it, a database that
/// cannot be parsed or has no entries), or "" when it can be read. Project mode reads the
/// database before the inputs are checked, so it asks first.
std::string buildPathProblem(const std::string &BuildPath);

/// The names in a clang-tidy checks glob that look like torchlint checks (torch-...) but are
/// not in the catalog. Globs with '*' are not names.
std::vector<std::string> unknownCheckNames(llvm::StringRef Glob);

/// Warnings (one line each) for unknown torch-* check names in the .clang-tidy files that apply
/// to Files. Each (file, name) is reported once.
std::vector<std::string> unknownChecksInConfigFiles(const std::vector<std::string> &Files);

/// Keeps the first compiler error of each file and folds the rest into it ("... (and 41 more
/// errors in this file)"): a file that does not parse is one input error, not a page of them.
void collapseCompilerErrors(RunResult &R);

} // namespace torchlint
