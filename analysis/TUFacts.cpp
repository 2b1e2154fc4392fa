#include "analysis/TUFacts.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TorchTypes.h"
#include "core/PerTU.h"
#include "core/Recovery.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <memory>

using namespace clang;

namespace torchlint {

namespace {
/// "DeviceType::CUDA" for a libtorch enumerator, else empty.
std::string enumeratorKey(const EnumConstantDecl *E) {
  if (!E || !isTorchDecl(E))
    return {};
  const auto *ED = dyn_cast<EnumDecl>(E->getDeclContext());
  if (!ED)
    return {};
  return (ED->getName() + "::" + E->getName()).str();
}

bool isCudaLiteral(const StringLiteral *L) { return L->getCharByteWidth() == 1 && L->getString().starts_with("cuda"); }

/// The first "cuda..." string literal that E can evaluate to or be built from: the literal itself,
/// either arm of a conditional, a concatenation ("cuda:" + std::to_string(rank)), or a string
/// variable whose initializer or assignments hold one (std::string dev = "cuda:0"). A literal
/// that never reaches E (a log message, a flag's name) is not seen.
const StringLiteral *cudaLiteralIn(const Stmt *S, ASTContext &Ctx, unsigned Depth = 0) {
  if (!S || Depth > 10)
    return nullptr;
  if (const auto *L = dyn_cast<StringLiteral>(S))
    return isCudaLiteral(L) ? L : nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isTorchDecl(VD))
      return nullptr;
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD)) {
      const VarValues &V = valuesOf(VD, Ctx);
      for (const Expr *Val : V.Values)
        if (const StringLiteral *L = cudaLiteralIn(Val, Ctx, Depth + 1))
          return L;
      return nullptr;
    }
    return cudaLiteralIn(VD->getInit(), Ctx, Depth + 1); // a global or static: its initializer
  }
  if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
    return nullptr; // what a function returns is another question (its arguments are not the result)
  for (const Stmt *C : S->children())
    if (const StringLiteral *L = cudaLiteralIn(C, Ctx, Depth + 1))
      return L;
  return nullptr;
}

/// True when the string S builds may come from outside the code (a parameter, a function's result,
/// a member, a local assigned from one of these): `torch::Device device(args.device)`,
/// `torch::Device(argv[1])`. A literal, a variable holding only literals, and operators over such
/// are known.
bool stringFromOutside(const Stmt *S, ASTContext &Ctx, unsigned Depth = 0) {
  if (!S || Depth > 10)
    return true;
  if (isa<StringLiteral>(S) || isa<IntegerLiteral>(S) || isa<CharacterLiteral>(S))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || isTorchDecl(VD))
      return !isa_and_nonnull<EnumConstantDecl>(DRE->getDecl()) && !isTorchDecl(DRE->getDecl());
    if (VD->hasLocalStorage()) {
      const VarValues &V = valuesOf(VD, Ctx);
      if (!V.Known || V.Values.empty())
        return true;
      for (const Expr *Val : V.Values)
        if (stringFromOutside(Val, Ctx, Depth + 1))
          return true;
      return false;
    }
    return !VD->getInit() || stringFromOutside(VD->getInit(), Ctx, Depth + 1);
  }
  if (isa<MemberExpr>(S) || (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S)))
    return true;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S); CE && CE->getNumArgs() == 0)
    return false;
  for (const Stmt *C : S->children())
    if (stringFromOutside(C, Ctx, Depth + 1))
      return true;
  return false;
}

/// A call into libtorch's CUDA namespaces that needs a CUDA device (streams, guards, events,
/// synchronize, the caching allocator); the queries and seeding calls that CPU-only programs make
/// too (is_available, device_count, manual_seed) are not.
bool isCudaOnlyCall(const FunctionDecl *FD) {
  if (!FD || !isTorchDecl(FD))
    return false;
  bool InCuda = false;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cuda")
        InCuda = true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    for (const DeclContext *DC = MD->getParent()->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "cuda")
          InCuda = true;
  if (!InCuda)
    return false;
  if (!FD->getDeclName().isIdentifier())
    return true;
  return !llvm::is_contained({"is_available", "device_count", "cudnn_is_available", "manual_seed", "manual_seed_all",
                              "getNumGPUs", "is_built", "get_device_properties"},
                             FD->getName());
}
} // namespace

