#include "TUFacts.h"
#include "Recovery.h"
#include "PerTU.h"
#include "TorchTypes.h"
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

const StringLiteral *findStringLiteral(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 6)
    return nullptr;
  if (const auto *L = dyn_cast<StringLiteral>(S))
    return L;
  for (const Stmt *C : S->children())
    if (const StringLiteral *L = findStringLiteral(C, Depth + 1))
      return L;
  return nullptr;
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

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    SourceLocation Loc = C->getExprLoc();
    F.note(F.Calls, FD->getQualifiedNameAsString(), Loc);
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
    F.note(F.Constructions, RD->getName(), C->getBeginLoc());
    if (RD->getName() == "Device" && C->getNumArgs() >= 1)
      if (const StringLiteral *L = findStringLiteral(C->getArg(0)))
        if (L->getCharByteWidth() == 1 && L->getString().starts_with("cuda"))
          F.noteCudaString(L->getBeginLoc());
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

void TUFacts::noteCudaString(SourceLocation Loc) {
  Loc = Ctx.getSourceManager().getExpansionLoc(Loc);
  if (!isLibraryLocation(Ctx.getSourceManager(), Loc))
    CudaDeviceString = earliest(CudaDeviceString, Loc);
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
SourceLocation TUFacts::firstConstruction(llvm::StringRef N) const { return lookup(Constructions, N); }

SourceLocation TUFacts::usesCUDA() const {
  SourceLocation L = firstEnumerator("DeviceType::CUDA");
  L = earliest(L, firstCall("at::Tensor::cuda"));
  L = earliest(L, CudaDeviceString);
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
