// Runs when clang-tidy loads torchlint-tidy-plugin.so, before the module registers: the plugin
// only works inside a clang-tidy of the LLVM major version it was built against. A clang-tidy of
// another version (Debian's /usr/bin/clang-tidy is 14) would load it, list the checks and then
// silently report nothing, so refuse loudly instead.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <string>
#include <unistd.h>

namespace {

int SonameMajor = 0;

int findLLVMLibrary(struct dl_phdr_info *Info, size_t, void *) {
  const char *Name = Info->dlpi_name;
  if (!Name || !*Name)
    return 0;
  const char *Base = std::strrchr(Name, '/');
  Base = Base ? Base + 1 : Name;
  // libLLVM-14.so.1, libLLVM.so.19.1, libLLVM-19.so
  if (std::strncmp(Base, "libLLVM", 7) != 0)
    return 0;
  const char *P = Base + 7;
  if (*P == '-')
    return (SonameMajor = std::atoi(P + 1)) > 0;
  if (std::strncmp(P, ".so.", 4) == 0)
    return (SonameMajor = std::atoi(P + 4)) > 0;
  return 0;
}

int hostLLVMMajor() {
  // LLVM >= 16 exports LLVMGetVersion from libLLVM.
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  if (auto *F = reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"))) {
    unsigned Major = 0, Minor = 0, Patch = 0;
    F(&Major, &Minor, &Patch);
    return static_cast<int>(Major);
  }
  dl_iterate_phdr(findLLVMLibrary, nullptr);
  return SonameMajor;
}

__attribute__((constructor(101))) void torchlintCheckHost() {
  if (std::getenv("TORCHLINT_SKIP_HOST_CHECK"))
    return;
  int Host = hostLLVMMajor();
  if (Host == TORCHLINT_LLVM_MAJOR)
    return;
  if (Host == 0) {
    std::fprintf(stderr,
                 "torchlint-tidy-plugin.so: warning: cannot tell which LLVM this clang-tidy uses; "
                 "the plugin was built for clang-tidy-%d\n",
                 TORCHLINT_LLVM_MAJOR);
    return;
  }
  std::fprintf(stderr,
               "torchlint-tidy-plugin.so: error: this plugin was built for clang-tidy-%d (LLVM %d), "
               "but was loaded by a clang-tidy of LLVM %d, which would silently report nothing.\n"
               "Run it as: clang-tidy-%d -load torchlint-tidy-plugin.so -checks='-*,torch-*' ...\n",
               TORCHLINT_LLVM_MAJOR, TORCHLINT_LLVM_MAJOR, Host, TORCHLINT_LLVM_MAJOR);
  std::fflush(stderr);
  _exit(2);
}

} // namespace
