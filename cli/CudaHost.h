// .cu files in compile databases (issue 24): libtorch custom operators and per-step glue code
// written in CUDA. torchlint analyses them as CUDA host code without a CUDA toolkit:
//   -x cuda --cuda-host-only -nocudainc -nocudalib --cuda-path=<none>
// and, instead of the toolkit's headers, a small header of torchlint's (written into the cache
// folder) that declares what host code of a .cu file uses: __global__ and the other execution
// space keywords, dim3, cudaStream_t, the <<<...>>> launch's configuration call, threadIdx and
// the other built-in variables (clang's own __clang_cuda_builtin_vars.h), and what libtorch's
// c10/util/Half-inl.h needs in clang's CUDA mode. nvcc's command lines are translated to clang's:
// only defines, include folders, -std and pre-included files are kept. Device code (__global__ and
// __device__-only functions) is parsed but never judged (checkbase/TorchCheck: dropped()).
// A .cu file is analysed without a precompiled libtorch header (its command line has -include).
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace torchlint {

/// A CUDA source file: .cu (not .cuh, a header).
bool isCudaSource(llvm::StringRef File);

/// The host-only header's path under CacheDir, written there when missing or different; "" (and
/// Error set) when it cannot be written.
std::string cudaHostHeader(llvm::StringRef CacheDir, std::string &Error);

/// Args (argv[0] the compiler) of a .cu file rewritten for a host-only parse with Header
/// pre-included (no -include-pch: a PCH of another language mode does not load). An nvcc command keeps only -D, -U, -I, -isystem, -iquote, -idirafter, -include,
/// -std and its input; a clang or g++ command keeps everything but -x, --cuda-path and the
/// --cuda-gpu-arch/--offload-arch flags.
std::vector<std::string> cudaHostArgs(const std::vector<std::string> &Args, llvm::StringRef File,
                                      llvm::StringRef Header);

} // namespace torchlint
