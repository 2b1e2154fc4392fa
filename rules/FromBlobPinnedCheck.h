// torch-from-blob-pinned: torch::from_blob(ptr, sizes, options.pinned_memory(true)). from_blob
// wraps memory the caller already owns: it allocates nothing, so it cannot pin anything, and the
// pinned_memory(true) in its options is ignored. The memory stays pageable, and a later
// `.to(device, /*non_blocking=*/true)` of it is staged through a pinned bounce buffer by the
// driver and waits: the copy the user meant to overlap with the GPU's work is synchronous. The
// fix: copy into a buffer that is pinned (`torch::empty(sizes, options.pinned_memory(true))`
// allocated once, `buffer.copy_(torch::from_blob(ptr, sizes, options))`), or `.pin_memory()` the
// wrapped tensor (one pinned allocation and a host copy). docs/checks/torch-from-blob-pinned.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-from-blob-pinned: a from_blob() call whose TensorOptions say pinned_memory(true) (written
/// in the call, or in a local options variable it reads).
class FromBlobPinnedCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint
