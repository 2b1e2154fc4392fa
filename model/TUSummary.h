// The summary of one translation unit for the project model (issue 23): what this TU tells the
// whole program about its training step. It lists the functions defined in user code (by USR, with
// file, line and qualified name), the calls each makes (callee USR, call location, the loop of the
// caller the call sits in, whether the call is virtual and so dispatches to every override the
// project defines, whether it runs only under a condition of that loop's body), lambdas and
// std::function variables called where the target is visible, the user's constructors and forward()
// that libtorch's templates call for it (a TORCH_MODULE holder built with arguments, make_shared,
// `net(x)`), the direct overrides of each method
// (the merge resolves virtual calls across TUs through them), the loops of each function, the
// step calls (a module's forward(), backward(), an optimizer's step(), a loss) each function makes
// directly, module facts (module classes holding convolutions, where forward() is defined), and
// where the tensors it stores into fields, passes to parameters and returns live (a loader's
// `images_` filled with host tensors; "host if" other fields, parameters and return values are),
// and where the tensors that its functions return and its fields hold come from (tensor flows: a
// uint8 image widened to float32 on the host in imageToTensor(), returned by Camera::getImage()).
// A summary is built from the AST once per TU (buildTUSummary), is plain data, and is serialized to
// JSON with a format version (toJson / fromJson); ProjectModel.h merges the summaries and decides
// what runs per step. Conditional findings ("a sync in F, reported if F runs per step") are not
// here: they travel with the TU's findings (checkbase/TorchCheck.cpp marks them, HotBasis.h).
#pragma once
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class Decl;
class FunctionDecl;
class ParmVarDecl;
class SourceManager;
} // namespace clang

namespace torchlint {
struct TensorOrigin;
struct HostAssumptions;
} // namespace torchlint

namespace torchlint::model {

/// The summary format; a summary of another format is ignored with a note (fromJson).
constexpr int SummaryFormat = 13; // 2: field devices; 3: tensor flows (widened host tensors);
                                 // 4: program facts, gradient needs of functions;
                                 // 5: the devices of tensor arguments at calls (paramKey);
                                 // 6: return values (returnKey), host-if conditions (FieldFacts::IfHost);
                                 // 7: opaque devices of programs, callees handed no tensor ("?USR");
                                 // 8: device fields and parameters, virtual methods' parameters,
                                 //    the function a write is in (FieldFacts::In)
                                 // 9: constant arguments at calls (Call::ConstArgs)
                                 // 10: null pointer arguments at calls (Call::ConstArgs 'n')
                                 // 11: Loop::Bounded also for loops over a small fixed local list
                                 // 12: Loop::Conditional and Loop::Rare (a loop in a logging branch)
                                 // 13: the Examples a data set's get() returns (exampleKey flows)

enum class StepKind { Forward, Backward, OptimizerStep, Loss };
const char *stepKindName(StepKind K);

struct Loop {
  std::string File; // absolute
  unsigned Line = 0, Column = 0;
  int Parent = -1;      // the loop of the same function around this one, or -1
  bool Bounded = false; // over the model's parameters, a braced list, a small fixed local list (analysis/HotCode.h isBoundedLoop)
  /// As Call's: the loop statement is under an if/switch/?:/&& of its parent loop's body (or of
  /// the function's body, without a parent), and why it runs only on some steps there (a logging
  /// branch: `if (step % N == 0) { for (i < samples) save(out[i]); }`). A call in the loop runs
  /// no more often than the loop does (ProjectModel: the chain of loops up to the step loop).
  bool Conditional = false;
  std::string Rare;
};

struct Call {
  std::string Callee; // USR
  std::string File;   // absolute
  unsigned Line = 0, Column = 0;
  int Loop = -1;            // innermost loop of the caller around the call (index into Function::Loops), or -1
  bool Virtual = false;     // dispatched: every override of Callee may run
  bool Conditional = false; // under an if/switch/?:/&& of the loop body: not on every iteration
  /// Under a logging branch (`if (step % N == 0)`) or assert() of the caller: why the call runs
  /// only on some steps (analysis/RarePath.h localRarePath), else empty.
  std::string Rare;
  /// Rare because of a logging branch with no loop between it and the call (RarePath
  /// OncePerInterval): the call runs at most once per logging interval.
  bool RareOnce = false;
  /// For each argument, in the order of the callee's parameters: '1' when it is a compile-time
  /// constant of a number type (analysis/ConstantData.h), 'n' when it is a null pointer constant
  /// (nullptr, NULL, a default of nullptr), else '0'; empty when no argument is either
  /// (ProjectModel::constantAtEveryCall, nullAtEveryCall).
  std::string ConstArgs;
};

struct Step {
  StepKind Kind = StepKind::Forward;
  int Loop = -1; // as Call::Loop
  unsigned Line = 0;
};

struct Function {
  std::string USR;
  std::string Name; // qualified: "Metrics::update", "main", "the lambda at train.cpp:12"
  std::string File; // absolute
  unsigned Line = 0;
  bool Forward = false;               // forward() of a torch::nn::Module subclass
  bool TestBody = false;              // a unit test body: never a step (analysis/HotCode.h isTestBody)
  std::vector<std::string> Overrides; // USRs of the methods this one overrides directly
  std::vector<Loop> Loops;
  std::vector<Call> Calls;
  std::vector<Step> Steps;
  /// It needs gradients (analysis/Autograd.h mayNeedGradients: a backward(), requires_grad_(), a
  /// call through a pointer, ...), with what this TU sees of the user functions it calls.
  bool NeedsGradients = false;
  /// The user functions it calls (directly or through functions of this TU) whose bodies are not
  /// in this TU, by USR: it needs gradients if one of them does (ProjectModel::needsGradients).
  /// A USR with "?" before it is of a function handed no tensor at any call (GradientCallee): if
  /// no TU defines it, it needs none.
  std::vector<std::string> GradientsElsewhere;
};

/// The entry of Function::GradientsElsewhere (and HotBasis::IfNoGradients) for a callee.
inline std::string gradientCalleeKey(std::string USR, bool HandedNoTensors) {
  return HandedNoTensors ? "?" + USR : USR;
}

struct ModuleFacts {
  std::string USR, Name, File;
  unsigned Line = 0;
  bool HasConvolution = false; // holds a torch::nn::Conv{1,2,3}d member or registers one
};

/// Where the tensors that this TU stores into a field live (analysis/LocalDataflow.h
/// fieldWritesOf): Host when every value stored is provably on the CPU, Device when every one is
/// provably on an accelerator, else Unknown (mixed, not provable, or written in a way not followed).
enum class FieldDevice { Host, Device, Unknown };

const char *fieldDeviceName(FieldDevice D);

/// One TU's writes of a field, a parameter (paramKey) or a function's return values (returnKey).
struct FieldFacts {
  std::string USR, Name; // Name: "Dataset::images_"
  FieldDevice Device = FieldDevice::Unknown;
  /// With Device Host: host only if each of these (fields, parameters, return values: keys of
  /// FieldFacts) is host in the whole project (analysis/DeviceProvenance.h HostAssumptions). The
  /// model resolves chains and cycles of them (a field filled from a constructor's parameter that
  /// every caller fills from the field itself).
  std::vector<std::string> IfHost;
  /// A parameter's write (a call) or a return value's: the function it is made in (the caller; the
  /// function returning). Device Unknown there is host when only programs that never use CUDA
  /// reach that function (ProjectModel::finish).
  std::string In;
  /// The model's index of the TU that wrote it (ProjectModel::finish; not serialized).
  int TU = -1;
};

/// One origin of the tensors a function returns or a field holds (analysis/HostWidening.h
/// originsOf): a chain written there that widens a narrow host tensor (`from_blob(..., kByte)
/// .toType(kFloat32) / 255`), a call of a user function (its return values), a read of a field
/// (an element of a field holding tensors included), or anything else.
struct TensorSource {
  enum class Kind { Widened, Call, Field, Unknown };
  Kind K = Kind::Unknown;
  std::string From, To; // Widened: the dtypes ("Byte", "Float")
  std::string In;       // Widened: the function the conversion is in ("imageToTensor")
  std::string File;     // Widened: where the conversion is (absolute)
  unsigned Line = 0;
  std::string USR; // Call: the callee; Field: the field
  bool operator==(const TensorSource &O) const {
    return K == O.K && From == O.From && To == O.To && In == O.In && File == O.File && Line == O.Line && USR == O.USR;
  }
};

const char *tensorSourceKindName(TensorSource::Kind K);

/// Where the tensors of a user function's return values (IsField false) or of a field's writes in
/// this TU (IsField true) come from. Every function defined here that returns a tensor has one;
/// a field has one when this TU writes it (a write not followed: an Unknown source).
struct TensorFlow {
  std::string USR, Name; // Name: "Camera::getImage", "Camera::image"
  bool IsField = false;
  std::string File; // the definition's (absolute)
  unsigned Line = 0;
  std::vector<TensorSource> Sources;
};

/// Where a fact of a TU's user code is (Line 0: nowhere in this TU).
struct Site {
  std::string File; // absolute
  unsigned Line = 0, Column = 0;
  std::string What; // Conv: "Conv2d", "torch::conv2d()"
  explicit operator bool() const { return Line != 0; }
};

/// What a TU's user code does for the program as a whole (analysis/ProgramFacts.h, TUFacts.h): the
/// first place of each (torch-cudnn-benchmark decides on the whole program, ProjectModel::programFacts).
struct ProgramSites {
  Site Main;   // main() is defined here
  Site Conv;   // builds a convolution module or calls a functional convolution
  Site CUDA;   // uses CUDA (TUFacts::usesCUDA)
  Site Trains; // backward() or an optimizer's step()
  Site Cudnn;  // configures cuDNN: setBenchmarkCuDNN, setDeterministicCuDNN, setDeterministicAlgorithms
  Site Opaque; // a device it cannot see (TUFacts::opaqueDevice): the program may use CUDA
};

struct TUSummary {
  std::string MainFile; // absolute
  std::vector<Function> Functions;
  std::vector<ModuleFacts> Modules;
  std::vector<FieldFacts> Fields; // the tensor fields this TU writes
  std::vector<TensorFlow> Flows;  // what this TU's tensor-returning functions return and fields hold
  bool UsesCUDA = false;           // analysis/TUFacts.h usesCUDA(): kCUDA, .cuda(), a CUDA header...
  ProgramSites Program;
};

/// Where Loc is (its expansion), with the file absolute: how summaries and findings name places.
struct Position {
  std::string File;
  unsigned Line = 0, Column = 0;
};
Position positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// The USR of D (a function: its template pattern's for a specialization; a lambda's call
/// operator: "lambda@file:line:col"), or "" when it has none.
std::string usrOf(const clang::Decl *D);
/// A tensor parameter as the model keeps it beside fields (FieldFacts, HotBasis::HostIfFields):
/// "<the function's USR>#param<index>"; each call in a TU is one write of it, with the argument's
/// device. Empty when the function has no USR.
std::string paramKey(const clang::ParmVarDecl *PV);
std::string paramKey(const clang::FunctionDecl *FD, unsigned Index);
/// A user function's return values, kept beside fields: "<the function's USR>#return"; each
/// return statement of its definition is one write (analysis/DeviceProvenance.h
/// returnFollowsDefinition).
std::string returnKey(const clang::FunctionDecl *FD);
/// Element Element (0 the data, 1 the target) of the Examples a data set's get() returns, kept
/// beside functions in the tensor flows: "<get()'s USR>#example<Element>" (empty without a USR).
std::string exampleKey(const clang::FunctionDecl *FD, unsigned Element);
/// Where a module class's registered buffers and parameters live, kept beside fields:
/// "<the class's USR>#moved"; a write is a `to()` of the project on a module of that static class
/// (its device), the class itself (host, if its bases' keys are) and a module that registers it
/// (host, if that module's key is). Empty when the class has no USR.
std::string movedKey(const clang::CXXRecordDecl *RD);
/// The keys of what a host answer rests on (fields: their USR; paramKey; returnKey; movedKey).
std::vector<std::string> hostKeys(const HostAssumptions &If);

/// The summary of the TU of Ctx: its user code (library code is skipped, as analysis/HotCode.h
/// does), within the AST traversal scope that is set.
TUSummary buildTUSummary(clang::ASTContext &Ctx);

/// The summary's form of origins (analysis/HostWidening.h), without duplicates; a call or a field
/// without a USR is unknown.
std::vector<TensorSource> tensorSources(const std::vector<TensorOrigin> &Origins, clang::ASTContext &Ctx);

llvm::json::Value toJson(const TUSummary &S);
/// Reads what toJson wrote. nullopt with Err set on a summary of another format ("written by
/// another torchlint version") or a malformed one.
std::optional<TUSummary> fromJson(const llvm::json::Value &V, std::string &Err);

} // namespace torchlint::model
