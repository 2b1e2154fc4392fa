// Whether a path lies in a folder, by its text (no file system access): one definition for the
// stand-in and synthesis folders (core/Recovery.cpp, cli/Accel.cpp) and the project's include
// folders (cli/ProjectFlags.cpp), unit-tested in tests/utils/UtilsTest.cpp. "/a/bc" is not in
// "/a/b"; a folder given with a trailing separator means the same folder.
#pragma once
#include "llvm/ADT/StringRef.h"

namespace torchlint {

/// Path is strictly below Dir (never Dir itself; never anything when Dir is empty).
bool isWithin(llvm::StringRef Path, llvm::StringRef Dir);
/// Path is Dir or below it.
bool isSameOrWithin(llvm::StringRef Path, llvm::StringRef Dir);

} // namespace torchlint
