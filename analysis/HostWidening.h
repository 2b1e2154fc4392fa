// Host-side widening, and where a tensor comes from. A widening chain is a narrow tensor provably
// on the host (uint8, int8, bool, int16: `from_blob(..., kByte)`, a factory with that dtype,
// `.to(kByte)`, locals all of whose values are such) converted to a wider dtype (`.to(kFloat)`,
// `.toType(kFloat32)`, `.float()`) with views and scalar arithmetic around the conversion
// (`.permute(...)`, `.div(255)`, `/ 255.0f`): torch-host-convert-then-copy reports such a chain when
// it is copied to the device per step. The origins of a tensor expression say where its values come
// from across functions: such a chain written here, a call of a user function (its return values),
// a read of a field (a tensor field, or an element of a field holding tensors), or something else
// (unknown); locals are followed through their values (LocalDataflow.h valuesOf), and steps that
// keep dtype and device (views, indexing, clone) through their object. The project model
// (model/TUSummary.h) records the origins of what each function returns and each field holds, and
// decides across files which are widened host tensors. Decisions come from the AST, never from names.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace torchlint {

struct WideningChain {
  const clang::Expr *Root = nullptr;       // the narrow host tensor
  const clang::Expr *Conversion = nullptr; // the outermost widening conversion (`.toType(kFloat32)`)
  std::string From, To;                    // dtypes before and after it ("Byte", "Float")
  bool Fixable = true;                     // every step can move to the device unchanged
  unsigned Steps = 0;
};

/// Walks down `root.step().step()...` from E to the first expression that is not a step (a view,
/// scalar arithmetic, a dtype conversion). False when E contains no widening conversion of a
/// narrow tensor provably on the host to a floating dtype; an earlier copy (`.to(device)`) ends
/// the walk.
bool walkWideningChain(const clang::Expr *E, clang::ASTContext &Ctx, WideningChain &Out);

/// "uint8" for "Byte", "float32" for "Float": a ScalarType's name as users write dtypes.
std::string dtypeWord(llvm::StringRef ScalarType);

/// Float, Double, Half, BFloat16: the wide dtypes a widening chain converts to (uint8 labels
/// widened to int64 are not reported: small, and what index and loss kernels take).
bool isFloatingDtype(llvm::StringRef ScalarType);

struct TensorOrigin {
  enum Kind { Widened, UserCall, FieldRead, Unknown };
  Kind K = Unknown;
  WideningChain Chain;                          // Widened
  const clang::FunctionDecl *Callee = nullptr; // UserCall: a user function returning a tensor
  const clang::FieldDecl *Field = nullptr;     // FieldRead: a tensor field or a field holding tensors
  /// UserCall of a data set's get() defined in another TU (its Example's element Element: 0 the
  /// data, 1 the target); -1 for a function returning a tensor.
  int Element = -1;
};

/// Where the tensor values of E come from (appended to Out, without duplicates of a call or a field).
void originsOf(const clang::Expr *E, clang::ASTContext &Ctx, std::vector<TensorOrigin> &Out);

/// A loader batch's member (`batch.data`, `batch.target` of the range-for variable over a
/// torch::data loader, also through a local that holds it all along, or `torch::stack(parts)` of
/// a vector that std::transform filled with that member of each example of the batch:
/// LocalDataflow.h transformWritesOf) whose data set is a user class read through value-keeping
/// transforms only (`.map(Stack<>())`, `Normalize<>`): the origins of that member in what the data
/// set's get() returns (`return {img, label};`), appended to Out, and the get() (Get). A get()
/// defined in another TU gives one origin, a UserCall of it with the element (the project model
/// decides). False when E is no such member or a transform in between is another (a Lambda may
/// change anything); unknown origins then say so.
bool loaderBatchOrigins(const clang::Expr *E, clang::ASTContext &Ctx, std::vector<TensorOrigin> &Out,
                        const clang::FunctionDecl *&Get);

/// The origins of what FD returns (its return statements, not those of lambdas in it); FD has a
/// body and returns a tensor. Empty when it has no return statement with a value.
std::vector<TensorOrigin> returnOriginsOf(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);

/// True for a user data set's get(index): a method named get that overrides torch::data's
/// Dataset::get and returns a torch::data::Example.
bool isDatasetGet(const clang::FunctionDecl *FD);

/// The origins of element Element (0 the data, 1 the target) of the Examples FD, a data set's
/// get() with a body, returns (`return {img, label};`); an unknown origin for a return written
/// otherwise. Empty when it has no return statement with a value.
std::vector<TensorOrigin> exampleOriginsOf(const clang::FunctionDecl *FD, unsigned Element, clang::ASTContext &Ctx);

} // namespace torchlint
