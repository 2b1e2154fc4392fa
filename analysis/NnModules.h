// Recognising torch::nn modules, optimizers and data loaders behind the types users write:
// `torch::nn::Conv2d` (a ModuleHolder<Conv2dImpl>), `Conv2dImpl`, `std::shared_ptr<Conv2dImpl>`.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace torchlint {

/// The module class behind T: XImpl for XImpl, for a ModuleHolder<XImpl> (torch::nn::Conv2d,
/// TORCH_MODULE classes) and for std::shared_ptr<XImpl>, through references, typedefs and cv.
/// Null when T is none of these.
const clang::CXXRecordDecl *moduleImplOf(clang::QualType T);
/// XImpl when RD is or derives from torch::nn::ModuleHolder<XImpl> (torch::nn::Conv2d, a
/// TORCH_MODULE class), else null.
const clang::CXXRecordDecl *heldModuleOf(const clang::CXXRecordDecl *RD);
/// N for torch::nn::ConvNdImpl (N = 1, 2, 3), else 0.
int convDims(const clang::CXXRecordDecl *Impl);
/// N for torch::nn::BatchNormNdImpl (N = 1, 2, 3), else 0.
int batchNormDims(const clang::CXXRecordDecl *Impl);
/// torch::nn::SequentialImpl.
bool isSequentialImpl(const clang::CXXRecordDecl *Impl);
/// A class derived from torch::optim::Optimizer (or Optimizer itself).
bool isOptimizerClass(const clang::CXXRecordDecl *RD);
/// torch::nn::Module or a class derived from it.
bool isModuleOrDerived(const clang::CXXRecordDecl *RD);
/// A data loader: a class derived from torch::data::DataLoaderBase (what `*loader` is).
bool isDataLoaderType(clang::QualType T);
/// The data set a data loader of type T reads (DataLoaderBase's first template argument:
/// `MapDataset<MyDataset, Stack<>>` for `make_data_loader(MyDataset(...).map(Stack<>()))`), or null.
const clang::CXXRecordDecl *datasetOfLoader(clang::QualType T);

/// For `m(x)` (ModuleHolder::operator()), `m->forward(x)` and `m.forward(x)` on a module: the
/// expression that denotes the module (`m`), else null.
const clang::Expr *moduleOfForwardCall(const clang::Expr *Call);

} // namespace torchlint
