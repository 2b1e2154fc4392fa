// Automatic precompiled header of a translation unit's leading block of system includes (in
// practice `#include <torch/torch.h>` and friends), built once per compiler, flags (less the header
// search directories), header contents and resolution of the block's headers, and shared by every
// TU (and every run) with the same block that resolves it the same way: TUs that differ only in
// unrelated -I folders share one.
//
// Exactness: the TU is parsed unchanged with the PCH loaded in front of it (-include-pch), so its
// include directives are seen again and skipped because the headers are already included. The PCH
// therefore only holds a prefix of the block whose every directly included header is
// include-guarded (or #pragma once) and which enters no non-system file: the user's own headers
// are always parsed in the TU itself, so their declarations reach the checks exactly as without a
// PCH. A block that cannot be precompiled exactly is parsed normally. Two departures from the
// letter, each checked: a header of the block that no folder holds (a library that is not
// installed) is left to the TU, which meets it after the PCH's headers and recovers from it with
// torchlint's own declarations; and a project header's include guards, `#undef`s and forward
// declarations of classes (`class Trainer;`), which the TU then sees after the block's headers,
// must be names those headers never look at. A header of the block without an include guard
// (libstdc++'s <cmath>) is read again by the TU: the block is kept only when that second reading,
// tried once after the build, declares nothing and leaves every macro as it was.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace torchlint {

/// What a PCH of torchlint's holds (its build: BlockPchAction), as a version: changed whenever that
/// build changes, so that every cache of PCHs (the automatic one's key, the corpus tests' PCH of
/// `torchlint pch`) builds new ones. 6: without the block's vtable uses (DropVTableUses).
inline constexpr const char *PchFormat = "6";

/// Path as the caches record it: absolute (against Files' working directory), without "." and,
/// where it has a "..", the real path. Removing ".." lexically is wrong after a symbolic link: a
/// compiler named without a folder (`clang++` in a compile database) finds the C++ library as
/// `/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12`, which is /usr/include/c++/12 where
/// /lib links to usr/lib, and /include/c++/12 (no such folder) read lexically.
std::string cachePath(llvm::StringRef Path, clang::FileManager &Files);

/// The compiler of a compile command as the build runs it: a name without a folder (`clang++`,
/// `g++`) looked up in PATH, as a shell would; anything else unchanged. The driver finds its
/// installation, the GCC it uses and so the standard library's folders from this path.
std::string resolveCompiler(llvm::StringRef Argv0);

/// The leading `#include <...>` directives of Source, as written (`torch/torch.h`), before any
/// other directive, declaration or quoted include. Comments and blank lines are skipped.
std::vector<std::string> leadingSystemIncludes(llvm::StringRef Source);

struct PchUse {
  std::string Path;              // the PCH to load; empty: parse without one
  std::vector<std::string> Deps; // the files the PCH was built from (for the result cache)
  bool Built = false;            // built by this call (cold)
  std::string Why;               // why no PCH (for --internal-verbose-accel diagnostics)
};

/// The cached PCH for Inv's main file (built and stored under CacheDir/pch when missing or stale),
/// or an empty Path when the TU has no block that can be precompiled exactly. Safe to call from
/// concurrent processes (a lock file serialises the build).
PchUse preparePch(const clang::CompilerInvocation &Inv, clang::FileManager &Files,
                  std::shared_ptr<clang::PCHContainerOperations> Ops, llvm::StringRef CacheDir);

/// `torchlint pch HEADER -o OUT -- FLAGS`: a PCH of HEADER built as the automatic PCH is (its
/// pending templates instantiated into it, its vtable uses dropped: about 0.8 s instead of 3.6 s
/// per libtorch TU that loads it), for `clang-tidy-19 -load` users (`-- FLAGS -include-pch OUT`)
/// and the corpus tests. OUT is replaced whole or not at all. 0 when written; 2 (said on stderr,
/// with the compiler's errors) when not.
int pchMain(int argc, const char **argv, llvm::StringRef ResourceDir);

} // namespace torchlint
