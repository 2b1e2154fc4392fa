// Per-translation-unit caches for the shared analyses: one object per TU, built on first use and
// kept for this thread until the TU's ASTContext dies or another TU asks.
#pragma once
#include "clang/AST/ASTContext.h"
#include <memory>
#include <type_traits>

namespace torchlint {

/// The T of the TU that owns Ctx, built on first use (T(Ctx), or T() when T does not take the
/// context) and cached for this thread. The entry dies with its ASTContext (AddDeallocation), so
/// a later TU whose ASTContext happens to get the same address never sees a stale one; asking for
/// another ASTContext replaces it. Each T has its own cache.
template <class T> T &perTU(clang::ASTContext &Ctx) {
  static thread_local const clang::ASTContext *Owner = nullptr;
  static thread_local std::unique_ptr<T> Cached;
  if (Owner != &Ctx || !Cached) {
    Cached.reset();
    Owner = nullptr;
    if constexpr (std::is_constructible_v<T, clang::ASTContext &>)
      Cached = std::make_unique<T>(Ctx);
    else
      Cached = std::make_unique<T>();
    Owner = &Ctx;
    Ctx.AddDeallocation(
        [](void *Dying) {
          if (Dying == Owner) {
            Cached.reset();
            Owner = nullptr;
          }
        },
        &Ctx);
  }
  return *Cached;
}

} // namespace torchlint
