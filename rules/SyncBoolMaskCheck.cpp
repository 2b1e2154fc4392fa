#include "rules/SyncBoolMaskCheck.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TensorDtype.h"
#include "fixits/TensorOptionsFix.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// The tensors used as indices in an index list ({mask}, {mask, Slice()}): the Tensor arguments
/// of the at::indexing::TensorIndex constructions inside E.
void indexTensors(const Expr *E, std::vector<const Expr *> &Out) {
  if (!E)
    return;
  E = stripCopies(E);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (RD && RD->getName() == "TensorIndex") {
      if (CE->getNumArgs() == 1 && isTensorType(CE->getArg(0)->getType()))
        Out.push_back(CE->getArg(0));
      return;
    }
    for (const Expr *A : CE->arguments())
      indexTensors(A, Out);
    return;
  }
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    return indexTensors(IL->getSubExpr(), Out);
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    for (const Expr *A : IL->inits())
      indexTensors(A, Out);
}

const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCopies(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// True when Mask is computed elementwise from variable Target (t > 0, isnan(t), (t < a) & (t > b)),
/// so that it has exactly Target's shape: then index_put_({mask}, v) and masked_fill_(mask, v)
/// touch the same elements.
bool sameShapeMask(const Expr *Mask, const VarDecl *Target, ASTContext &Ctx, unsigned Depth = 0) {
  if (!Mask || Depth > 8)
    return false;
  Mask = stripCopies(Mask);
  if (const VarDecl *MV = varOf(Mask)) {
    const VarValues &V = valuesOf(MV, Ctx);
    if (!V.Known || V.Values.size() != 1 || V.Written)
      return false;
    return sameShapeMask(V.Values[0], Target, Ctx, Depth + 1);
  }
  auto IsTarget = [&](const Expr *E) { return varOf(E) == Target; };
  auto IsScalar = [](const Expr *E) {
    QualType T = stripCopies(E)->getType();
    return T->isArithmeticType() || T.getNonReferenceType().getAsString().find("Scalar") != std::string::npos;
  };
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Mask)) {
    if (Op->getNumArgs() != 2 && Op->getOperator() != OO_Tilde)
      return false;
    switch (Op->getOperator()) {
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
      // t > 0, 0 < t: a scalar operand keeps t's shape.
      return (IsTarget(Op->getArg(0)) && IsScalar(Op->getArg(1))) ||
             (IsTarget(Op->getArg(1)) && IsScalar(Op->getArg(0)));
    case OO_Amp:
    case OO_Pipe:
    case OO_Caret:
      return sameShapeMask(Op->getArg(0), Target, Ctx, Depth + 1) &&
             sameShapeMask(Op->getArg(1), Target, Ctx, Depth + 1);
    case OO_Tilde:
      return sameShapeMask(Op->getArg(0), Target, Ctx, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Mask)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getDeclName().isIdentifier())
      return false;
    llvm::StringRef N = MD->getName();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (N == "isnan" || N == "isinf" || N == "isfinite" || N == "isposinf" || N == "isneginf" || N == "signbit")
      return IsTarget(Obj);
    if (N == "eq" || N == "ne" || N == "lt" || N == "gt" || N == "le" || N == "ge")
      return MC->getNumArgs() == 1 && IsTarget(Obj) && IsScalar(MC->getArg(0));
    if (N == "logical_not")
      return sameShapeMask(Obj, Target, Ctx, Depth + 1);
    if (N == "logical_and" || N == "logical_or" || N == "logical_xor")
      return MC->getNumArgs() == 1 && sameShapeMask(Obj, Target, Ctx, Depth + 1) &&
             sameShapeMask(MC->getArg(0), Target, Ctx, Depth + 1);
  }
  return false;
}

const char AltMessage[] = "; use masked_fill_(mask, value), torch::where(mask, a, b) or a multiplication by "
                          "the mask, which keep the shape fixed and stay on the device (and for a masked "
                          "loss, cross_entropy's ignore_index instead of masking the targets)";

} // namespace

void SyncBoolMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("index", "index_put_"), isTensorMethod()))).bind("index"),
      this);
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("[]"), hasArgument(0, expr(isTensorExpr())),
                                         hasArgument(1, expr(isTensorExpr())))
                         .bind("subscript"),
                     this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("masked_select"), isInTorchHeaders()))).bind("select"), this);
}

void SyncBoolMaskCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Sel = Result.Nodes.getNodeAs<CallExpr>("select")) {
    const Expr *T = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Sel))
      T = MC->getImplicitObjectArgument();
    else if (Sel->getNumArgs() >= 1)
      T = Sel->getArg(0);
    auto Site = assess(Sel, T, Ctx);
    if (!Site)
      return;
    reportSync(Sel->getExprLoc(),
               std::string("masked_select() returns as many elements as the mask selects, so the CPU waits for "
                           "the GPU to count them") +
                   AltMessage,
               *Site);
    return;
  }
  if (const auto *Sub = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("subscript")) {
    if (!isBoolTensor(Sub->getArg(1), Ctx))
      return; // an integer index tensor: torch-sync-item reports its item()
    auto Site = assess(Sub, Sub->getArg(0), Ctx);
    if (!Site)
      return;
    reportSync(Sub->getBeginLoc(),
               std::string("Tensor::operator[] with a boolean tensor reads it with item() (a sync) and only "
                           "accepts a zero-dim mask; index({mask}) is a sync too") +
                   AltMessage,
               *Site);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("index");
  if (Call->getNumArgs() == 0)
    return;
  std::vector<const Expr *> Indices;
  indexTensors(Call->getArg(0), Indices);
  const Expr *Mask = nullptr;
  for (const Expr *I : Indices)
    if (!Mask && isBoolTensor(I, Ctx))
      Mask = I;
  if (!Mask)
    return;
  const Expr *Obj = Call->getImplicitObjectArgument();
  auto Site = assess(Call, Obj, Ctx);
  if (!Site)
    return;
  bool Put = Call->getMethodDecl()->getName() == "index_put_";
  std::string Msg = Put ? "index_put_ with a boolean mask" : "indexing with a boolean mask";
  Msg += " runs nonzero() on the mask, whose result size depends on the data, so the CPU waits for the GPU "
         "to finish all queued work";
  // The fix: t.index_put_({mask}, scalar) -> t.masked_fill_(mask, scalar), only when the mask is
  // the whole index and has exactly t's shape.
  std::vector<FixItHint> Fix;
  bool ScalarValue = false;
  if (Put && Call->getNumArgs() >= 2 && Call->getMethodDecl()->getNumParams() >= 2) {
    const ParmVarDecl *VP = Call->getMethodDecl()->getParamDecl(1);
    const CXXRecordDecl *VR = VP->getType().getNonReferenceType()->getAsCXXRecordDecl();
    ScalarValue = VR && VR->getName() == "Scalar";
  }
  if (Put && Indices.size() == 1 && Call->getNumArgs() == 2) {
    const Expr *Value = Call->getArg(1);
    const VarDecl *Target = varOf(Obj);
    const InitListExpr *IL = bracedList(Call->getArg(0));
    bool OneElementList = IL && IL->getNumInits() == 1;
    const VarValues *TV = Target ? &valuesOf(Target, Ctx) : nullptr;
    std::string MaskText = writtenText(Mask, Ctx), ValueText = writtenText(Value, Ctx);
    const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens());
    if (ScalarValue && Target && TV && !TV->Written && OneElementList && sameShapeMask(Mask, Target, Ctx) &&
        !MaskText.empty() && !ValueText.empty() && ME && !ME->getMemberLoc().isMacroID() &&
        !Call->getRParenLoc().isMacroID()) {
      Fix.push_back(
          FixItHint::CreateReplacement(CharSourceRange::getTokenRange(ME->getMemberLoc(), Call->getRParenLoc()),
                                       "masked_fill_(" + MaskText + ", " + ValueText + ")"));
    }
  }
  if (Put && ScalarValue)
    Msg += "; t.masked_fill_(mask, value) does the same without a sync (a mask over leading dimensions "
           "needs unsqueeze(-1) per trailing dimension first)";
  else if (Put)
    Msg += "; torch::where(mask, values, t) (or t.masked_scatter_) keeps the shape fixed and stays on the device";
  else
    Msg += AltMessage;
  auto D = reportSync(Call->getExprLoc(), Msg, *Site);
  for (const FixItHint &F : Fix)
    D << F;
}

} // namespace torchlint
