#include "analysis/ProgramFacts.h"
#include "analysis/Autograd.h"
#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "analysis/UserCodeVisitor.h"
#include "core/PerTU.h"
#include "core/Recovery.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ASTLambda.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <memory>

using namespace clang;

namespace torchlint {

namespace {

class Collector : public UserCodeVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, ProgramFacts &F) : UserCodeVisitor(Ctx.getSourceManager()), Ctx(Ctx), F(F) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isMain() && FD->doesThisDeclarationHaveABody())
      F.Main = FD;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    edge(E->getConstructor());
    const CXXRecordDecl *Impl = moduleImplOf(E->getType());
    if (!Impl || E->getConstructor()->isCopyOrMoveConstructor())
      return true;
    if (E->getNumArgs() == 1 && E->getArg(0)->getType()->isNullPtrType())
      return true; // torch::nn::Conv2d conv{nullptr}: an empty holder, no convolution yet
    std::string N = Impl->getQualifiedNameAsString();
    if (convDims(Impl) || llvm::StringRef(N).starts_with("torch::nn::ConvTranspose")) {
      llvm::StringRef Name = Impl->getName();
      Name.consume_back("Impl");
      conv(E->getBeginLoc(), Name.str());
    }
    return true;
  }
  /// The function whose body is being traversed (lambdas' bodies count as their enclosing
  /// function's), for the call graph below.
  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    bool Enter = FD && FD->doesThisDeclarationHaveABody() && !isLambdaCallOperator(FD);
    if (Enter)
      Stack.push_back(key(FD));
    bool R = UserCodeVisitor::TraverseDecl(D);
    if (Enter)
      Stack.pop_back();
    return R;
  }
  static const FunctionDecl *key(const FunctionDecl *FD) {
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    return FD->getCanonicalDecl();
  }
  void edge(const FunctionDecl *To) {
    if (To && !Stack.empty())
      Calls[Stack.back()].insert(key(To));
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    edge(dyn_cast<FunctionDecl>(E->getDecl()));
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    edge(FD);
    if (isTrainingCall(C))
      Training.push_back({C->getExprLoc(), Stack.empty() ? nullptr : Stack.back()});
    std::string Q = FD->getQualifiedNameAsString();
    if (Q == "at::Context::setBenchmarkCuDNN" || Q == "at::Context::setDeterministicCuDNN" ||
        Q == "at::Context::setDeterministicAlgorithms") {
      F.ConfiguresCudnn = true;
      if (earlier(C->getExprLoc(), F.FirstCudnnConfig))
        F.FirstCudnnConfig = C->getExprLoc();
    }
    if (isTorchDecl(FD) && FD->getDeclName().isIdentifier() && !isa<CXXMethodDecl>(FD) &&
        llvm::is_contained({"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                            "convolution", "_convolution", "conv_tbc", "cudnn_convolution",
                            "cudnn_convolution_transpose"},
                           FD->getName()))
      conv(C->getBeginLoc(), FD->getQualifiedNameAsString() + "()");
    return true;
  }
  /// L comes before the location recorded so far (or none is).
  bool earlier(SourceLocation L, SourceLocation Recorded) const {
    return Recorded.isInvalid() || SM.isBeforeInTranslationUnit(SM.getExpansionLoc(L), SM.getExpansionLoc(Recorded));
  }
  void conv(SourceLocation L, std::string Name) {
    if (!earlier(L, F.FirstConv))
      return;
    F.BuildsConv = true;
    F.FirstConv = L;
    F.ConvName = std::move(Name);
  }

  /// Decides Trains: in a TU with main(), a backward() or optimizer step counts only in the main
  /// file's functions and where they reach (what they call, reference or construct, transitively;
  /// an override of a reached virtual method): a shared model header's inline training method
  /// that only another program calls does not make an inference program train. Without main(),
  /// every one counts (a trainer's file, whose program is decided by the project model).
  void decideTraining() {
    llvm::DenseSet<const FunctionDecl *> Reached;
    std::vector<const FunctionDecl *> Work;
    if (F.Main) {
      // Roots: main() and every function the main file itself defines (one called back from
      // another file's code is not seen calling); a header's functions only when reached. The
      // file is the presumed one (a `#line` directive naming another file moves what follows).
      OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
      auto InMainFile = [&](const FunctionDecl *D) {
        PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(D->getLocation()));
        return P.isValid() && Main && llvm::StringRef(P.getFilename()) == Main->getName();
      };
      Reached.insert(key(F.Main));
      Work.push_back(key(F.Main));
      for (auto &[Fn, Callees] : Calls)
        if (llvm::any_of(Fn->redecls(), [&](const FunctionDecl *R) {
              return R->doesThisDeclarationHaveABody() && InMainFile(R);
            }) &&
            Reached.insert(Fn).second)
          Work.push_back(Fn);
      auto Drain = [&] {
        while (!Work.empty()) {
          const FunctionDecl *Fn = Work.back();
          Work.pop_back();
          auto It = Calls.find(Fn);
          if (It != Calls.end())
            for (const FunctionDecl *C : It->second)
              if (Reached.insert(C).second)
                Work.push_back(C);
        }
      };
      Drain();
      // Overrides of reached virtual methods run through them.
      for (bool Grew = true; Grew;) {
        Grew = false;
        for (auto &[Fn, Callees] : Calls)
          if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn); MD && !Reached.count(Fn))
            for (const CXXMethodDecl *O : MD->overridden_methods())
              if (Reached.count(key(O))) {
                Reached.insert(Fn);
                Work.push_back(Fn);
                Grew = true;
                break;
              }
        Drain();
      }
    }
    for (auto &[Loc, In] : Training)
      if ((!F.Main || !In || Reached.count(In)) && earlier(Loc, F.FirstTraining)) {
        F.Trains = true;
        F.FirstTraining = Loc;
      }
  }

  ASTContext &Ctx;
  ProgramFacts &F;
  std::vector<const FunctionDecl *> Stack;
  llvm::DenseMap<const FunctionDecl *, llvm::DenseSet<const FunctionDecl *>> Calls;
  std::vector<std::pair<SourceLocation, const FunctionDecl *>> Training;
};

/// The facts, collected when the TU's cache entry is built.
struct CollectedFacts {
  ProgramFacts Facts;
  explicit CollectedFacts(ASTContext &Ctx) {
    Collector V(Ctx, Facts);
    V.TraverseAST(Ctx);
    V.decideTraining();
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
