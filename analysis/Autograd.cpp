#include "analysis/Autograd.h"
#include "analysis/HotCode.h"
#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "analysis/UserCodeVisitor.h"
#include "core/PerTU.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;

namespace torchlint {

namespace {

std::string recordName(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    return RD->getQualifiedNameAsString();
  return {};
}

/// 1 true, 0 false, -1 unknown.
int constBool(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return -1;
  bool B;
  if (E->EvaluateAsBooleanCondition(B, Ctx))
    return B ? 1 : 0;
  return -1;
}

bool isTensorMethodNamed(const CallExpr *C, llvm::StringRef Name) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  if (!MC)
    return false;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  return MD && MD->getDeclName().isIdentifier() && MD->getName() == Name &&
         isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
}

} // namespace

bool isGradDisablingGuard(const VarDecl *VD, ASTContext &Ctx) {
  if (!VD || !VD->hasLocalStorage())
    return false;
  std::string N = recordName(VD->getType());
  if (N == "c10::NoGradGuard" || N == "at::NoGradGuard")
    return true;
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  if (N == "c10::InferenceMode") {
    if (!CE || CE->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(CE->getArg(0)))
      return true;
    return constBool(CE->getArg(0), Ctx) == 1;
  }
  if (N == "c10::AutoGradMode" || N == "at::AutoGradMode")
    return CE && CE->getNumArgs() >= 1 && constBool(CE->getArg(0), Ctx) == 0;
  return false;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  return HotCodeAnalysis::get(Ctx).enclosingFunction(S);
}

namespace {

bool guardedInFunction(const Stmt *S, ASTContext &Ctx) {
  // Statement parents of user code from the hot-code analysis (no whole-TU parent map).
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Stmt *Child = S;
  for (const Stmt *P = H.parentOf(S); P; Child = P, P = H.parentOf(P)) {
    if (isa<LambdaExpr>(P))
      return false;
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *Sib : CS->body()) {
        if (Sib == Child)
          break;
        if (const auto *DS = dyn_cast<DeclStmt>(Sib))
          for (const Decl *D : DS->decls())
            if (isGradDisablingGuard(dyn_cast<VarDecl>(D), Ctx))
              return true;
      }
    }
  }
  return false;
}

class CallSiteFinder : public RecursiveASTVisitor<CallSiteFinder> {
public:
  explicit CallSiteFinder(const FunctionDecl *Target) : Target(Target) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->getCanonicalDecl() == Target)
        Sites.push_back(C);
    return true;
  }
  const FunctionDecl *Target;
  std::vector<const CallExpr *> Sites;
};

bool gradDisabledAtDepth(const Stmt *S, ASTContext &Ctx, int Depth) {
  if (guardedInFunction(S, Ctx))
    return true;
  if (Depth >= 3)
    return false;
  const FunctionDecl *FD = enclosingFunction(S, Ctx);
  if (!FD || FD->isMain())
    return false;
  CallSiteFinder F(FD->getCanonicalDecl());
  F.TraverseAST(Ctx);
  if (F.Sites.empty())
    return false;
  for (const CallExpr *C : F.Sites)
    if (!gradDisabledAtDepth(C, Ctx, Depth + 1))
      return false;
  return true;
}

} // namespace

bool gradDisabledAt(const Stmt *S, ASTContext &Ctx) { return gradDisabledAtDepth(S, Ctx, 0); }

bool isTrainingCall(const CallExpr *C) {
  if (isTensorMethodNamed(C, "backward"))
    return true;
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  if (FD->getQualifiedNameAsString() == "torch::autograd::backward")
    return true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return MD->getName() == "step" && isOptimizerClass(MD->getParent());
  return false;
}

namespace {
/// The tensor fields of the TU's user code that backward() is called on.
struct DifferentiatedFields {
  llvm::DenseSet<const FieldDecl *> Fields;
  explicit DifferentiatedFields(ASTContext &Ctx) {
    struct Collector : UserCodeVisitor<Collector> {
      llvm::DenseSet<const FieldDecl *> &Out;
      Collector(const SourceManager &SM, llvm::DenseSet<const FieldDecl *> &Out) : UserCodeVisitor(SM), Out(Out) {}
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
        if (!isTensorMethodNamed(MC, "backward"))
          return true;
        const Expr *Obj = MC->getImplicitObjectArgument();
        if (!Obj)
          return true;
        if (const auto *ME = dyn_cast<MemberExpr>(Obj->IgnoreParenImpCasts()))
          if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
            Out.insert(F->getCanonicalDecl());
        return true;
      }
    } C(Ctx.getSourceManager(), Fields);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};
} // namespace

bool isDifferentiatedField(const FieldDecl *F, ASTContext &Ctx) {
  return F && perTU<DifferentiatedFields>(Ctx).Fields.count(F->getCanonicalDecl());
}

const Stmt *findGradientUse(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return nullptr;
  const Stmt *Found = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (Found)
      return;
    if (isTensorMethodNamed(C, "backward") || isTensorMethodNamed(C, "requires_grad_") ||
        isTensorMethodNamed(C, "set_requires_grad")) {
      Found = C;
      return;
    }
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || !Callee->getDeclName().isIdentifier())
      return;
    std::string Q = Callee->getQualifiedNameAsString();
    if (Q == "torch::autograd::backward" || Q == "torch::autograd::grad")
      Found = C;
    else if (Callee->getName() == "requires_grad") {
      // TensorOptions().requires_grad(x) / torch::requires_grad(x), unless x is provably false.
      const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      bool Options =
          MD ? isTensorOptionsType(QualType(MD->getParent()->getTypeForDecl(), 0)) : Q == "c10::requires_grad";
      if (Options && C->getNumArgs() >= 1)
        Found = C;
    }
  });
  return Found;
}

const CallExpr *findTrainingCall(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return nullptr;
  const CallExpr *Found = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (!Found && isTrainingCall(C))
      Found = C;
  });
  return Found;
}

} // namespace torchlint

namespace torchlint {
static bool mayNeedGradientsDepth(const FunctionDecl *FD, int Depth,
                                  llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                                  std::vector<GradientCallee> *Elsewhere) {
  if (!FD || !Seen.insert(FD->getCanonicalDecl()).second)
    return false;
  if (findGradientUse(FD))
    return true;
  bool Needs = false;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (Needs)
      return;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee) {
      // A dependent member call (`model->forward(x)`, `out.size(0)` in a template) needs
      // gradients only through autograd's own entry points, which it is named after.
      if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(C->getCallee()->IgnoreParenImpCasts())) {
        std::string N = DM->getMember().getAsString();
        if (!DM->isImplicitAccess() && N != "backward" && N != "step" && N != "grad" && N != "requires_grad_" &&
            N != "retain_grad" && N != "train" && N != "zero_grad")
          return;
      }
      if (!isa<CXXOperatorCallExpr>(C))
        Needs = true; // a call through a pointer or a dependent call: unknown
      return;
    }
    if (isTorchDecl(Callee) || isLibraryLocation(Callee->getASTContext().getSourceManager(), Callee->getLocation()))
      return;
    const FunctionDecl *Def = nullptr;
    if (Elsewhere && !Callee->hasBody(Def)) {
      const FunctionDecl *Canon = Callee->getCanonicalDecl();
      bool NoTensors = handedNoTensors(C);
      auto It = llvm::find_if(*Elsewhere, [&](const GradientCallee &G) { return G.Callee == Canon; });
      if (It == Elsewhere->end())
        Elsewhere->push_back({Canon, NoTensors});
      else
        It->HandedNoTensors = It->HandedNoTensors && NoTensors;
      return;
    }
    if (!Callee->hasBody(Def) || !Def || Depth >= 4) {
      Needs = true;
      return;
    }
    Needs = mayNeedGradientsDepth(Def, Depth + 1, Seen, Elsewhere);
  });
  return Needs;
}

bool handedNoTensors(const CallExpr *C) {
  bool NoTensors = true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    NoTensors = holdsNoTensors(MC->getImplicitObjectArgument()->getType());
  for (const Expr *A : C->arguments())
    NoTensors = NoTensors && holdsNoTensors(A->getType());
  return NoTensors;
}

bool mayNeedGradients(const FunctionDecl *FD) {
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  return mayNeedGradientsDepth(FD, 0, Seen, nullptr);
}

bool mayNeedGradients(const FunctionDecl *FD, std::vector<GradientCallee> &Elsewhere) {
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  return mayNeedGradientsDepth(FD, 0, Seen, &Elsewhere);
}
} // namespace torchlint

namespace torchlint {
bool underRuntimeCondition(const Stmt *S, ASTContext &Ctx) {
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Stmt *Child = S;
  for (const Stmt *P = H.parentOf(S); P; Child = P, P = H.parentOf(P)) {
    if (isa<LambdaExpr>(P))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond() && !If->isConstexpr() && constBool(If->getCond(), Ctx) < 0)
        return true;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child != CO->getCond() && constBool(CO->getCond(), Ctx) < 0)
        return true;
    } else if (isa<SwitchCase>(P)) {
      return true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        return true;
    }
  }
  return false;
}

bool inTestCode(const Stmt *S, ASTContext &Ctx) { return HotCodeAnalysis::get(Ctx).inTestBody(S); }
} // namespace torchlint
