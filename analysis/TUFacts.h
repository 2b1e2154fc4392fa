// TU-wide facts: what the user's code in a translation unit ever calls, constructs or names,
// wherever it does it. Program-level checks ask these ("the file never converts anything to
// channels_last", "no autocast anywhere", "does it use CUDA at all?": usesCUDA() is the one answer
// to that, ProgramFacts has none). Computed once per TU
// (TUFacts::get) from user code only: libtorch's own headers never count.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

namespace torchlint {

class TUFacts {
public:
  /// The facts of the TU that owns Ctx, built on first use and cached for this thread.
  static const TUFacts &get(clang::ASTContext &Ctx);

  explicit TUFacts(clang::ASTContext &Ctx);

  /// First place (in source order) user code calls the function or method with this qualified
  /// name ("at::Tensor::half", "torch::nn::Module::to", "at::autocast::set_enabled"); invalid
  /// when it never does. Calls through templates count once instantiated.
  clang::SourceLocation firstCall(llvm::StringRef QualifiedName) const;
  /// First call to any function declared in namespace Ns ("at::autocast").
  clang::SourceLocation firstCallInNamespace(llvm::StringRef Ns) const;
  /// First time user code names a libtorch enumerator, directly or through one of libtorch's
  /// constants: "DeviceType::CUDA" (torch::kCUDA, at::kCUDA, c10::DeviceType::CUDA),
  /// "ScalarType::Half" (torch::kHalf, at::kHalf, torch::kFloat16), "MemoryFormat::ChannelsLast".
  clang::SourceLocation firstEnumerator(llvm::StringRef EnumAndName) const;

  // Derived facts, each the first place that shows it (invalid when none does).

  /// The one answer to "does this program use CUDA", for every check that asks: the code names
  /// DeviceType::CUDA (torch::kCUDA, at::kCUDA, DeviceType::CUDA, also as the CUDA arm of
  /// `torch::cuda::is_available() ? kCUDA : kCPU`), calls Tensor::cuda(), builds a torch::Device
  /// from a "cuda..." string (a literal, either arm of a conditional, "cuda:" + rank, or a string
  /// variable holding one), or calls libtorch's CUDA-only API (torch::cuda::synchronize(),
  /// c10::cuda / at::cuda streams, guards, events, caching allocator). Not: a "cuda" string that
  /// never becomes a device (a log message, a flag name), or the queries and seeding a CPU-only
  /// program makes too (torch::cuda::is_available(), device_count(), manual_seed()).
  clang::SourceLocation usesCUDA() const;
  /// A device this TU cannot see: a call to a user function declared here but defined in another
  /// TU that returns a torch::Device or DeviceType, an extern device variable, or a torch::Device
  /// built from a string that comes from outside the code (`torch::Device device(args.device)`). With it, "no CUDA
  /// in this TU" does not make the program CPU-only.
  clang::SourceLocation opaqueDevice() const { return OpaqueDevice; }
  /// The code computes in fp16/bf16: names ScalarType::Half or BFloat16 (kHalf, kBFloat16,
  /// kFloat16), or calls Tensor::half()/bfloat16().
  clang::SourceLocation usesReducedPrecision() const;
  /// The code calls anything in at::autocast (set_enabled, set_autocast_enabled, ...).
  clang::SourceLocation usesAutocast() const;

  /// The earliest of two locations (either may be invalid).
  clang::SourceLocation earliest(clang::SourceLocation A, clang::SourceLocation B) const;
  unsigned line(clang::SourceLocation Loc) const;

private:
  friend class TUFactsCollector;
  void noteCuda(clang::SourceLocation Loc);
  void noteOpaqueDevice(clang::SourceLocation Loc);
  void note(llvm::StringMap<clang::SourceLocation> &Map, llvm::StringRef Key, clang::SourceLocation Loc);

  clang::ASTContext &Ctx;
  llvm::StringMap<clang::SourceLocation> Calls, Namespaces, Enumerators;
  clang::SourceLocation CudaUse; // torch::Device("cuda:0"), CUDA-only calls and the like
  clang::SourceLocation OpaqueDevice;
};

} // namespace torchlint
