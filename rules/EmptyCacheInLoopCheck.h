// torch-empty-cache-in-loop: the CUDA caching allocator flushed on every step. emptyCache() hands
// every cached, unused block back to the driver (cudaFree, which waits for the device), so the
// next step gets the same memory again through cudaMalloc. docs/checks/torch-empty-cache-in-loop.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-empty-cache-in-loop: c10::cuda::CUDACachingAllocator::emptyCache() (or libtorch's
/// wrappers of it) in hot code.
class EmptyCacheInLoopCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint
