// Recognising libtorch types and APIs in the AST: tensors, modules, factories. Shared by every
// check so that "is this a tensor?" has one answer.
#pragma once
#include "utils/ExprStrip.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace torchlint {

/// at::Tensor, at::TensorBase, torch::Tensor and classes derived from them, through references,
/// typedefs and cv-qualifiers.
bool isTensorType(clang::QualType T);
/// A container of tensors: std::vector<Tensor>, std::deque<Tensor>, c10::ArrayRef<Tensor>
/// (TensorList), through references, typedefs and cv-qualifiers.
bool isTensorContainerType(clang::QualType T);
/// A map whose values are tensors: std::map<K, Tensor>, std::unordered_map<K, Tensor>, through
/// references, typedefs and cv-qualifiers.
bool isTensorMapType(clang::QualType T);
/// A class derived from torch::nn::Module (directly or through torch::nn::Cloneable<T>).
bool isModuleClass(const clang::CXXRecordDecl *RD);
/// forward() of a torch::nn::Module subclass.
bool isModuleForward(const clang::FunctionDecl *FD);
/// True for declarations that come from libtorch's headers (namespace at, c10, torch, caffe2).
bool isTorchDecl(const clang::Decl *D);
/// True when E is a tensor, also where its type depends on a template parameter and is only
/// known in instantiations: in a template that is never instantiated, `auto loss =
/// torch::nll_loss(out, target)` with a dependent `out` is a tensor because every overload the
/// call can resolve to returns one; likewise a Tensor method whose every overload returns a
/// tensor, called on a tensor (`out.log_softmax(1)`), arithmetic with a tensor operand, and a
/// local declared `auto` from any of these. Anything else dependent (a value of the template
/// parameter's type, a call of a member of it) is not known to be a tensor.
bool isTensorValued(const clang::Expr *E);

// AST matchers.
AST_MATCHER(clang::Expr, isTensorExpr) { return isTensorType(Node.getType()); }
AST_MATCHER(clang::Decl, isInTorchHeaders) { return isTorchDecl(&Node); }
/// A method of at::Tensor / at::TensorBase (or a class derived from them).
AST_MATCHER(clang::CXXMethodDecl, isTensorMethod) {
  return isTensorType(clang::QualType(Node.getParent()->getTypeForDecl(), 0));
}

} // namespace torchlint

namespace torchlint {
/// Tensor factories that take TensorOptions and whose result a user may move to a device
/// (torch::zeros, at::randn, torch::tensor, ...). Not from_blob (an upload of host data) nor the
/// *_like factories.
llvm::ArrayRef<llvm::StringRef> tensorFactoryNames();

/// What torchlint knows of a libtorch function that makes a tensor, by its unqualified name: the
/// one table every check and analysis asks (tensorFactoryNames() are the Fresh ones).
struct TensorFactoryKind {
  bool Fresh = false;    // makes a new tensor from sizes or values (zeros, randn, arange, tensor, ...)
  bool Sized = false;    // its IntArrayRef parameter is the shape of the result (zeros, randn, full, ...)
  bool Like = false;     // the result has the shape (and by default the device) of its first argument
  bool Random = false;   // draws random numbers (a device generator gives other numbers than the CPU's)
  bool FromHost = false; // wraps host memory (from_blob)
  bool any() const { return Fresh || Like || FromHost; }
};
TensorFactoryKind tensorFactoryKind(llvm::StringRef Name);
/// "torch" or "at": the namespace the user called a factory through.
std::string factoryNamespace(const clang::CallExpr *Factory);
/// True for c10::TensorOptions (through references and cv).
bool isTensorOptionsType(clang::QualType T);
/// True for c10::Device, c10::DeviceType and strings (what a device can be built from).
bool isDeviceLikeType(clang::QualType T);
/// A value that names a device and nothing else: c10::Device, c10::DeviceType (not a string,
/// which holds anything). The project model follows such fields and parameters as it follows
/// tensors (`RL_OPTION(torch::Device, environment_device) = torch::kCPU` and its setter).
bool isDeviceValueType(clang::QualType T);
/// The class of a member call's object as written (`this` in a method of Box: Box, not the
/// torch::nn::Module base the call converts it to), through a pointer or a reference; or null.
const clang::CXXRecordDecl *objectClass(const clang::Expr *Obj);
/// True when a value of type T can hold no tensor and no module: numbers, enums, strings, standard
/// containers and classes whose type arguments are such (std::vector<std::pair<long, double>>,
/// std::mt19937), and user classes whose fields and bases are such; through references,
/// pointers, typedefs and cv-qualifiers. A function handed only such values cannot run autograd
/// on the caller's tensors. Anything unknown (a template parameter, a synthesised type) can.
bool holdsNoTensors(clang::QualType T);
} // namespace torchlint

namespace torchlint {
/// Every libtorch factory that takes TensorOptions: a free function of namespace at or torch (or
/// their sub-namespaces, e.g. torch::fft::fftfreq) returning a tensor with a c10::TensorOptions
/// parameter. Not the *_like factories (their device follows the input), from_blob (wraps host
/// memory), from_file, nor internal (`_`-prefixed or at::native/at::_ops) functions.
bool isTensorFactory(const clang::FunctionDecl *FD);
AST_MATCHER(clang::FunctionDecl, isTensorFactoryDecl) { return isTensorFactory(&Node); }
} // namespace torchlint
