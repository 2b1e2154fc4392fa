// --fix --verify: after the fixes are written, recompile (syntax only, in-process) every
// translation unit a changed file belongs to, with that TU's own flags from the compilation
// database, and put back the pre-fix content of its changed files if it no longer compiles.
#pragma once
#include "fixits/ApplyFixes.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace torchlint {

struct VerifyReport {
  unsigned Compiled = 0;             // TUs recompiled
  std::vector<std::string> Restored; // "file: restored: <TU> no longer compiles after the fix (<first error>)"
  std::vector<std::string> Errors;   // a file that could not be restored (should not happen)
};

/// Inputs: the analysed TUs (absolute paths). A changed input is its own TU; a changed file that
/// is not an input (a header) is verified through every input.
VerifyReport verifyFixes(const FixReport &Fixes, const std::vector<std::string> &Inputs,
                         const clang::tooling::CompilationDatabase &DB);

} // namespace torchlint
