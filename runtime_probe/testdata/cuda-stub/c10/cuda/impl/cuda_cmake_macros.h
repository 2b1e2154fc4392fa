// Stand-in for the header a CUDA build of libtorch generates (Debian's CPU-only libtorch-dev ships
// c10/cuda without it). Used only by the probe_cuda_paths_compile_torch1 syntax check.
#pragma once
#define C10_CUDA_BUILD_SHARED_LIBS
