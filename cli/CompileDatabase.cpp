#include "cli/CompileDatabase.h"
#include "utils/FileStamp.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <mutex>

using namespace clang::tooling;

namespace torchlint {

namespace {

struct Parsed {
  std::shared_ptr<const JSONCompilationDatabase> DB;
  std::string Err;
  /// The file as it was when parsed: a later call that finds it changed (a re-run of CMake while
  /// the language server runs) parses it again. Earlier holders keep the database they were given.
  std::pair<uint64_t, int64_t> When;
};

std::mutex Mu;
std::map<std::string, Parsed> ByPath; // absolute path, dots removed
unsigned Parses = 0;

/// Reads through a shared database (LLVM's wrappers own the database they wrap).
class SharedDatabase : public CompilationDatabase {
public:
  explicit SharedDatabase(std::shared_ptr<const CompilationDatabase> DB) : DB(std::move(DB)) {}
  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    return DB->getCompileCommands(File);
  }
  std::vector<std::string> getAllFiles() const override { return DB->getAllFiles(); }
  std::vector<CompileCommand> getAllCompileCommands() const override { return DB->getAllCompileCommands(); }

private:
  std::shared_ptr<const CompilationDatabase> DB;
};

} // namespace

std::shared_ptr<const JSONCompilationDatabase> jsonDatabase(llvm::StringRef Path, std::string &Err) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::pair<uint64_t, int64_t> Now = fileStamp(Abs);
  std::lock_guard<std::mutex> L(Mu);
  auto [It, New] = ByPath.try_emplace(std::string(Abs));
  if (New || It->second.When != Now) {
    ++Parses;
    It->second = Parsed();
    It->second.When = Now;
    It->second.DB = JSONCompilationDatabase::loadFromFile(Abs, It->second.Err, JSONCommandLineSyntax::AutoDetect);
  }
  if (!It->second.DB)
    Err = It->second.Err;
  return It->second.DB;
}

std::unique_ptr<CompilationDatabase> jsonDatabaseAsWritten(llvm::StringRef Path, std::string &Err) {
  std::shared_ptr<const JSONCompilationDatabase> DB = jsonDatabase(Path, Err);
  if (!DB)
    return nullptr;
  return std::make_unique<SharedDatabase>(std::move(DB));
}

std::unique_ptr<CompilationDatabase> interpolatedJsonDatabase(llvm::StringRef Path, std::string &Err) {
  std::unique_ptr<CompilationDatabase> DB = jsonDatabaseAsWritten(Path, Err);
  if (!DB)
    return nullptr;
  // As clang's JSON plugin does for loadFromDirectory.
  return inferTargetAndDriverMode(
      inferMissingCompileCommands(expandResponseFiles(std::move(DB), llvm::vfs::getRealFileSystem())));
}

unsigned jsonDatabaseParses() {
  std::lock_guard<std::mutex> L(Mu);
  return Parses;
}

} // namespace torchlint
