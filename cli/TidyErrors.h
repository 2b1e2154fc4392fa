// clang-tidy's errors (what runClangTidy and analyzeTU return) as torchlint findings: one
// conversion for the CLI and the language server.
#pragma once
#include "core/Findings.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace clang::tidy {
struct ClangTidyError;
} // namespace clang::tidy

namespace torchlint {

/// Where a file offset is (line and column, 1-based). The default reads the file from disk; the
/// language server answers from the edited text for the document it analysed.
using LineColumnOf =
    llvm::function_ref<void(const std::string &File, unsigned Offset, unsigned &Line, unsigned &Column)>;

/// Appends one finding per error to R, with its notes and fix-its. The finding's file is made
/// absolute against the error's build directory; with AbsoluteNotesAndFixes, the notes' and
/// fix-its' files too (the CLI keeps them as clang-tidy gives them).
void collectTidyErrors(const std::vector<clang::tidy::ClangTidyError> &Errors, RunResult &R,
                       bool AbsoluteNotesAndFixes = false, LineColumnOf LineColumn = nullptr);

} // namespace torchlint
