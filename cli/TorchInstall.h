// Finding libtorch's headers when the user gave no compile flags: $Torch_DIR (the Torch CMake
// config directory), $LIBTORCH (an unpacked libtorch), $CMAKE_PREFIX_PATH, the usual prefixes,
// torchlint's bundled headers, and Debian's libtorch-dev.
#pragma once
#include <string>
#include <vector>

namespace torchlint {

struct TorchInstall {
  std::vector<std::string> IncludeDirs; // passed as -isystem
  std::string Std = "c++17";            // c++20 when the headers demand it (torch >= 2.10)
  std::string Where;                    // for messages
  bool Found = false;
  int Major = 0, Minor = 0;             // torch/version.h; 0: unknown
  std::string version() const { return Major ? std::to_string(Major) + "." + std::to_string(Minor) : "?"; }
};

/// The first install in the order above; with MinMajor, the first whose version is at least
/// MinMajor (Debian's 1.13 is then skipped).
TorchInstall findTorchInstall(int MinMajor = 0);
/// -std=..., -isystem ... for the found install (and -x c++).
std::vector<std::string> defaultCompileFlags(const TorchInstall &T);
/// The install rooted at Prefix (a directory with include/torch/...), or Found=false.
TorchInstall torchInstallAt(const std::string &Prefix);

/// torchlint's flags for a file when the user gave none and no compile database was found
/// (issue 24): the C++ standard the project's build asks for (cli/ProjectFlags.h) if newer than
/// libtorch's, the build's include folders (-I), libtorch's headers (-isystem), then every folder
/// of the project holding headers (-idirafter, searched last). A project that needs C++20 with
/// libtorch 1.x headers (which do not parse under C++20 with clang 19) gets libtorch 2.x headers
/// where some are found. Summary: one line for the user, saying where each part came from.
std::vector<std::string> guessedCompileFlags(const std::string &File, std::string &Summary);
} // namespace torchlint
