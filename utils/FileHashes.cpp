#include "utils/FileHashes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace torchlint {

uint64_t contentHash(llvm::StringRef Content) { return llvm::xxh3_64bits(llvm::arrayRefFromStringRef(Content)); }

std::string FileHashes::key(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

void FileHashes::record(llvm::StringRef Path, llvm::StringRef Content) {
  std::string K = key(Path);
  uint64_t H = contentHash(Content);
  std::lock_guard<std::mutex> L(M);
  Hashes.try_emplace(K, H);
}

bool FileHashes::recordFromDisk(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return false;
  record(Path, (*Buf)->getBuffer());
  return true;
}

std::optional<uint64_t> FileHashes::lookup(llvm::StringRef Path) const {
  std::string K = key(Path);
  std::lock_guard<std::mutex> L(M);
  auto It = Hashes.find(K);
  if (It == Hashes.end())
    return std::nullopt;
  return It->second;
}

size_t FileHashes::size() const {
  std::lock_guard<std::mutex> L(M);
  return Hashes.size();
}

namespace {
class HashingFile : public llvm::vfs::File {
public:
  HashingFile(std::unique_ptr<llvm::vfs::File> F, std::string Path, FileHashes &Out)
      : F(std::move(F)), Path(std::move(Path)), Out(Out) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return F->status(); }
  llvm::ErrorOr<std::string> getName() override { return F->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t FileSize,
                                                               bool RequiresNullTerminator, bool IsVolatile) override {
    auto B = F->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (B)
      Out.record(Path, (*B)->getBuffer());
    return B;
  }
  std::error_code close() override { return F->close(); }

private:
  std::unique_ptr<llvm::vfs::File> F;
  std::string Path; // absolute, against the file system's working directory
  FileHashes &Out;
};
} // namespace

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> HashingFileSystem::openFileForRead(const llvm::Twine &Path) {
  auto F = ProxyFileSystem::openFileForRead(Path);
  if (!F)
    return F;
  llvm::SmallString<256> Abs;
  Path.toVector(Abs);
  makeAbsolute(Abs);
  return std::unique_ptr<llvm::vfs::File>(std::make_unique<HashingFile>(std::move(*F), std::string(Abs), Out));
}

void ReadRecordingFileSystem::note(const llvm::Twine &P) {
  llvm::SmallString<256> S;
  P.toVector(S);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  if (S == Path)
    *Read = true;
}

llvm::ErrorOr<llvm::vfs::Status> ReadRecordingFileSystem::status(const llvm::Twine &P) {
  llvm::ErrorOr<llvm::vfs::Status> St = ProxyFileSystem::status(P);
  if (St)
    note(P);
  return St;
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> ReadRecordingFileSystem::openFileForRead(const llvm::Twine &P) {
  auto F = ProxyFileSystem::openFileForRead(P);
  if (F)
    note(P);
  return F;
}

} // namespace torchlint