class TUFactsCollector : public RecursiveASTVisitor<TUFactsCollector> {
public:
  TUFactsCollector(ASTContext &Ctx, TUFacts &F) : Ctx(Ctx), F(F) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && isLibraryLocation(Ctx.getSourceManager(), D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  /// A local device variable that nothing names (`torch::Device device(cuda ? torch::kCUDA :
  /// torch::kCPU);` in a program that never passes it anywhere) says nothing about where the code
  /// runs: its initializer is not a use of CUDA.
  bool TraverseVarDecl(VarDecl *V) {
    if (V && V->isLocalVarDecl() && !V->isReferenced() && isDeviceValueType(V->getType()))
      return true;
    // Nor is a value no read of it sees: `auto device = torch::kCUDA; ... device = torch::kCPU;`.
    if (V && V->isLocalVarDecl() && isDeviceValueType(V->getType()) && V->getInit() &&
        writeNeverRead(V->getInit(), V, Ctx))
      return true;
    return RecursiveASTVisitor::TraverseVarDecl(V);
  }

  /// `if (torch::cuda::is_available()) device = torch::kCUDA;` overwritten by `device =
  /// torch::kCPU;` before any read (a program forced onto the CPU): the CUDA write is not a use.
  bool deadDeviceWrite(const Stmt *S) {
    const VarDecl *V = nullptr;
    const Expr *R = assignedValue(S, &V);
    return R && V->isLocalVarDecl() && isDeviceValueType(V->getType()) && writeNeverRead(R, V, Ctx);
  }
  bool TraverseBinaryOperator(BinaryOperator *BO, DataRecursionQueue *Queue = nullptr) {
    return deadDeviceWrite(BO) || RecursiveASTVisitor::TraverseBinaryOperator(BO, Queue);
  }
  bool TraverseCXXOperatorCallExpr(CXXOperatorCallExpr *Op, DataRecursionQueue *Queue = nullptr) {
    return deadDeviceWrite(Op) || RecursiveASTVisitor::TraverseCXXOperatorCallExpr(Op, Queue);
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    SourceLocation Loc = C->getExprLoc();
    if (isDeviceValueType(C->getType()) && !isTorchDecl(FD) && !FD->hasBody())
      F.noteOpaqueDevice(Loc); // Device pickDevice(); defined in another TU
    F.note(F.Calls, FD->getQualifiedNameAsString(), Loc);
    if (isCudaOnlyCall(FD))
      F.noteCuda(Loc);
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        F.note(F.Namespaces, NS->getQualifiedNameAsString(), Loc);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    if (!Ctor)
      return true;
    const CXXRecordDecl *RD = Ctor->getParent();
    if (!RD || !isTorchDecl(RD))
      return true;
    if (RD->getName() == "Device" && C->getNumArgs() >= 1) {
      if (const StringLiteral *L = cudaLiteralIn(C->getArg(0), Ctx))
        F.noteCuda(C->getBeginLoc().isValid() ? C->getBeginLoc() : L->getBeginLoc());
      else if (const CXXRecordDecl *P = Ctor->getNumParams() ? Ctor->getParamDecl(0)->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
               P && P->isInStdNamespace() && (P->getName() == "basic_string" || P->getName() == "string") &&
               stringFromOutside(C->getArg(0), Ctx))
        F.noteOpaqueDevice(C->getBeginLoc()); // torch::Device device(args.device): any device
    }
    if (isCudaOnlyCall(Ctor))
      F.noteCuda(C->getBeginLoc()); // c10::cuda::CUDAGuard, at::cuda::CUDAEvent, ...
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      std::string K = enumeratorKey(EC);
      if (!K.empty())
        F.note(F.Enumerators, K, E->getLocation());
      return true;
    }
    // libtorch's constants: constexpr DeviceType kCUDA = DeviceType::CUDA;
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (V->hasExternalStorage() && !isTorchDecl(V) && isDeviceValueType(V->getType()))
        F.noteOpaqueDevice(E->getLocation()); // extern torch::Device device; set in another TU
      if (!V->isConstexpr() || !isTorchDecl(V) || !V->getInit())
        return true;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts())) {
        std::string K = enumeratorKey(dyn_cast<EnumConstantDecl>(Ref->getDecl()));
        if (!K.empty())
          F.note(F.Enumerators, K, E->getLocation());
      }
    }
    return true;
  }

