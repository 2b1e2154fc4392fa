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
};

TorchInstall findTorchInstall();
/// -std=..., -isystem ... for the found install (and -x c++).
std::vector<std::string> defaultCompileFlags(const TorchInstall &T);
/// The install rooted at Prefix (a directory with include/torch/...), or Found=false.
TorchInstall torchInstallAt(const std::string &Prefix);

} // namespace torchlint
