// Per-translation-unit result cache. An entry is found by a key over everything that decides the
// analysis up front (torchlint and LLVM version, the torchlint binary, the main file's name and
// contents, its compile command, the effective clang-tidy configuration: checks, options, header
// filter) and is valid only while every file the analysis read (the include closure, recorded
// when the entry was stored) has the contents it had then: same size and modification time, or,
// where the time changed, the same content hash.
#pragma once
#include "core/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
namespace tooling {
class CompilationDatabase;
}
namespace tidy {
struct ClangTidyOptions;
}
} // namespace clang

namespace torchlint {

/// $TORCHLINT_CACHE_DIR, else $XDG_CACHE_HOME/torchlint, else ~/.cache/torchlint.
std::string defaultCacheDir();

class ResultCache {
public:
  explicit ResultCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// The key of File's analysis under DB's command and the effective options of the file.
  std::string key(const clang::tooling::CompilationDatabase &DB, llvm::StringRef File,
                  const clang::tidy::ClangTidyOptions &Effective) const;
  /// Appends the stored result of Key to Out when it is still valid. With Summary, only an entry
  /// that holds the TU's project-model summary is valid, and Summary gets it.
  bool lookup(llvm::StringRef Key, RunResult &Out, std::string *Summary = nullptr) const;
  /// Stores R (the result of one TU, which read Deps and looked for the headers it missed at
  /// Absent, which did not exist) under Key, with its project-model summary (JSON text) when not
  /// empty. R may hold compiler errors and input problems (a partial analysis): the entry is
  /// valid while Deps are unchanged and Absent do not exist.
  void store(llvm::StringRef Key, const RunResult &R, llvm::ArrayRef<std::string> Deps,
             llvm::ArrayRef<std::string> Absent = {}, llvm::StringRef Summary = "") const;

private:
  std::string entryPath(llvm::StringRef Key) const;
  std::string Dir;
};

} // namespace torchlint
