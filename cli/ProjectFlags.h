// A newcomer's first run (issue 24): where the compile flags of a file come from when the user
// gave none.
//  - findCompileDatabase: a compile_commands.json where clangd looks for one (the file's folders up
//    to the repository root, and their build*/, out/, cmake-build-*/ subfolders);
//  - guessProjectFlags: without any database, the C++ standard and the include folders the way
//    the project's build sets them (CMake, meson, Bazel), and the folders holding the project's
//    headers as a last resort. The driver adds libtorch's headers (cli/TorchInstall.h).
// Reads files only; no process is run, nothing is written.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>
#include <vector>

namespace torchlint {

/// The repository File belongs to: the nearest folder above it holding .git; without one, the
/// highest folder of the unbroken chain of folders above File that hold a build file
/// (CMakeLists.txt, meson.build, WORKSPACE, MODULE.bazel); else File's folder.
std::string projectRoot(llvm::StringRef File);

struct DatabaseFound {
  std::string Path; // .../compile_commands.json or .../compile_flags.txt; empty: none
  std::string Why;  // "next to the sources", "in build/ below /p" (for the one line on stderr)
};

/// Where clangd would look, nearest first: for each folder D from File's folder up to its
/// repository root (projectRoot), D/compile_commands.json, D/compile_flags.txt, then
/// D/build*/compile_commands.json, D/out/compile_commands.json, D/cmake-build-*/compile_commands.json
/// that lists File (the first by name). Above the repository root, only D/compile_commands.json
/// and D/compile_flags.txt (as LLVM's autoDetectFromSource).
DatabaseFound findCompileDatabase(llvm::StringRef File);

struct ProjectFlags {
  std::string Root;
  /// The C++ standard the build asks for (17, 20, 23, 26); 0: the build does not say.
  int Std = 0;
  std::string StdFrom; // "CMakeLists.txt:3 (CMAKE_CXX_STANDARD 20)", relative to Root
  /// Include folders the build adds (include_directories, target_include_directories, meson's
  /// include_directories, Bazel's includes and -I copts), in the order found; they exist.
  std::vector<std::string> IncludeDirs;
  /// Every listing of an include folder by a build file, in reading order, repeats kept: (folder,
  /// the folder of the build file that lists it). A folder two build files list is in
  /// IncludeDirs once; each file's order follows its own build files (nearestFirst).
  std::vector<std::pair<std::string, std::string>> IncludeListings;
  std::vector<std::string> IncludesFrom;  // the build files they came from, relative to Root
  /// Every folder of the project holding headers (and the include/ folders above them), for
  /// -idirafter: searched after everything else, they serve only includes nothing else serves.
  std::vector<std::string> HeaderDirs;
  bool Truncated = false; // the scan stopped at its limit
};

/// Reads the build files of File's project (projectRoot). Bounded: 20,000 directory entries.
/// The folders come in File's order (nearestFirst). A project's scan is done once per process.
ProjectFlags guessProjectFlags(llvm::StringRef File);

/// Orders P's folders for File, as its own build would search them: the include folders added
/// by the build files of File's folder and the folders above it first (in the order found, which
/// is CMake's: a parent folder's include_directories() come before a target's own), then the
/// others (a sibling example's, a library's); the folders with headers by how much of File's path
/// they share, most first. A collection of examples, each with its own CMakeLists.txt and include/ holding
/// the same header names (`transform.h`), then finds each example's own header.
void nearestFirst(ProjectFlags &P, llvm::StringRef File);

/// "-std=c++20" style numbers: 17 for "c++17", "gnu++1z"; 20 for "c++2a"; 0 when not a standard.
int parseCxxStd(llvm::StringRef Spelling);

} // namespace torchlint
