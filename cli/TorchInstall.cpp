#include "cli/TorchInstall.h"
#include "cli/ProjectFlags.h"
#include "core/Catalog.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace torchlint {

static bool exists(const std::string &P) { return llvm::sys::fs::exists(P); }

/// TORCH_VERSION_MAJOR/MINOR of torch/version.h (torch/headeronly/version.h from 2.9) in T's folders.
static void readVersion(TorchInstall &T) {
  std::string Text;
  for (const std::string &D : T.IncludeDirs)
    for (const char *H : {"/torch/version.h", "/torch/headeronly/version.h"})
      if (auto B = llvm::MemoryBuffer::getFile(D + H))
        Text += (*B)->getBuffer().str();
  for (auto [Name, Out] : {std::pair<const char *, int *>{"TORCH_VERSION_MAJOR", &T.Major}, {"TORCH_VERSION_MINOR", &T.Minor}}) {
    size_t P = llvm::StringRef(Text).find(std::string("#define ") + Name + " ");
    if (P == llvm::StringRef::npos)
      continue;
    llvm::StringRef V = llvm::StringRef(Text).drop_front(P + strlen("#define ") + strlen(Name)).ltrim();
    V.take_while([](char C) { return C >= '0' && C <= '9'; }).getAsInteger(10, *Out);
  }
}

TorchInstall torchInstallAt(const std::string &Prefix) {
  TorchInstall T;
  std::string Inc = Prefix + "/include";
  std::string Api = Inc + "/torch/csrc/api/include";
  if (!exists(Api + "/torch/torch.h"))
    return T;
  T.IncludeDirs = {Inc, Api};
  T.Where = Prefix;
  T.Found = true;
  readVersion(T);
  if (auto B = llvm::MemoryBuffer::getFile(Api + "/torch/all.h"))
    if ((*B)->getBuffer().contains("C++20 or later"))
      T.Std = "c++20";
  return T;
}

TorchInstall findTorchInstall(int MinMajor) {
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
    if (T.Found && (!MinMajor || T.Major >= MinMajor))
      return T;
  }
  // Debian's libtorch-dev: /usr/include/torch/csrc/api/include.
  TorchInstall T;
  if (exists("/usr/include/torch/csrc/api/include/torch/torch.h")) {
    T.IncludeDirs = {"/usr/include/torch/csrc/api/include"};
    T.Where = "/usr (libtorch-dev)";
    T.Found = true;
    readVersion(T);
    if (MinMajor && T.Major < MinMajor)
      return TorchInstall();
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

static int stdNumber(const std::string &Std) { return parseCxxStd(Std); }

std::vector<std::string> guessedCompileFlags(const std::string &File, std::string &Summary) {
  TorchInstall T = findTorchInstall();
  ProjectFlags P = guessProjectFlags(File);
  std::vector<std::string> Said;
  int Std = stdNumber(T.Std);
  if (P.Std > Std) {
    Std = P.Std;
    Said.push_back("-std=c++" + std::to_string(Std) + " (" + P.StdFrom + ")");
  } else if (P.Std) {
    Said.push_back("-std=" + T.Std + " (" + P.StdFrom + (P.Std < Std ? "; libtorch's headers need " + T.Std : "") + ")");
  }
  // libtorch 1.x does not parse under C++20 with clang 19 (c10::IValue incomplete in std::vector).
  if (Std >= 20 && T.Found && T.Major == 1) {
    TorchInstall N = findTorchInstall(2);
    std::string Old = "libtorch " + T.version() + " (" + T.Where + ")";
    if (N.Found) {
      Said.push_back("the project needs C++20 and " + Old + " does not parse under it: using libtorch " + N.version() +
                     " at " + N.Where);
      T = N;
    } else {
      Said.push_back("the project needs C++20 and " + Old +
                     " does not parse under it with clang 19; libtorch 2.x headers (LIBTORCH=DIR) would");
    }
  }
  std::vector<std::string> Args = {"-x", "c++", "-std=c++" + std::to_string(Std)};
  for (const std::string &I : P.IncludeDirs) {
    Args.push_back("-I");
    Args.push_back(I);
  }
  for (const std::string &I : T.IncludeDirs) {
    Args.push_back("-isystem");
    Args.push_back(I);
  }
  for (const std::string &I : P.HeaderDirs) {
    Args.push_back("-idirafter");
    Args.push_back(I);
  }
  if (!P.IncludeDirs.empty()) {
    std::string From;
    for (const std::string &F : P.IncludesFrom)
      From += (From.empty() ? "" : ", ") + F;
    Said.push_back(std::to_string(P.IncludeDirs.size()) + " include folder" + (P.IncludeDirs.size() == 1 ? "" : "s") +
                   " from " + From);
  }
  if (!P.HeaderDirs.empty())
    Said.push_back(std::to_string(P.HeaderDirs.size()) + " folder" + (P.HeaderDirs.size() == 1 ? "" : "s") +
                   " with headers searched last" + (P.Truncated ? " (the scan of " + P.Root + " stopped at its limit)" : ""));
  Said.push_back(T.Found ? "libtorch " + T.version() + " at " + T.Where : "no libtorch found");
  Summary = "no compile database (looked where clangd does; -p DIR or -- FLAGS to give one); flags guessed: ";
  for (size_t I = 0; I < Said.size(); ++I)
    Summary += (I ? "; " : "") + Said[I];
  return Args;
}

} // namespace torchlint
