#include "analysis/TorchTypes.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchlint {

static bool isNamed(const CXXRecordDecl *RD, llvm::StringRef Qualified) {
  return RD && RD->getQualifiedNameAsString() == Qualified;
}

static const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *P = T->getAs<PointerType>())
    (void)P; // pointers to tensors are not tensors
  return T->getAsCXXRecordDecl();
}

static bool derivesFrom(const CXXRecordDecl *RD, llvm::ArrayRef<llvm::StringRef> Names) {
  if (!RD)
    return false;
  for (llvm::StringRef N : Names)
    if (isNamed(RD, N))
      return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (derivesFrom(B.getType()->getAsCXXRecordDecl(), Names))
      return true;
  return false;
}

bool isTensorType(QualType T) { return derivesFrom(recordOf(T), {"at::TensorBase", "at::Tensor"}); }

bool isTensorContainerType(QualType T) {
  if (T.isNull())
    return false;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() < 1 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  std::string N = Spec->getQualifiedNameAsString();
  if (N != "std::vector" && N != "std::deque" && N != "c10::ArrayRef")
    return false;
  return isTensorType(Spec->getTemplateArgs()[0].getAsType());
}

bool isTensorMapType(QualType T) {
  if (T.isNull())
    return false;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() < 2 || Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return false;
  std::string N = Spec->getQualifiedNameAsString();
  if (N != "std::map" && N != "std::unordered_map")
    return false;
  return isTensorType(Spec->getTemplateArgs()[1].getAsType());
}

namespace {
bool holdsNoTensorsDepth(QualType T, unsigned Depth) {
  if (T.isNull() || Depth > 4)
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType().getCanonicalType()
                           : QualType(T->getArrayElementTypeNoTypeQual(), 0).getCanonicalType();
  if (T->isArithmeticType() || T->isEnumeralType() || T->isNullPtrType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || T->isDependentType() || isTorchDecl(RD))
    return false;
  if (RD->isInStdNamespace()) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Type && !holdsNoTensorsDepth(A.getAsType(), Depth + 1))
          return false;
    // std::function may wrap anything.
    return RD->getName() != "function";
  }
  const CXXRecordDecl *Def = RD->getDefinition();
  if (!Def || Def->isLambda() || Def->isPolymorphic())
    return false;
  for (const CXXBaseSpecifier &B : Def->bases())
    if (!holdsNoTensorsDepth(B.getType(), Depth + 1))
      return false;
  for (const FieldDecl *F : Def->fields())
    if (!holdsNoTensorsDepth(F->getType(), Depth + 1))
      return false;
  return true;
}
} // namespace

bool holdsNoTensors(QualType T) { return holdsNoTensorsDepth(T, 0); }

namespace {
/// The function D declares (through using-declarations and templates) when it returns a tensor
/// whatever its template arguments, else null.
const FunctionDecl *tensorReturning(const NamedDecl *D) {
  D = D->getUnderlyingDecl();
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    D = T->getTemplatedDecl();
  const auto *F = dyn_cast<FunctionDecl>(D);
  return F && !F->getReturnType()->isDependentType() && isTensorType(F->getReturnType()) ? F : nullptr;
}

/// Every declaration of Name in the tensor class behind T returns a tensor (and there is one).
bool tensorMethodReturnsTensor(QualType T, DeclarationName Name) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !(RD = RD->getDefinition()))
    return false;
  bool Any = false;
  for (const CXXRecordDecl *C = RD; C;) {
    for (const NamedDecl *D : C->lookup(Name)) {
      if (!tensorReturning(D))
        return false;
      Any = true;
    }
    if (Any || C->getNumBases() != 1)
      break;
    C = C->bases_begin()->getType()->getAsCXXRecordDecl();
    C = C ? C->getDefinition() : nullptr;
  }
  return Any;
}

bool tensorValued(const Expr *E, QualType &TensorT, unsigned Depth) {
  if (!E || Depth > 16)
    return false;
  E = E->IgnoreParenImpCasts();
  if (!E->isTypeDependent()) {
    if (!isTensorType(E->getType()))
      return false;
    TensorT = E->getType().getNonReferenceType();
    return true;
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(R->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->getType()->getContainedAutoType() || !VD->getInit())
      return false; // only `auto` locals: their type is their initializer's
    return tensorValued(VD->getInit(), TensorT, Depth + 1);
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const Expr *Callee = C->getCallee()->IgnoreParenImpCasts();
    // A call with dependent arguments whose every candidate (one function, or each overload the
    // call can resolve to) returns a tensor.
    if (!isa<CXXOperatorCallExpr>(C)) {
      std::vector<const NamedDecl *> Candidates;
      if (const auto *R = dyn_cast<DeclRefExpr>(Callee))
        Candidates.push_back(R->getDecl());
      else if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee))
        Candidates.assign(UL->decls_begin(), UL->decls_end());
      const FunctionDecl *F = nullptr;
      for (const NamedDecl *D : Candidates)
        if (!(F = tensorReturning(D)))
          return false;
      if (F) {
        TensorT = F->getReturnType().getNonReferenceType();
        return true;
      }
    }
    // a + b with a dependent operand: a tensor when an operand is one.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C)) {
      switch (Op->getOperator()) {
      case OO_Plus:
      case OO_Minus:
      case OO_Star:
      case OO_Slash:
        for (const Expr *A : Op->arguments())
          if (tensorValued(A, TensorT, Depth + 1))
            return true;
        return false;
      default:
        return false;
      }
    }
    if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
      if (M->isImplicitAccess() || M->isArrow())
        return false;
      QualType BaseT;
      return tensorValued(M->getBase(), BaseT, Depth + 1) && tensorMethodReturnsTensor(BaseT, M->getMember()) &&
             (TensorT = BaseT, true);
    }
    return false;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub || B->getOpcode() == BO_Mul || B->getOpcode() == BO_Div)
      return tensorValued(B->getLHS(), TensorT, Depth + 1) || tensorValued(B->getRHS(), TensorT, Depth + 1);
    return false;
  }
  return false;
}
} // namespace

