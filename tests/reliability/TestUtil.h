// Helpers for reliability_test: a scratch directory, files, and torchlint run as a subprocess.
#pragma once
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace torchlint::test {

struct Result {
  int RC = -1;
  std::string Out, Err;
  std::string all() const { return Out + Err; }
  /// Lines of stdout+stderr that contain Needle.
  unsigned linesWith(llvm::StringRef Needle) const {
    unsigned N = 0;
    std::string All = all();
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(All).split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      N += L.contains(Needle);
    return N;
  }
};

inline std::string readFile(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return B ? (*B)->getBuffer().str() : std::string("<unreadable>");
}

inline void writeFile(llvm::StringRef Path, llvm::StringRef Content) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  OS << Content;
}

/// A fresh directory under the system temp dir, removed at the end of the test.
class Scratch {
public:
  Scratch() {
    llvm::sys::fs::createUniqueDirectory("torchlint-reliability", Dir);
    // <torch/torch.h> and a few standard headers resolve to the stub used by the fuzzer.
    std::string Mini = readFile(TORCHLINT_MINI_TORCH);
    writeFile(path("include/torchlint_mini.h"), Mini);
    for (const char *H : {"torch/torch.h", "iostream", "vector"})
      writeFile(path(std::string("include/") + H), "#pragma once\n#include <torchlint_mini.h>\n");
  }
  ~Scratch() { llvm::sys::fs::remove_directories(Dir); }
  std::string path(llvm::StringRef Rel) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Rel);
    return std::string(P);
  }
  std::string write(llvm::StringRef Rel, llvm::StringRef Content) const {
    writeFile(path(Rel), Content);
    return path(Rel);
  }
  /// Compiler flags for the stub headers (what goes after --).
  std::string flags() const { return "-std=c++17 -nostdinc -isystem " + path("include"); }
  /// Runs `torchlint <Args>` in this directory through /bin/sh (Args is shell text).
  Result torchlint(const std::string &Args, unsigned TimeoutS = 120) const {
    return sh(std::string("exec '") + TORCHLINT_BIN + "' " + Args, TimeoutS);
  }
  Result sh(const std::string &Cmd, unsigned TimeoutS = 120) const {
    Result R;
    std::string OutF = path(".out"), ErrF = path(".err");
    std::string Full = "cd '" + std::string(Dir) + "' && " + Cmd;
    std::optional<llvm::StringRef> Redir[] = {llvm::StringRef("/dev/null"), llvm::StringRef(OutF),
                                              llvm::StringRef(ErrF)};
    // ExecuteAndWait's redirections open without O_TRUNC: a shorter output would keep the tail of
    // the previous command's.
    llvm::sys::fs::remove(OutF);
    llvm::sys::fs::remove(ErrF);
    std::string Msg;
    R.RC = llvm::sys::ExecuteAndWait("/bin/sh", {"/bin/sh", "-c", Full}, std::nullopt, Redir, TimeoutS, 0, &Msg);
    R.Out = readFile(OutF);
    R.Err = readFile(ErrF) + Msg;
    return R;
  }

private:
  llvm::SmallString<128> Dir;
};

} // namespace torchlint::test
