#pragma once
// Where an installed torchlint finds its data (issue 19). Header-only so that every target that
// compiles Catalog.cpp (the CLI, the plugin, the tests) gets it without another object.
//
// Installed layout (CMake install(), the .deb, the wheel's torchlint/data/ folder alike):
//   <prefix>/bin/torchlint
//   <prefix>/share/torchlint/{docs/checks,docs/probe,stand-ins,tools,rules,LICENSE}
//   <prefix>/share/torchlint/clang/include   (clang's resource headers: stddef.h, ...)
// <prefix> is the folder above the one holding this binary (or the plugin, <prefix>/lib/...).
// A build-tree binary (build/bin/torchlint) has no build/share/torchlint and keeps using the
// source tree and the resource directory fixed at build time.
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <dlfcn.h>
#include <optional>
#include <string>

namespace torchlint {

/// The installed data folder <prefix>/share/torchlint, if this binary sits in an installed layout.
inline std::optional<std::string> installedDataDir() {
  static const std::optional<std::string> Dir = []() -> std::optional<std::string> {
    Dl_info D;
    std::string Self;
    if (dladdr(reinterpret_cast<void *>(&installedDataDir), &D) && D.dli_fname)
      Self = D.dli_fname;
    if (!llvm::sys::path::is_absolute(Self))
      Self = llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&installedDataDir));
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Self, Real)) // follows /usr/local/bin/torchlint -> .../bin/torchlint
      Self = std::string(Real);
    llvm::SmallString<256> P(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Self)));
    llvm::sys::path::append(P, "share", "torchlint");
    llvm::SmallString<256> Marker(P);
    llvm::sys::path::append(Marker, "docs", "checks");
    if (llvm::sys::fs::is_directory(Marker))
      return std::string(P);
    return std::nullopt;
  }();
  return Dir;
}

/// clang's resource directory (builtin headers): $TORCHLINT_RESOURCE_DIR, else the copy bundled
/// in an installed layout (<prefix>/share/torchlint/clang), else BuildTimeDir.
inline std::string clangResourceDir(const char *BuildTimeDir) {
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("TORCHLINT_RESOURCE_DIR"))
    return *Env;
  if (std::optional<std::string> Data = installedDataDir()) {
    llvm::SmallString<256> P(*Data);
    llvm::sys::path::append(P, "clang");
    llvm::SmallString<256> Stddef(P);
    llvm::sys::path::append(Stddef, "include", "stddef.h");
    if (llvm::sys::fs::exists(Stddef))
      return std::string(P);
  }
  return BuildTimeDir;
}

} // namespace torchlint
