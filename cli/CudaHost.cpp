#include "cli/CudaHost.h"
#include "utils/AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torchlint {

namespace {

// What host code in a .cu file needs from the CUDA toolkit, declared from scratch.
const char *const HostHeader = R"(// Written by torchlint (cli/CudaHost.cpp): a .cu file parsed as CUDA host code without a
// CUDA toolkit. Device code is parsed but not analysed.
#pragma once
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#include <stddef.h>
#include <stdlib.h>
struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef enum cudaError { cudaSuccess = 0 } cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
// The <<<grid, block, shared, stream>>> launch: clang asks for one of these, by CUDA version.
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
extern "C" cudaError_t cudaGetLastError(void);
extern "C" cudaError_t cudaPeekAtLastError(void);
extern "C" const char *cudaGetErrorString(cudaError_t);
extern "C" cudaError_t cudaDeviceSynchronize(void);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t);
extern "C" cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
extern "C" cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
extern "C" cudaError_t cudaMalloc(void **, size_t);
extern "C" cudaError_t cudaFree(void *);
// threadIdx, blockIdx, blockDim, gridDim, warpSize (clang's resource header).
#include <__clang_cuda_builtin_vars.h>
// c10/util/Half-inl.h and BFloat16-inl.h declare __ldg on the toolkit's half types in clang's CUDA
// mode: any value converts to what they return.
struct __half { unsigned short __x; };
struct __nv_bfloat16 { unsigned short __x; };
template <class T> struct __torchlint_any_value { template <class U> __host__ __device__ operator U() const; };
template <class T> __device__ __torchlint_any_value<T> __ldg(const T *);
// What kernels use, so that device code parses without errors (it is not analysed): the C math
// library, vector types, atomics, barriers, warp shuffles and the fast-math intrinsics.
// The C math library on the device side (clang's own CUDA wrappers declare it so: static device
// functions beside the host ones, told apart by their target).
#define __TORCHLINT_MATH1(N) static __device__ __forceinline__ float N##f(float a) { return __builtin_##N##f(a); } \
  static __device__ __forceinline__ double N(double a) { return __builtin_##N(a); }
#define __TORCHLINT_MATH2(N) static __device__ __forceinline__ float N##f(float a, float b) { return __builtin_##N##f(a, b); } \
  static __device__ __forceinline__ double N(double a, double b) { return __builtin_##N(a, b); }
__TORCHLINT_MATH1(sin)
__TORCHLINT_MATH1(cos)
__TORCHLINT_MATH1(tan)
__TORCHLINT_MATH1(asin)
__TORCHLINT_MATH1(acos)
__TORCHLINT_MATH1(atan)
__TORCHLINT_MATH1(sinh)
__TORCHLINT_MATH1(cosh)
__TORCHLINT_MATH1(tanh)
__TORCHLINT_MATH1(asinh)
__TORCHLINT_MATH1(acosh)
__TORCHLINT_MATH1(atanh)
__TORCHLINT_MATH1(exp)
__TORCHLINT_MATH1(exp2)
__TORCHLINT_MATH1(expm1)
__TORCHLINT_MATH1(log)
__TORCHLINT_MATH1(log2)
__TORCHLINT_MATH1(log10)
__TORCHLINT_MATH1(log1p)
__TORCHLINT_MATH1(sqrt)
__TORCHLINT_MATH1(cbrt)
__TORCHLINT_MATH1(fabs)
__TORCHLINT_MATH1(floor)
__TORCHLINT_MATH1(ceil)
__TORCHLINT_MATH1(round)
__TORCHLINT_MATH1(trunc)
__TORCHLINT_MATH1(rint)
__TORCHLINT_MATH1(nearbyint)
__TORCHLINT_MATH1(erf)
__TORCHLINT_MATH1(erfc)
__TORCHLINT_MATH1(lgamma)
__TORCHLINT_MATH1(tgamma)
__TORCHLINT_MATH2(pow)
__TORCHLINT_MATH2(atan2)
__TORCHLINT_MATH2(fmin)
__TORCHLINT_MATH2(fmax)
__TORCHLINT_MATH2(fmod)
__TORCHLINT_MATH2(hypot)
__TORCHLINT_MATH2(copysign)
__TORCHLINT_MATH2(remainder)
__TORCHLINT_MATH2(fdim)
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
#define __TORCHLINT_VEC2(T, N) struct N##2 { T x, y; }; \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define __TORCHLINT_VEC3(T, N) struct N##3 { T x, y, z; }; \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define __TORCHLINT_VEC4(T, N) struct N##4 { T x, y, z, w; }; \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define __TORCHLINT_VECS(T, N) __TORCHLINT_VEC2(T, N) __TORCHLINT_VEC3(T, N) __TORCHLINT_VEC4(T, N)
__TORCHLINT_VECS(float, float)
__TORCHLINT_VECS(double, double)
__TORCHLINT_VECS(int, int)
__TORCHLINT_VECS(long long, longlong)
__TORCHLINT_VECS(short, short)
__TORCHLINT_VECS(unsigned char, uchar)
__TORCHLINT_VEC2(unsigned, uint)
__TORCHLINT_VEC4(unsigned, uint)
__host__ __device__ inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
#define __TORCHLINT_ATOMIC(Name) \
  __device__ int Name(int *, int); \
  __device__ unsigned Name(unsigned *, unsigned); \
  __device__ unsigned long long Name(unsigned long long *, unsigned long long); \
  __device__ float Name(float *, float); \
  __device__ double Name(double *, double);
__TORCHLINT_ATOMIC(atomicAdd)
__TORCHLINT_ATOMIC(atomicSub)
__TORCHLINT_ATOMIC(atomicMax)
__TORCHLINT_ATOMIC(atomicMin)
__TORCHLINT_ATOMIC(atomicExch)
__TORCHLINT_ATOMIC(atomicAnd)
__TORCHLINT_ATOMIC(atomicOr)
__device__ int atomicCAS(int *, int, int);
__device__ unsigned atomicCAS(unsigned *, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
__device__ void __syncthreads(void);
__device__ int __syncthreads_or(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_count(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ unsigned __activemask(void);
__device__ int __popc(unsigned);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ float __saturatef(float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fadd_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ int __float2int_rn(float);
__device__ int __float2int_rd(float);
__device__ unsigned __float2uint_rn(float);
__device__ float __int2float_rn(int);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned);
__device__ unsigned __float_as_uint(float);
__device__ float rsqrtf(float);
__device__ double rsqrt(double);
__device__ long long clock64(void);
__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a < b ? b : a; }
__host__ __device__ inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
__host__ __device__ inline float min(float a, float b) { return fminf(a, b); }
__host__ __device__ inline float max(float a, float b) { return fmaxf(a, b); }
__host__ __device__ inline double min(double a, double b) { return fmin(a, b); }
__host__ __device__ inline double max(double a, double b) { return fmax(a, b); }
)";

bool isNvcc(llvm::StringRef Argv0) { return llvm::sys::path::stem(Argv0).starts_with("nvcc"); }

} // namespace

bool isCudaSource(llvm::StringRef File) { return llvm::sys::path::extension(File).equals_insensitive(".cu"); }

std::string cudaHostHeader(llvm::StringRef CacheDir, std::string &Error) {
  llvm::SmallString<256> Dir(CacheDir);
  llvm::sys::path::append(Dir, "cuda-host");
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "torchlint_cuda_host_v2.h");
  if (auto B = llvm::MemoryBuffer::getFile(Path); B && (*B)->getBuffer() == HostHeader)
    return std::string(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Error = "cannot create '" + std::string(Dir) + "': " + EC.message();
    return "";
  }
  // Written atomically (a temporary file renamed over it): -j workers may write it at the same time.
  AtomicWriteError E;
  if (!writeFileAtomically(Path, HostHeader, &E)) {
    Error = (E.Step == AtomicWriteError::CreateTemp ? "cannot write in '" + std::string(Dir)
                                                    : "cannot write '" + std::string(Path)) +
            "': " + E.EC.message();
    return "";
  }
  return std::string(Path);
}

namespace {
/// Takes the nvcc flag at Args[I] (and its value, advancing I) into Out when it means the same to
/// clang's host-side parse; drops it otherwise. The host compiler's own flags (`-Xcompiler
/// -isystem,/opt/x,-DFOO`, `--compiler-options=...`: a comma-separated list) are read the same
/// way, as are the flags `-forward-unknown-to-host-compiler` passes on (`-iprefix /opt/py/
/// -iwithprefixbefore include`, which nvcc itself does not know).
void nvccHostFlags(const std::vector<std::string> &Args, size_t &I, llvm::StringRef File, std::vector<std::string> &Out) {
  llvm::StringRef A = Args[I];
  auto Next = [&]() -> std::string { return I + 1 < Args.size() ? Args[++I] : std::string(); };
  if (A == "-D" || A == "-U" || A == "-I" || A == "-isystem" || A == "-iquote" || A == "-idirafter" ||
      A == "-include" || A == "-iprefix" || A == "-iwithprefix" || A == "-iwithprefixbefore" || A == "--sysroot") {
    std::string V = Next();
    if (!V.empty()) {
      Out.push_back(A.str());
      Out.push_back(V);
    }
  } else if (A.starts_with("-D") || A.starts_with("-U") || A.starts_with("-I") || A.starts_with("-std=") ||
             A.starts_with("-iprefix") || A.starts_with("-iwithprefix") || A.starts_with("--sysroot=") ||
             A.starts_with("-idirafter") || A.starts_with("-iquote") || A == "-fno-caret-diagnostics" ||
             A.starts_with("-resource-dir")) { // the last two: torchlint's
    Out.push_back(A.str());
  } else if (A == "-std" || A == "--std") {
    std::string V = Next();
    if (!V.empty())
      Out.push_back("-std=" + V);
  } else if (A.consume_front("--std=")) {
    Out.push_back("-std=" + A.str());
  } else if (A.consume_front("-isystem=") || A.consume_front("-isystem")) {
    Out.push_back("-isystem");
    Out.push_back(A.str());
  } else if (A == "--include-path" || A == "--define-macro" || A == "--pre-include" || A == "--system-include") {
    std::string V = Next();
    const char *Flag = A == "--include-path" ? "-I" : A == "--define-macro" ? "-D" : A == "--pre-include" ? "-include" : "-isystem";
    if (!V.empty()) {
      Out.push_back(Flag);
      Out.push_back(V);
    }
  } else if (A.consume_front("--include-path=")) {
    Out.push_back("-I" + A.str());
  } else if (A.consume_front("--define-macro=")) {
    Out.push_back("-D" + A.str());
  } else if (A == "-Xcompiler" || A == "--compiler-options" || A.starts_with("--compiler-options=") ||
             A.starts_with("-Xcompiler=")) {
    std::string V = A.contains('=') ? A.split('=').second.str() : Next();
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    llvm::StringRef(V).split(Parts, ',', -1, /*KeepEmpty=*/false);
    std::vector<std::string> Host(Parts.begin(), Parts.end());
    for (size_t J = 0; J < Host.size(); ++J)
      nvccHostFlags(Host, J, "", Out);
  } else if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" || A == "-ccbin" || A == "-gencode" ||
             A == "-arch" || A == "-code" || A == "-Xcudafe" || A == "-Xptxas" || A == "-Xlinker" ||
             A == "--threads" || A == "-t" || A == "-maxrregcount" || A == "--options-file" || A == "-odir") {
    Next(); // a flag with its value in the next argument: both dropped
  } else if (!File.empty() && !A.starts_with("-") &&
             (A == File || llvm::sys::path::extension(A).equals_insensitive(".cu"))) {
    Out.push_back(A.str()); // the input
  }
}
} // namespace

