// Reading a JSON file whose absence or damage is not an error to report (caches, manifests,
// optional inputs): the caller only learns that there is no value.
#pragma once
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <optional>

namespace torchlint {

/// The JSON value in the file at Path, or nullopt when it cannot be read or is not JSON.
inline std::optional<llvm::json::Value> readJsonFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  return std::move(*V);
}

} // namespace torchlint
