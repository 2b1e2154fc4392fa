#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchlint {

static bool derivesFromNamed(const CXXRecordDecl *RD, llvm::StringRef Name, int Depth = 0) {
  if (!RD || Depth > 16)
    return false;
  if (RD->getQualifiedNameAsString() == Name)
    return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (derivesFromNamed(B.getType()->getAsCXXRecordDecl(), Name, Depth + 1))
      return true;
  return false;
}

/// The first template argument of the specialization Name that RD is or derives from.
static const CXXRecordDecl *templateArgOfBase(const CXXRecordDecl *RD, llvm::StringRef Name, int Depth = 0) {
  if (!RD || Depth > 16)
    return nullptr;
  if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (S->getQualifiedNameAsString() == Name && S->getTemplateArgs().size() >= 1 &&
        S->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return S->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  RD = RD->getDefinition();
  if (!RD)
    return nullptr;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const CXXRecordDecl *R = templateArgOfBase(B.getType()->getAsCXXRecordDecl(), Name, Depth + 1))
      return R;
  return nullptr;
}

const CXXRecordDecl *heldModuleOf(const CXXRecordDecl *RD) {
  return templateArgOfBase(RD, "torch::nn::ModuleHolder");
}

const CXXRecordDecl *moduleImplOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (const CXXRecordDecl *C = templateArgOfBase(RD, "torch::nn::ModuleHolder"))
    return C;
  if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    if (S->getQualifiedNameAsString() == "std::shared_ptr" && S->getTemplateArgs().size() >= 1 &&
        S->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      const CXXRecordDecl *C = S->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      return isModuleOrDerived(C) ? C : nullptr;
    }
  return isModuleOrDerived(RD) ? RD : nullptr;
}

static int dimsOf(const CXXRecordDecl *Impl, llvm::StringRef Prefix) {
  if (!Impl)
    return 0;
  for (int N = 1; N <= 3; ++N)
    if (Impl->getQualifiedNameAsString() == (Prefix + llvm::Twine(N) + "dImpl").str())
      return N;
  return 0;
}

int convDims(const CXXRecordDecl *Impl) { return dimsOf(Impl, "torch::nn::Conv"); }
int batchNormDims(const CXXRecordDecl *Impl) { return dimsOf(Impl, "torch::nn::BatchNorm"); }

bool isSequentialImpl(const CXXRecordDecl *Impl) {
  return Impl && Impl->getQualifiedNameAsString() == "torch::nn::SequentialImpl";
}

bool isOptimizerClass(const CXXRecordDecl *RD) { return derivesFromNamed(RD, "torch::optim::Optimizer"); }
bool isModuleOrDerived(const CXXRecordDecl *RD) { return derivesFromNamed(RD, "torch::nn::Module"); }

bool isDataLoaderType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && (templateArgOfBase(RD, "torch::data::DataLoaderBase") != nullptr ||
                derivesFromNamed(RD, "torch::data::DataLoaderBase"));
}

const CXXRecordDecl *datasetOfLoader(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  return templateArgOfBase(T->getAsCXXRecordDecl(), "torch::data::DataLoaderBase");
}

/// `m` from `m.operator->()`.
static const Expr *holderOfArrow(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Arrow && Op->getNumArgs() == 1)
      return Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const auto *MD = MC->getMethodDecl())
      if (MD->getOverloadedOperator() == OO_Arrow)
        return MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  return nullptr;
}

const Expr *moduleOfForwardCall(const Expr *Call) {
  Call = Call->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Call))
    Call = B->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_Call && Op->getNumArgs() >= 1) {
      const Expr *M = Op->getArg(0)->IgnoreParenImpCasts();
      if (moduleImplOf(M->getType()))
        return M;
    }
    return nullptr;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getDeclName().isIdentifier() || MD->getName() != "forward" || !isModuleOrDerived(MD->getParent()))
      return nullptr;
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (const Expr *H = holderOfArrow(Obj))
      return H;
    return Obj->IgnoreParenImpCasts();
  }
  return nullptr;
}

} // namespace torchlint
