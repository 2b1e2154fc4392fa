#include "rules/AllocInForwardCheck.h"
#include "analysis/ConstantData.h"
#include "analysis/TUFacts.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

bool isOptionsArg(const Expr *A) { return isTensorOptionsType(A->getType()) || isa<CXXDefaultArgExpr>(A); }

/// The local variable Call initializes (itself, or through a chain of tensor methods: `auto m =
/// torch::eye(4).repeat({bs, 1, 1})`), when it is then written in place (`m.index_put_(...)`: a
/// scratch tensor filled on every call, not a constant), or escapes by
/// non-const reference (it may be): true. Hoisting such a tensor would change what the code does.
bool scratchTensor(const CallExpr *Call, const FunctionDecl *F) {
  if (!F || !F->getBody())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const CallExpr *Call;
    const VarDecl *Var = nullptr;
    bool Written = false;
    bool shouldVisitLambdaBody() const { return true; }
    bool VisitVarDecl(VarDecl *V) {
      // The factory itself, or a chain of tensor methods on it (`torch::eye(4).repeat({bs, 1, 1})`,
      // `.expand(...).clone()`): a write into the variable fills a tensor made on this call.
      const Expr *E = V->getInit() ? stripCopies(V->getInit()) : nullptr;
      while (E && E != Call) {
        const auto *M = dyn_cast<CXXMemberCallExpr>(E);
        if (!M || !isTensorType(M->getType()))
          return true;
        E = stripCopies(M->getImplicitObjectArgument());
      }
      if (E)
        Var = V;
      return true;
    }
    /// The variable E names, also through views of it (`m.slice(0, 0, 3).select(1, 3)`, `m[0]`,
    /// `m.index({0, 1})`, `m.narrow(...)`, `m.view(...)`): writing into a view writes into it.
    static const DeclRefExpr *viewedVariable(const Expr *E) {
      for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
        E = stripCopies(E);
        if (const auto *R = dyn_cast<DeclRefExpr>(E))
          return R;
        if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript &&
                                                                 Op->getNumArgs() == 2 && isTensorType(Op->getType())) {
          E = Op->getArg(0);
          continue;
        }
        const auto *M = dyn_cast<CXXMemberCallExpr>(E);
        const CXXMethodDecl *MD = M ? M->getMethodDecl() : nullptr;
        if (!MD || !MD->getDeclName().isIdentifier() || !isTensorType(M->getType()) ||
            !llvm::is_contained({"slice", "select", "narrow", "index", "view", "reshape", "diagonal", "transpose",
                                 "permute", "squeeze", "unsqueeze", "flatten", "t", "expand", "as_strided"},
                                MD->getName()))
          return nullptr;
        E = M->getImplicitObjectArgument();
      }
      return nullptr;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *M) {
      const DeclRefExpr *R = viewedVariable(M->getImplicitObjectArgument());
      const CXXMethodDecl *MD = M->getMethodDecl();
      if (Var && R && R->getDecl() == Var && MD && MD->getDeclName().isIdentifier() &&
          MD->getName().ends_with("_") && !MD->getName().starts_with("requires_grad"))
        Written = true;
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // `m[0][1] = v;`, `m.slice(0, 0, 3) = r;`: Tensor's assignment to a view writes in place
      // (an assignment to the variable itself rebinds it: not a write into this tensor).
      if (!Var || !Op->isAssignmentOp() || Op->getNumArgs() != 2)
        return true;
      const Expr *Target = stripCopies(Op->getArg(0));
      if (isa<DeclRefExpr>(Target))
        return true;
      if (const DeclRefExpr *R = viewedVariable(Target); R && R->getDecl() == Var)
        Written = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      // Passed by non-const reference: may be written.
      const FunctionDecl *FD = C->getDirectCallee();
      if (!Var || !FD || isa<CXXOperatorCallExpr>(C))
        return true;
      for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams(); ++I) {
        const auto *R = dyn_cast<DeclRefExpr>(C->getArg(I)->IgnoreParenImpCasts());
        QualType T = FD->getParamDecl(I)->getType();
        if (R && R->getDecl() == Var && T->isLValueReferenceType() && !T->getPointeeType().isConstQualified())
          Written = true;
      }
      return true;
    }
  } Fd;
  Fd.Call = Call;
  Fd.TraverseStmt(F->getBody());
  return Fd.Var && Fd.Written;
}

} // namespace