std::vector<std::string> cudaHostArgs(const std::vector<std::string> &Args, llvm::StringRef File,
                                      llvm::StringRef Header) {
  if (Args.empty())
    return Args;
  bool Nvcc = isNvcc(Args[0]);
  std::vector<std::string> Out = {Nvcc ? "clang++" : Args[0], "-x", "cuda", "--cuda-host-only", "-nocudainc",
                                  "-nocudalib"};
  // A toolkit path that does not exist: clang looks for none, and warns about no version.
  llvm::SmallString<256> NoToolkit(llvm::sys::path::parent_path(Header));
  llvm::sys::path::append(NoToolkit, "no-toolkit");
  Out.push_back("--cuda-path=" + std::string(NoToolkit));
  Out.push_back("-include");
  Out.push_back(Header.str());
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Next = [&]() -> std::string { return I + 1 < Args.size() ? Args[++I] : std::string(); };
    // Dropped in both: the language, the toolkit, the GPU architectures.
    if (A == "-x" || A == "--x") {
      Next();
      continue;
    }
    if (A == "-include-pch") { // a PCH built for C++ (or another language mode) does not load in CUDA's
      Next();
      continue;
    }
    if (A.starts_with("-x") || A.starts_with("--x=") || A.starts_with("--cuda-path") ||
        A.starts_with("--cuda-gpu-arch") || A.starts_with("--offload-arch") || A == "--cuda-host-only" ||
        A == "--cuda-device-only" || A == "-nocudainc" || A == "-nocudalib")
      continue; // -xc++, -xcu: joined
    if (!Nvcc) {
      Out.push_back(A.str());
      continue;
    }
    // nvcc: only what clang understands the same way.
    nvccHostFlags(Args, I, File, Out);
  }
  return Out;
}

} // namespace torchlint
