// Writing a file atomically: the text goes to a new temporary file beside it (same folder, so the
// same file system), which is then renamed over it. A reader (another -j worker, the plugin, an
// editor) sees the old file or the new one, never part of one; a failure leaves the old file and no
// temporary file. Used for caches, the project index, the CUDA host header and --fix.
#pragma once
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <system_error>

namespace torchlint {

/// The suffix of writeFileAtomically's temporary files ('%' is a random character).
constexpr llvm::StringLiteral AtomicTempSuffix = ".torchlint-%%%%%%";

/// Why writeFileAtomically failed: the step, the temporary file and the system's reason. Callers
/// word their own messages from it.
struct AtomicWriteError {
  enum StepKind {
    CreateTemp, ///< the temporary file could not be created (Temp is empty)
    Write,      ///< writing or closing the temporary file failed
    Rename,     ///< renaming it over Path failed
    Abandoned,  ///< BeforeRename returned false (EC is empty)
  } Step = CreateTemp;
  std::string Temp;
  std::error_code EC;
};

/// Writes Text to Path through a unique temporary file Path + AtomicTempSuffix renamed over Path.
/// BeforeRename, when given, is called with the written temporary file just before the rename
/// (to set its permissions, to look at Path a last time); false abandons the write. Returns true;
/// false when any step fails or is abandoned, with Path left as it was, the temporary file
/// removed, and *Err (when given) saying why. Path's folder must exist.
bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text, AtomicWriteError *Err = nullptr,
                         llvm::function_ref<bool(llvm::StringRef Temp)> BeforeRename = nullptr);

} // namespace torchlint