void AllocInForwardCheck::registerMatchers(MatchFinder *Finder) {
  // torch::tensor({...}) of literals; arange/linspace/logspace/eye of constants.
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::torch::tensor", "::at::tensor", "::torch::arange", "::at::arange",
                                              "::torch::linspace", "::at::linspace", "::torch::logspace",
                                              "::at::logspace", "::torch::eye", "::at::eye"))))
          .bind("factory"),
      this);
  // torch::ones_like(x) * -1 and the like: a filled tensor that only carries a constant.
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::torch::ones_like", "::at::ones_like", "::torch::zeros_like",
                                              "::at::zeros_like", "::torch::full_like", "::at::full_like"))))
          .bind("like"),
      this);
}

void AllocInForwardCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  const auto *Like = Result.Nodes.getNodeAs<CallExpr>("like");
  const CallExpr *Call = Factory ? Factory : Like;
  if (!inUserCode(Call->getExprLoc(), SM) || Call->getExprLoc().isMacroID())
    return;
  // CPU-only code: an allocation from the host's allocator, no upload. With the whole project
  // (a model's .cpp that never names CUDA, main() choosing the device), the model decides.
  bool CudaElsewhere = TUFacts::get(Ctx).usesCUDA().isInvalid();
  if (CudaElsewhere && !projectMode())
    return;
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return;
  Hot->IfProjectUsesCUDA = CudaElsewhere;
  std::string Name = Call->getDirectCallee()->getNameAsString();
  std::string Ns = factoryNamespace(Call);

  if (Factory) {
    unsigned Data = 0;
    // Whole-project mode: parameters whose callers are in other files are decided by the model
    // (every call in the project passes a constant).
    std::vector<const ParmVarDecl *> Deferred;
    for (const Expr *A : Call->arguments()) {
      if (isOptionsArg(A))
        continue;
      if (!isConstantData(A, &Ctx, projectMode() ? &Deferred : nullptr))
        return;
      ++Data;
    }
    Hot->IfConstantArgs = std::move(Deferred);
    if (!Data || scratchTensor(Call, Hot->Function))
      return;
    std::string What = Name == "tensor" ? "builds a tensor from literals" : "builds a tensor from constant arguments";
    report(Call->getExprLoc(),
           Ns + "::" + Name + "(...) " + What +
               " on every call: an allocation and, for a CUDA tensor, a host-to-device copy each time for a "
               "value that never changes; create it once (a buffer registered in the module's constructor, "
               "moved with the module) or use a scalar overload",
           Hot);
    return;
  }

  // *_like(x) whose only role is to carry a constant into arithmetic or torch::where.
  // The hot-code analysis' parent map of user code: no parent map of all of libtorch.
  const Expr *U = HotCodeAnalysis::get(Ctx).userOf(Call, /*SkipTemporaryObjects=*/true);
  if (!U)
    return;
  bool Report = false;
  std::string Use;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(U)) {
    OverloadedOperatorKind K = Op->getOperator();
    if ((K == OO_Star || K == OO_Plus || K == OO_Minus || K == OO_Slash) && Op->getNumArgs() == 2) {
      const Expr *Other = stripToWritten(Op->getArg(0)) == stripToWritten(Call) ? Op->getArg(1) : Op->getArg(0);
      if (!isTensorType(stripToWritten(Other)->getType()) && isConstantData(Other, &Ctx)) {
        Report = true;
        Use = "torch::full_like(..., value)";
      }
    }
  } else if (const auto *C = dyn_cast<CallExpr>(U)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && FD->getDeclName().isIdentifier() && FD->getName() == "where" && isTorchDecl(FD) && C->getNumArgs() == 3 &&
        stripToWritten(C->getArg(0)) != stripToWritten(Call) && Name != "full_like") {
      Report = true;
      Use = "the scalar overload torch::where(cond, " + std::string(Name == "ones_like" ? "1" : "0") + ", other)";
    }
  }
  if (!Report)
    return;
  report(Call->getExprLoc(),
         "`" + sourceText(U, Ctx) + "` allocates and fills a tensor on every call only to carry a constant; use " +
             Use + ", or hoist the tensor out of the per-step path",
         Hot);
}

} // namespace torchlint
