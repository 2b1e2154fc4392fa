// A file's size and modification time: enough to tell that it changed since it was read (the
// language server's dependencies of a cached result, the compile database's shared parse). One
// definition (utils/, header only).
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include <cstdint>
#include <utility>

namespace torchlint {

/// (size, modification time); (~0, -1) when the file cannot be read (missing, say).
inline std::pair<uint64_t, int64_t> fileStamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St) || !llvm::sys::fs::exists(St))
    return {~uint64_t(0), -1};
  return {St.getSize(), static_cast<int64_t>(St.getLastModificationTime().time_since_epoch().count())};
}

} // namespace torchlint