private:
  ASTContext &Ctx;
  TUFacts &F;
};

const TUFacts &TUFacts::get(ASTContext &Ctx) { return perTU<TUFacts>(Ctx); }

TUFacts::TUFacts(ASTContext &Ctx) : Ctx(Ctx) {
  TUFactsCollector C(Ctx, *this);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
}

void TUFacts::note(llvm::StringMap<SourceLocation> &Map, llvm::StringRef Key, SourceLocation Loc) {
  if (Loc.isInvalid())
    return;
  Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (isLibraryLocation(Ctx.getSourceManager(), Loc))
    return;
  auto [It, New] = Map.try_emplace(Key, Loc);
  if (!New)
    It->second = earliest(It->second, Loc);
}

void TUFacts::noteCuda(SourceLocation Loc) {
  if (Loc.isInvalid())
    return;
  Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (!isLibraryLocation(Ctx.getSourceManager(), Loc))
    CudaUse = earliest(CudaUse, Loc);
}

void TUFacts::noteOpaqueDevice(SourceLocation Loc) {
  Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (Loc.isValid() && !isLibraryLocation(Ctx.getSourceManager(), Loc))
    OpaqueDevice = earliest(OpaqueDevice, Loc);
}

SourceLocation TUFacts::earliest(SourceLocation A, SourceLocation B) const {
  if (A.isInvalid())
    return B;
  if (B.isInvalid())
    return A;
  return Ctx.getSourceManager().isBeforeInTranslationUnit(B, A) ? B : A;
}

unsigned TUFacts::line(SourceLocation Loc) const {
  return Ctx.getSourceManager().getPresumedLineNumber(Ctx.getSourceManager().getExpansionLoc(Loc));
}

static SourceLocation lookup(const llvm::StringMap<SourceLocation> &Map, llvm::StringRef Key) {
  auto It = Map.find(Key);
  return It == Map.end() ? SourceLocation() : It->second;
}

SourceLocation TUFacts::firstCall(llvm::StringRef Q) const { return lookup(Calls, Q); }
SourceLocation TUFacts::firstCallInNamespace(llvm::StringRef Ns) const { return lookup(Namespaces, Ns); }
SourceLocation TUFacts::firstEnumerator(llvm::StringRef K) const { return lookup(Enumerators, K); }

SourceLocation TUFacts::usesCUDA() const {
  SourceLocation L = firstEnumerator("DeviceType::CUDA");
  L = earliest(L, firstCall("at::Tensor::cuda"));
  L = earliest(L, firstCall("at::TensorBase::cuda"));
  L = earliest(L, CudaUse);
  return L;
}

SourceLocation TUFacts::usesReducedPrecision() const {
  SourceLocation L = firstEnumerator("ScalarType::Half");
  L = earliest(L, firstEnumerator("ScalarType::BFloat16"));
  L = earliest(L, firstCall("at::Tensor::half"));
  L = earliest(L, firstCall("at::Tensor::bfloat16"));
  return L;
}

SourceLocation TUFacts::usesAutocast() const { return firstCallInNamespace("at::autocast"); }

} // namespace torchlint
