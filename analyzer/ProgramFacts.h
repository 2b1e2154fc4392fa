// Facts about the whole translation unit (the user's code in it), computed once per TU and shared:
// does it use CUDA, build convolutions, train, configure cuDNN, and where is main().
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace torchlint {

struct ProgramFacts {
  /// main() defined in this TU, or null.
  const clang::FunctionDecl *Main = nullptr;
  /// The user's code names a CUDA device: c10::kCUDA / DeviceType::CUDA, a "cuda..." device
  /// string, Tensor::cuda() or torch::cuda::* (is_available, device_count, ...).
  bool MentionsCuda = false;
  clang::SourceLocation FirstCudaMention;
  /// The user's code constructs a torch::nn::ConvNd (N = 1, 2, 3) or ConvTransposeNd module, or
  /// calls a functional convolution.
  bool BuildsConv = false;
  /// The user's code calls backward() or Optimizer::step().
  bool Trains = false;
  /// The user's code calls at::Context::setBenchmarkCuDNN, setDeterministicCuDNN or
  /// setDeterministicAlgorithms.
  bool ConfiguresCudnn = false;

  /// The facts of the TU that owns Ctx, built on first use and cached for this thread.
  static const ProgramFacts &get(clang::ASTContext &Ctx);
};

/// True when E denotes the CPU device as a compile-time constant: c10::kCPU, DeviceType::CPU,
/// Device(kCPU), "cpu", or a const local initialised from one of these.
bool isConstantCpuDevice(const clang::Expr *E);

} // namespace torchlint
