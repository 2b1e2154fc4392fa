// libFuzzer target: feeds mutated C++ sources through the whole torchlint analysis (every
// torch-* check, the hot-code and version analyses, the fix-it builders) and applies the fix-its
// in memory. The input is served from an in-memory file system as /fuzz/input.cpp; <torch/torch.h>
// and the usual standard headers resolve to fuzz/stubs/torch_mini.h (embedded at build time), so an
// input parses in milliseconds instead of the ~10 s the real libtorch headers cost.
//
// Build and run: see docs/reliability.md ("Fuzzing").
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "core/Findings.h"
#include "fixits/ApplyFixes.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <cstdlib>
#include <string>

extern volatile int TorchlintModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED TorchlintModuleAnchorDestination = TorchlintModuleAnchorSource;

namespace {

const char MiniTorch[] = {
#include "torch_mini.inc"
    , 0};

const char *const StubHeaders[] = {"torch/torch.h",
                                   "torch/script.h",
                                   "torch/extension.h",
                                   "ATen/ATen.h",
                                   "torch/nn.h",
                                   "torch/optim.h",
                                   "torch/data.h",
                                   "torch/cuda.h",
                                   "c10/cuda/CUDAStream.h",
                                   "iostream",
                                   "vector",
                                   "string",
                                   "memory",
                                   "utility",
                                   "chrono",
                                   "cstdio",
                                   "cstdlib",
                                   "cmath",
                                   "algorithm",
                                   "map",
                                   "unordered_map",
                                   "functional",
                                   "tuple",
                                   "array",
                                   "cstdint",
                                   "thread",
                                   "mutex",
                                   "atomic",
                                   "numeric",
                                   "optional",
                                   "sstream",
                                   "fstream",
                                   "iomanip"};

llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> makeHeaders() {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->addFile("/fuzz/include/torchlint_mini.h", 0, llvm::MemoryBuffer::getMemBuffer(MiniTorch));
  for (const char *H : StubHeaders)
    FS->addFile(std::string("/fuzz/include/") + H, 0,
                llvm::MemoryBuffer::getMemBuffer("#pragma once\n#include <torchlint_mini.h>\n"));
  return FS;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 64 * 1024)
    return -1; // keep each input fast; size is not what we are testing here
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  // `#pragma clang __debug crash` (and its friends) make clang crash on purpose; the CLI turns
  // that into an input error (fuzz/regressions/clang_debug_crash_pragma.cpp), here it is noise.
  if (Code.find("__debug") != std::string::npos)
    return -1;

  auto Mem = makeHeaders();
  Mem->addFile("/fuzz/input.cpp", 0, llvm::MemoryBuffer::getMemBufferCopy(Code, "/fuzz/input.cpp"));
  // Only the in-memory tree: no real headers are read, so every input costs the same.
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Mem);

  clang::tooling::FixedCompilationDatabase DB("/fuzz", {"-std=c++17", "-nostdinc", "-isystem", "/fuzz/include",
                                                        "-ferror-limit=20", "-fno-color-diagnostics",
                                                        "-fno-caret-diagnostics", "-Wno-everything"});

  clang::tidy::ClangTidyGlobalOptions Global;
  clang::tidy::ClangTidyOptions Opts = clang::tidy::ClangTidyOptions::getDefaults();
  Opts.Checks = "-*,torch-*";
  Opts.SystemHeaders = false;
  clang::tidy::ClangTidyContext Context(std::make_unique<clang::tidy::DefaultOptionsProvider>(Global, Opts));
  std::vector<clang::tidy::ClangTidyError> Errors =
      clang::tidy::runClangTidy(Context, DB, {"/fuzz/input.cpp"}, FS, /*ApplyAnyFix=*/true);

  // The fix-its must stay inside the buffer and apply (without overlaps) to the text they came from.
  torchlint::RunResult R;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    torchlint::Finding F;
    F.Check = E.DiagnosticName;
    F.Level = E.DiagLevel == clang::tooling::Diagnostic::Error ? "error" : "warning";
    F.File = "/fuzz/input.cpp";
    for (const auto &FileReps : E.Message.Fix)
      for (const clang::tooling::Replacement &Rp : FileReps.second) {
        if (Rp.getFilePath() != "/fuzz/input.cpp")
          continue; // a fix in a stub header would itself be a bug, but not one this target checks
        if (Rp.getOffset() + Rp.getLength() > Code.size())
          __builtin_trap(); // a replacement outside the file
        F.Fixes.push_back({Rp.getFilePath().str(), Rp.getOffset(), Rp.getLength(), Rp.getReplacementText().str()});
      }
    R.Findings.push_back(std::move(F));
  }
  torchlint::FixReport Rep;
  std::string Fixed = torchlint::applyFixesToContent("/fuzz/input.cpp", Code, R.Findings, Rep);
  (void)Fixed;
  return 0;
}
