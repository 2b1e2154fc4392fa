// Which libtorch a translation unit was compiled against, read from the headers it included
// (TORCH_VERSION_MAJOR / TORCH_VERSION_MINOR in torch/version.h or torch/headeronly/version.h).
#pragma once

namespace clang {
class Preprocessor;
}

namespace torchlint {

struct TorchVersion {
  int Major = 0;
  int Minor = 0;
  bool Known = false;
  /// An unknown version is treated as current (2.x): rules keep their modern behaviour.
  bool atLeast(int Ma, int Mi) const { return !Known || Major > Ma || (Major == Ma && Minor >= Mi); }
};

TorchVersion readTorchVersion(clang::Preprocessor &PP);

} // namespace torchlint
