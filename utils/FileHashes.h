// What the analysis saw: a content hash of every file clang read, taken as it read it, so that
// --fix can refuse a file that changed between analysis and fixing (an editor saved it, a
// formatter ran). HashingFileSystem wraps the VFS the analysis reads through.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace torchlint {

uint64_t contentHash(llvm::StringRef Content);

class FileHashes {
public:
  /// Records the hash of Path's content (made absolute, dots removed); the first record wins.
  void record(llvm::StringRef Path, llvm::StringRef Content);
  /// Reads Path now and records it (for files hashed before the analysis starts).
  bool recordFromDisk(llvm::StringRef Path);
  std::optional<uint64_t> lookup(llvm::StringRef Path) const;
  size_t size() const;

private:
  static std::string key(llvm::StringRef Path);
  mutable std::mutex M;
  std::map<std::string, uint64_t> Hashes;
};

/// A proxy file system that records the content of every file opened through it.
class HashingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  HashingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS, FileHashes &Out)
      : ProxyFileSystem(std::move(FS)), Out(Out) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;

private:
  FileHashes &Out;
};

} // namespace torchlint
