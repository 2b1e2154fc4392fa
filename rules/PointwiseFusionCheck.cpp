#include "rules/PointwiseFusionCheck.h"
#include "analysis/TUFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

bool isPointwiseName(llvm::StringRef N) {
  static const llvm::StringSet<> Names = {
      "add",  "sub",  "mul",      "div",        "neg",       "exp",        "exp2",   "expm1", "log",  "log1p",
      "log2", "erf",  "erfc",     "sigmoid",    "tanh",      "relu",       "sin",    "cos",   "sqrt", "rsqrt",
      "abs",  "pow",  "clamp",    "clamp_min",  "clamp_max", "reciprocal", "square", "floor", "ceil", "round",
      "sign", "silu", "softplus", "leaky_relu", "hardtanh",  "elu",        "selu",   "gelu",  "mish"};
  return Names.contains(N);
}

/// A tensor-valued elementwise operation: `a + b`, `-a`, `a * 0.5`, torch::erf(a), a.sigmoid().
/// Returns its operands (tensor and scalar) in Ops.
bool isPointwise(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Ops) {
  if (!E || !isTensorType(E->getType()))
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    OverloadedOperatorKind K = Op->getOperator();
    if (K != OO_Plus && K != OO_Minus && K != OO_Star && K != OO_Slash)
      return false;
    for (const Expr *A : Op->arguments())
      Ops.push_back(A);
    return true;
  }
  const auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier() || !isTorchDecl(FD) || !isPointwiseName(FD->getName()))
    return false;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
    Ops.push_back(M->getImplicitObjectArgument());
  for (const Expr *A : C->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Ops.push_back(A);
  return true;
}

struct Chain {
  unsigned Ops = 0;
  llvm::SmallVector<const Expr *, 8> TensorLeaves;
};

void collect(const Expr *E, Chain &C, unsigned Depth = 0) {
  E = stripToWritten(E);
  llvm::SmallVector<const Expr *, 4> Ops;
  if (Depth < 32 && isPointwise(E, Ops)) {
    ++C.Ops;
    for (const Expr *O : Ops)
      collect(O, C, Depth + 1);
    return;
  }
  if (isTensorType(E->getType()))
    C.TensorLeaves.push_back(E);
}

const ValueDecl *leafDecl(const Expr *E) {
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    return R->getDecl();
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->getMemberDecl();
  return nullptr;
}

/// The expression that uses E, skipping implicit nodes; for the object of a member call
/// (a.sigmoid()), the call.
const Expr *user(const Expr *E, ASTContext &Ctx) {
  // The hot-code analysis' parent map of user code: no parent map of all of libtorch.
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Expr *U = H.userOf(E, /*SkipTemporaryObjects=*/false);
  if (isa_and_nonnull<MemberExpr>(U))
    return dyn_cast_or_null<CXXMemberCallExpr>(H.parentOf(U));
  return U;
}

} // namespace

void PointwiseFusionCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(expr(anyOf(cxxOperatorCallExpr(hasAnyOverloadedOperatorName("+", "-", "*", "/")),
                                callExpr(callee(functionDecl(isInTorchHeaders())))),
                          isTensorExpr())
                         .bind("op"),
                     this);
}

void PointwiseFusionCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *E = Result.Nodes.getNodeAs<Expr>("op");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  llvm::SmallVector<const Expr *, 4> Ops;
  if (!isPointwise(E, Ops) || !inUserCode(E->getExprLoc(), SM) || E->getExprLoc().isMacroID())
    return;
  // Only the root of a chain: its user is not itself an elementwise op.
  llvm::SmallVector<const Expr *, 4> Ignored;
  if (const Expr *U = user(E, Ctx))
    if (isPointwise(U, Ignored))
      return;
  Chain C;
  collect(E, C);
  if (C.Ops < 4 || C.TensorLeaves.empty())
    return;
  // On one tensor: every tensor operand is the same variable (or there is just one).
  const ValueDecl *One = leafDecl(C.TensorLeaves.front());
  for (const Expr *L : C.TensorLeaves)
    if (C.TensorLeaves.size() > 1 && (!One || leafDecl(L) != One))
      return;
  if (TUFacts::get(Ctx).usesCUDA().isInvalid())
    return; // kernel launches and extra passes over memory are a GPU cost
  auto Hot = hotContext(E, Ctx);
  if (!Hot)
    return;
  std::string Name = One ? "`" + One->getNameAsString() + "`" : "one tensor";
  report(E->getBeginLoc(),
         std::to_string(C.Ops) + " elementwise operations on " + Name + " in one expression launch " +
             std::to_string(C.Ops) +
             " kernels, each reading and writing the whole tensor; fuse them into one kernel (a built-in fused "
             "op such as torch::gelu where one exists, or a custom CUDA or TorchScript-fused function)",
         Hot);
}

} // namespace torchlint
