#include "cli/TorchInstall.h"
#include "core/Catalog.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace torchlint {

static bool exists(const std::string &P) { return llvm::sys::fs::exists(P); }

TorchInstall torchInstallAt(const std::string &Prefix) {
  TorchInstall T;
  std::string Inc = Prefix + "/include";
  std::string Api = Inc + "/torch/csrc/api/include";
  if (!exists(Api + "/torch/torch.h"))
    return T;
  T.IncludeDirs = {Inc, Api};
  T.Where = Prefix;
  T.Found = true;
  if (auto B = llvm::MemoryBuffer::getFile(Api + "/torch/all.h"))
    if ((*B)->getBuffer().contains("C++20 or later"))
      T.Std = "c++20";
  return T;
}

TorchInstall findTorchInstall() {
  std::vector<std::string> Prefixes;
  if (auto D = llvm::sys::Process::GetEnv("Torch_DIR")) // <prefix>/share/cmake/Torch
    Prefixes.push_back(*D + "/../../..");
  if (auto L = llvm::sys::Process::GetEnv("LIBTORCH"))
    Prefixes.push_back(*L);
  if (auto C = llvm::sys::Process::GetEnv("CMAKE_PREFIX_PATH")) {
    llvm::SmallVector<llvm::StringRef> Parts;
    llvm::StringRef(*C).split(Parts, ':', -1, false);
    for (llvm::StringRef P : Parts) {
      Prefixes.push_back(P.str());
      Prefixes.push_back(P.str() + "/../../..");
    }
  }
  for (const char *P : {"/usr/local/libtorch", "/opt/libtorch", "/usr/local"})
    Prefixes.push_back(P);
  Prefixes.push_back(torchlintHome() + "/.deps/libtorch-2");
  for (const std::string &P : Prefixes) {
    TorchInstall T = torchInstallAt(P);
    if (T.Found)
      return T;
  }
  // Debian's libtorch-dev: /usr/include/torch/csrc/api/include.
  TorchInstall T;
  if (exists("/usr/include/torch/csrc/api/include/torch/torch.h")) {
    T.IncludeDirs = {"/usr/include/torch/csrc/api/include"};
    T.Where = "/usr (libtorch-dev)";
    T.Found = true;
  }
  return T;
}

std::vector<std::string> defaultCompileFlags(const TorchInstall &T) {
  std::vector<std::string> Args = {"-x", "c++", "-std=" + T.Std};
  for (const std::string &I : T.IncludeDirs) {
    Args.push_back("-isystem");
    Args.push_back(I);
  }
  return Args;
}

} // namespace torchlint
