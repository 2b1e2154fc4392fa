// What the analysis saw: a content hash of every file clang read, taken as it read it, so that
// --fix can refuse a file that changed between analysis and fixing (an editor saved it, a
// formatter ran). HashingFileSystem wraps the VFS the analysis reads through.
#pragma once
#include <atomic>
#include <memory>
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

/// A proxy file system that sets Read once the file at Path is looked up or opened through it (the
/// CLI's torch/extension.h read as its C++ part: said only for a file that reached it).
class ReadRecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  ReadRecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS, std::string Path,
                          std::shared_ptr<std::atomic<bool>> Read)
      : ProxyFileSystem(std::move(FS)), Path(std::move(Path)), Read(std::move(Read)) {}
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &P) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &P) override;

private:
  void note(const llvm::Twine &P);
  std::string Path;
  std::shared_ptr<std::atomic<bool>> Read;
};

} // namespace torchlint