bool isTensorValued(const Expr *E) {
  QualType T;
  return tensorValued(E, T, 0);
}

bool isModuleClass(const CXXRecordDecl *RD) {
  return RD && !isNamed(RD, "torch::nn::Module") && derivesFrom(RD, {"torch::nn::Module"});
}

bool isModuleForward(const FunctionDecl *FD) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  return M && M->getDeclName().isIdentifier() && M->getName() == "forward" && isModuleClass(M->getParent());
}

bool isTorchDecl(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (NS->getParent() && NS->getParent()->isTranslationUnit()) {
        llvm::StringRef N = NS->getName();
        return N == "at" || N == "c10" || N == "torch" || N == "caffe2";
      }
    }
  }
  return false;
}

} // namespace torchlint

namespace torchlint {

llvm::ArrayRef<llvm::StringRef> tensorFactoryNames() {
  static const llvm::StringRef Names[] = {"rand",   "randn",         "randint", "randperm",     "zeros",    "ones",
                                          "full",   "empty",         "arange",  "linspace",     "logspace", "eye",
                                          "tensor", "empty_strided", "normal",  "scalar_tensor"};
  return Names;
}

TensorFactoryKind tensorFactoryKind(llvm::StringRef N) {
  TensorFactoryKind K;
  K.Fresh = llvm::is_contained(tensorFactoryNames(), N);
  K.Like = llvm::is_contained(
      {"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like"}, N);
  K.Sized = llvm::is_contained({"zeros", "ones", "empty", "rand", "randn", "full", "randint", "normal"}, N);
  K.Random = N.starts_with("rand") || llvm::is_contained({"normal", "bernoulli", "multinomial", "poisson", "binomial",
                                                          "_standard_gamma", "_sample_dirichlet"},
                                                         N);
  K.FromHost = N == "from_blob";
  return K;
}

std::string factoryNamespace(const CallExpr *Factory) {
  const FunctionDecl *FD = Factory ? Factory->getDirectCallee() : nullptr;
  if (FD)
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getParent()->isTranslationUnit())
          return NS->getName() == "at" ? "at" : "torch";
  return "torch";
}

bool isTensorOptionsType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && RD->getQualifiedNameAsString() == "c10::TensorOptions";
}

bool isDeviceValueType(QualType T) {
  if (T.isNull())
    return false;
  QualType C = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *ET = C->getAs<EnumType>())
    return ET->getDecl()->getQualifiedNameAsString() == "c10::DeviceType";
  if (const CXXRecordDecl *RD = C->getAsCXXRecordDecl())
    return RD->getQualifiedNameAsString() == "c10::Device";
  return false;
}

const CXXRecordDecl *objectClass(const Expr *Obj) {
  if (!Obj)
    return nullptr;
  QualType T = Obj->IgnoreParenImpCasts()->getType();
  return T->isPointerType() ? T->getPointeeCXXRecordDecl() : T.getNonReferenceType()->getAsCXXRecordDecl();
}

bool isDeviceLikeType(QualType T) {
  if (T.isNull())
    return false;
  if (isDeviceValueType(T))
    return true;
  QualType C = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const CXXRecordDecl *RD = C->getAsCXXRecordDecl())
    return RD->getQualifiedNameAsString() == "std::basic_string";
  if (const auto *PT = C->getAs<PointerType>())
    return PT->getPointeeType()->isCharType();
  if (const auto *AT = C->getAsArrayTypeUnsafe())
    return AT->getElementType()->isCharType();
  return false;
}

} // namespace torchlint

namespace torchlint {
bool isTensorFactory(const FunctionDecl *FD) {
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->getDeclName().isIdentifier() || !isTensorType(FD->getReturnType()))
    return false;
  llvm::StringRef N = FD->getName();
  if (N.starts_with("_") || N.ends_with("_like") || N == "from_blob" || N == "from_file")
    return false;
  // Namespaces from the innermost out: the outermost must be at or torch, none internal.
  const NamespaceDecl *Top = nullptr;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      llvm::StringRef S = NS->getName();
      if (S == "native" || S == "_ops" || S == "detail" || S == "jit" || S == "autograd" || S.starts_with("_"))
        return false;
      Top = NS;
    } else if (!isa<TranslationUnitDecl>(DC) && !isa<LinkageSpecDecl>(DC)) {
      return false;
    }
  }
  if (!Top || (Top->getName() != "at" && Top->getName() != "torch"))
    return false;
  for (const ParmVarDecl *P : FD->parameters())
    if (isTensorOptionsType(P->getType()))
      return true;
  return false;
}
} // namespace torchlint
