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

/// The folders a system or libtorch include is served from: libtorch's, /usr/include and its
/// multiarch and C++ folders, /usr/local/include, clang's own.
static std::vector<std::string> systemIncludeFolders(const TorchInstall &T) {
  std::vector<std::string> Out(T.IncludeDirs.begin(), T.IncludeDirs.end());
  for (const char *D : {"/usr/include", "/usr/local/include"})
    Out.push_back(D);
  std::error_code EC;
  for (const char *Parent : {"/usr/include", "/usr/include/c++", "/usr/lib/llvm-19/lib/clang"}) {
    for (llvm::sys::fs::directory_iterator I(Parent, EC), E; I != E && !EC; I.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(I->path());
      if (llvm::StringRef(Parent) == "/usr/include" && Name.ends_with("-linux-gnu")) {
        Out.push_back(I->path());
        for (llvm::sys::fs::directory_iterator J(I->path() + "/c++", EC), F; J != F && !EC; J.increment(EC))
          Out.push_back(J->path());
        EC.clear();
      } else if (llvm::StringRef(Parent) == "/usr/include/c++") {
        Out.push_back(I->path());
      } else if (llvm::StringRef(Parent) == "/usr/lib/llvm-19/lib/clang") {
        Out.push_back(I->path() + "/include");
      }
    }
    EC.clear();
  }
  return Out;
}

/// Dir holds a header or a folder that an include of a system or libtorch header could find
/// instead (`time.h`, `c10/`): searched as a user folder (-I, before the system folders) it would
/// shadow that header.
static bool shadowsSystemHeaders(const std::string &Dir, const std::vector<std::string> &System) {
  std::error_code EC;
  unsigned Seen = 0;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC; I.increment(EC)) {
    if (++Seen > 2000)
      return true; // a huge folder: keep it last rather than look at all of it
    llvm::StringRef Name = llvm::sys::path::filename(I->path());
    bool Header = Name.ends_with(".h") || Name.ends_with(".hpp") || Name.ends_with(".hh") || Name.ends_with(".hxx") ||
                  !Name.contains('.');
    if (!Header)
      continue;
    for (const std::string &S : System)
      if (exists(S + "/" + Name.str()))
        return true;
  }
  return false;
}

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
  // libtorch 2.x bundles {fmt} 11 or later, whose <fmt/core.h> no longer declares fmt::format
  // unless asked: a project written for an older {fmt} (`#include <fmt/core.h>`, then
  // fmt::format) meets libtorch's copy first here, which its own build would not have used.
  for (const std::string &I : T.IncludeDirs)
    if (auto B = llvm::MemoryBuffer::getFile(I + "/fmt/core.h"); B && (*B)->getBuffer().contains("FMT_DEPRECATED_HEAVY_CORE")) {
      Args.push_back("-DFMT_DEPRECATED_HEAVY_CORE");
      Said.push_back("-DFMT_DEPRECATED_HEAVY_CORE (libtorch's bundled {fmt} declares fmt::format in <fmt/core.h> "
                     "only with it, as {fmt} before 11 did)");
      break;
    }
  // The project's folders with headers: user folders (-I, after the build's own) unless one would
  // shadow a system or libtorch header; those are searched last (-idirafter), where clang takes
  // what they hold for system headers, which no check reports on.
  std::vector<std::string> System = systemIncludeFolders(T);
  unsigned Last = 0;
  for (const std::string &I : P.HeaderDirs) {
    if (shadowsSystemHeaders(I, System))
      continue;
    Args.push_back("-I");
    Args.push_back(I);
  }
  for (const std::string &I : P.HeaderDirs) {
    if (!shadowsSystemHeaders(I, System))
      continue;
    Args.push_back("-idirafter");
    Args.push_back(I);
    ++Last;
  }
  if (!P.IncludeDirs.empty()) {
    std::string From;
    for (const std::string &F : P.IncludesFrom)
      From += (From.empty() ? "" : ", ") + F;
    Said.push_back(std::to_string(P.IncludeDirs.size()) + " include folder" + (P.IncludeDirs.size() == 1 ? "" : "s") +
                   " from " + From);
  }
  if (!P.HeaderDirs.empty()) {
    size_t User = P.HeaderDirs.size() - Last;
    std::string Scan = P.Truncated ? " (the scan of " + P.Root + " stopped at its limit)" : "";
    if (User)
      Said.push_back(std::to_string(User) + " more folder" + (User == 1 ? "" : "s") + " with the project's headers" + Scan);
    if (Last)
      Said.push_back(std::to_string(Last) + " folder" + (Last == 1 ? "" : "s") +
                     " with headers that shadow system headers searched last" + (User ? "" : Scan));
  }
  Said.push_back(T.Found ? "libtorch " + T.version() + " at " + T.Where : "no libtorch found");
  Summary = "no compile database (looked where clangd does; -p DIR or -- FLAGS to give one); flags guessed: ";
  for (size_t I = 0; I < Said.size(); ++I)
    Summary += (I ? "; " : "") + Said[I];
  return Args;
}

} // namespace torchlint
