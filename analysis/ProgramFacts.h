// Facts about the whole translation unit (the user's code in it), computed once per TU and shared:
// does it build convolutions, train, configure cuDNN, and where is main(). Whether it uses CUDA is
// TUFacts::usesCUDA(), the one answer every check asks.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <string>

namespace torchlint {

struct ProgramFacts {
  /// main() defined in this TU, or null.
  const clang::FunctionDecl *Main = nullptr;
  /// The user's code constructs a torch::nn::ConvNd (N = 1, 2, 3) or ConvTransposeNd module (not
  /// an empty `{nullptr}` holder), or calls a functional convolution (torch::conv2d,
  /// torch::nn::functional::conv2d, conv_transpose2d, at::convolution, ...).
  bool BuildsConv = false;
  /// The first such construction or call, and what it is ("Conv2d", "torch::conv2d()").
  clang::SourceLocation FirstConv;
  std::string ConvName;
  /// The user's code calls backward() or Optimizer::step(); the first such call. In a TU with
  /// main(), only a call in a function of the main file, or one they reach (calls, references,
  /// constructions, overrides of reached virtual methods, transitively), counts: a shared
  /// header's training method that another program calls does not make this one train.
  bool Trains = false;
  clang::SourceLocation FirstTraining;
  /// The user's code calls at::Context::setBenchmarkCuDNN, setDeterministicCuDNN or
  /// setDeterministicAlgorithms; the first such call.
  bool ConfiguresCudnn = false;
  clang::SourceLocation FirstCudnnConfig;

  /// The facts of the TU that owns Ctx, built on first use and cached for this thread.
  static const ProgramFacts &get(clang::ASTContext &Ctx);
};

/// True when E denotes the CPU device as a compile-time constant: c10::kCPU, DeviceType::CPU,
/// Device(kCPU), "cpu", or a const local initialised from one of these.
bool isConstantCpuDevice(const clang::Expr *E);

} // namespace torchlint
