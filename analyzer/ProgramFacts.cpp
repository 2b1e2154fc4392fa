#include "ProgramFacts.h"
#include "Recovery.h"
#include "Autograd.h"
#include "NnModules.h"
#include "PerTU.h"
#include "TorchTypes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <memory>

using namespace clang;

namespace torchlint {

namespace {

bool isCudaDecl(const ValueDecl *D) {
  if (!D)
    return false;
  std::string Q = D->getQualifiedNameAsString();
  return Q == "c10::kCUDA" || Q == "c10::DeviceType::CUDA" || Q == "at::kCUDA" || Q == "torch::kCUDA";
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, ProgramFacts &F) : Ctx(Ctx), SM(Ctx.getSourceManager()), F(F) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && isLibraryLocation(SM, D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isMain() && FD->doesThisDeclarationHaveABody())
      F.Main = FD;
    return true;
  }
  void cuda(SourceLocation L) {
    if (!F.MentionsCuda)
      F.FirstCudaMention = L;
    F.MentionsCuda = true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (isCudaDecl(E->getDecl()))
      cuda(E->getBeginLoc());
    return true;
  }
  bool VisitStringLiteral(StringLiteral *S) {
    if (S->getCharByteWidth() == 1 && S->getString().starts_with("cuda"))
      cuda(S->getBeginLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXRecordDecl *Impl = moduleImplOf(E->getType());
    if (Impl && !E->getConstructor()->isCopyOrMoveConstructor()) {
      std::string N = Impl->getQualifiedNameAsString();
      if (convDims(Impl) || llvm::StringRef(N).starts_with("torch::nn::ConvTranspose"))
        F.BuildsConv = true;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    if (isTrainingCall(C))
      F.Trains = true;
    std::string Q = FD->getQualifiedNameAsString();
    llvm::StringRef QR(Q);
    if (Q == "at::Context::setBenchmarkCuDNN" || Q == "at::Context::setDeterministicCuDNN" ||
        Q == "at::Context::setDeterministicAlgorithms")
      F.ConfiguresCudnn = true;
    if (QR.starts_with("torch::cuda::") || Q == "at::TensorBase::cuda" || Q == "at::Tensor::cuda")
      cuda(C->getBeginLoc());
    if (isTorchDecl(FD) && FD->getDeclName().isIdentifier() &&
        (FD->getName() == "conv1d" || FD->getName() == "conv2d" || FD->getName() == "conv3d" ||
         FD->getName() == "convolution"))
      F.BuildsConv = true;
    return true;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  ProgramFacts &F;
};

/// The facts, collected when the TU's cache entry is built.
struct CollectedFacts {
  ProgramFacts Facts;
  explicit CollectedFacts(ASTContext &Ctx) {
    Collector V(Ctx, Facts);
    V.TraverseAST(Ctx);
  }
};

} // namespace

const ProgramFacts &ProgramFacts::get(ASTContext &Ctx) { return perTU<CollectedFacts>(Ctx).Facts; }

bool isConstantCpuDevice(const Expr *E) {
  for (int I = 0; E && I < 6; ++I) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *S = dyn_cast<StringLiteral>(E))
      return S->getCharByteWidth() == 1 && S->getString() == "cpu";
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 0)
        return false;
      E = CE->getArg(0);
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      std::string Q = DRE->getDecl()->getQualifiedNameAsString();
      if (Q == "c10::kCPU" || Q == "c10::DeviceType::CPU" || Q == "at::kCPU" || Q == "torch::kCPU")
        return true;
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && VD->getType().isConstQualified() && VD->getInit() && !isTorchDecl(VD)) {
        E = VD->getInit();
        continue;
      }
      return false;
    }
    return false;
  }
  return false;
}

} // namespace torchlint
