#include "rules/IndexInLoopCheck.h"
#include "core/AstWalk.h"
#include "utils/ExprStrip.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/NnModules.h"
#include "utils/SourceText.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// Loops with fewer iterations than this are left alone: the PyTorch profiler's for-loop indexing
/// pattern also needs 10 repetitions before it reports.
constexpr int64_t SmallTripCount = 10;

/// True when E is the loop variable itself, written bare (through implicit conversions and the
/// TensorIndex / initializer-list constructions of `index({i})`).
/// For the element of a range-for over records, also an integer field of it (`r.env` in
/// `for (const auto &r : results) rewards[r.env] = r.reward;`).
bool isBareUse(const Expr *E, const VarDecl *Var) {
  if (!E)
    return false;
  E = E->IgnoreImplicit();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->getDecl() == Var)
      return true;
    // `int64_t k = r.env_index;` in a range-for's body: a local integer that names the element's
    // index (initialised from it, and so declared in the loop).
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return Var->isCXXForRangeDecl() && VD && VD != Var && VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD) &&
           VD->getType()->isIntegralOrEnumerationType() && VD->getInit() && isBareUse(VD->getInit(), Var);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && Var->isCXXForRangeDecl() &&
                                               Var->getType().getNonReferenceType()->isRecordType() &&
                                               isa<FieldDecl>(ME->getMemberDecl()) &&
                                               ME->getType()->isIntegralOrEnumerationType())
    if (const auto *B = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return B->getDecl() == Var;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return CE->getNumArgs() == 1 && isBareUse(CE->getArg(0), Var);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return isBareUse(FC->getSubExpr(), Var);
  return false;
}

/// The number of elements of a range-for's range when it is written as a constant: a braced
/// list (`for (int c : {0, 1, 2})`), a C array or a std::array. Nullopt otherwise.
std::optional<uint64_t> constantRangeSize(const Expr *Range, const ASTContext &Ctx) {
  Range = Range->IgnoreImplicit();
  // c10::irange(n), c10::irange(a, b) with constant bounds: a counter loop written as a range.
  if (const auto *C = dyn_cast<CallExpr>(Range))
    if (const FunctionDecl *FD = C->getDirectCallee();
        FD && FD->getDeclName().isIdentifier() && FD->getName() == "irange" && C->getNumArgs() >= 1 &&
        C->getNumArgs() <= 2) {
      std::optional<llvm::APSInt> A = C->getArg(0)->getIntegerConstantExpr(Ctx);
      std::optional<llvm::APSInt> B = C->getNumArgs() == 2 ? C->getArg(1)->getIntegerConstantExpr(Ctx) : A;
      if (!A || !B)
        return std::nullopt;
      int64_t Lo = C->getNumArgs() == 2 ? A->getExtValue() : 0, Hi = B->getExtValue();
      return uint64_t(std::max<int64_t>(0, Hi - Lo));
    }
  if (const InitListExpr *IL = dyn_cast<InitListExpr>(Range))
    return IL->getNumInits();
  if (const auto *SI = dyn_cast<CXXStdInitializerListExpr>(Range))
    if (const auto *IL = dyn_cast<InitListExpr>(SI->getSubExpr()->IgnoreImplicit()))
      return IL->getNumInits();
  QualType T = Range->getType().getNonReferenceType();
  if (const auto *CA = dyn_cast_or_null<ConstantArrayType>(T->getAsArrayTypeUnsafe()))
    return CA->getSize().getZExtValue();
  if (const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    if (S->isInStdNamespace() && S->getName() == "array" && S->getTemplateArgs().size() == 2 &&
        S->getTemplateArgs()[1].getKind() == TemplateArgument::Integral)
      return S->getTemplateArgs()[1].getAsIntegral().getZExtValue();
  return std::nullopt;
}

/// The index expressions of one indexing of a tensor: `t[i]` -> {i}; `t.index({a, b})`,
/// `t.index_put_({a, b}, v)` -> the elements of the list; `t.select(d, i)` -> {i}. Tensor is set
/// to `t`. Empty when C is no tensor indexing.
std::vector<const Expr *> indexArgs(const Expr *C, const Expr *&Tensor) {
  std::vector<const Expr *> Out;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C)) {
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 && isTensorType(OC->getArg(0)->getType()) &&
        !isTensorType(OC->getArg(1)->getType()) && OC->getArg(1)->getType()->isIntegralOrEnumerationType()) {
      Tensor = OC->getArg(0);
      Out.push_back(OC->getArg(1));
    }
    return Out;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() || !isTensorType(MC->getImplicitObjectArgument()->getType()))
    return Out;
  llvm::StringRef Name = MD->getName();
  if (Name == "select" && MC->getNumArgs() == 2 && MC->getArg(1)->getType()->isIntegralOrEnumerationType()) {
    Tensor = MC->getImplicitObjectArgument();
    Out.push_back(MC->getArg(1));
  } else if ((Name == "index" || Name == "index_put_") && MC->getNumArgs() >= 1) {
    // ArrayRef<TensorIndex> from `{i, Slice()}`: the elements of the initializer list.
    if (const InitListExpr *IL = bracedList(MC->getArg(0))) {
      Tensor = MC->getImplicitObjectArgument();
      for (const Expr *E : IL->inits())
        Out.push_back(E);
    }
  }
  return Out;
}

/// The bound of `i < N` (also `<=`, `!=`, `N > i`) when the condition compares Var, else null.
const Expr *boundOf(const Expr *Cond, const VarDecl *Var) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!BO)
    return nullptr;
  auto IsVar = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  };
  switch (BO->getOpcode()) {
  case BO_LT:
  case BO_LE:
  case BO_NE:
    return IsVar(BO->getLHS()) ? BO->getRHS() : nullptr;
  case BO_GT:
  case BO_GE:
    return IsVar(BO->getRHS()) ? BO->getLHS() : nullptr;
  default:
    return nullptr;
  }
}

/// True when E is a tensor dimension: `t.size(d)`, `t.sizes()[d]`, `t.numel()`, `t.size(d) - 1`,
/// or a local variable initialized with one.
bool isTensorDimension(const Expr *E, int Depth = 0) {
  if (!E || Depth > 3)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return isTensorDimension(BO->getLHS(), Depth + 1) || isTensorDimension(BO->getRHS(), Depth + 1);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    return MD && MD->getDeclName().isIdentifier() && llvm::is_contained({"size", "numel"}, MD->getName()) &&
           isTensorType(MC->getImplicitObjectArgument()->getType());
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
    if (const auto *Inner = dyn_cast<CXXMemberCallExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
      if (const CXXMethodDecl *MD = Inner->getMethodDecl())
        return MD->getDeclName().isIdentifier() && MD->getName() == "sizes" &&
               isTensorType(Inner->getImplicitObjectArgument()->getType());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl() && VD->getInit())
      return isTensorDimension(VD->getInit(), Depth + 1);
  return false;
}

/// True when the loop body carries a value from one iteration to the next through a variable
/// declared outside it (`h = cell(x[t], h)`, `state = state * a + x[t]`): a recurrence, which
/// runs step by step however it is written.
bool carriesState(const Stmt *Body, const Stmt *S) {
  if (!S)
    return false;
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    LHS = OC->getArg(0);
    RHS = OC->getArg(1);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign) {
    LHS = BO->getLHS();
    RHS = BO->getRHS();
  }
  if (LHS)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (isTensorType(VD->getType()) && !(Body->getSourceRange().fullyContains(VD->getSourceRange())) &&
            refersTo(RHS, VD))
          return true;
  for (const Stmt *C : S->children())
    if (carriesState(Body, C))
      return true;
  return false;
}

/// True when S reads the size of the loop's element of a container of tensors
/// (`tensors[i].size(2)`, `imgs.at(i).sizes()`): each iteration works on a tensor of its own shape
/// (a padded batch filled from images of different sizes), which no expression over one dimension
/// replaces.
bool usesRaggedElementSize(const Stmt *S, const VarDecl *Var) {
  if (!S)
    return false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && MD->getDeclName().isIdentifier() && llvm::is_contained({"size", "sizes"}, MD->getName()) &&
        isTensorType(MC->getImplicitObjectArgument()->getType())) {
      const Expr *Obj = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
      const Expr *Container = nullptr, *Index = nullptr;
      if (elementAccess(Obj, Container, Index) && !isTensorType(Container->getType()) && isBareUse(Index, Var))
        return true;
    }
  for (const Stmt *C : S->children())
    if (usesRaggedElementSize(C, Var))
      return true;
  return false;
}

/// True when the body runs a module's forward() or calls a function of the user's (which may do
/// anything with the row): per-sample model calls and helpers are left alone.
/// `t[i].item<int>()`, `t.select(0, i).item()`: the element is read to the host. torch-sync-item
/// reports such a loop once per element read, with the fix for both (one host copy of the whole
/// tensor, then an accessor: no indexing dispatched either), so the indexing is its finding.
bool readToHost(const Expr *E, const HotCodeAnalysis &HC) {
  const Stmt *P = HC.parentOf(E);
  while (P && isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr>(P))
    P = HC.parentOf(P);
  const auto *ME = dyn_cast_or_null<MemberExpr>(P);
  const auto *MD = ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
  return MD && MD->getDeclName().isIdentifier() && MD->getName() == "item" && isTensorType(ME->getBase()->getType());
}

/// A class of the user's code (not libtorch's, the standard library's or a system header's).
bool isUserClass(QualType T, const SourceManager &SM) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && !isTorchDecl(RD) && !RD->isInStdNamespace() && !SM.isInSystemHeader(RD->getLocation()) &&
         !isTensorType(T);
}

bool callsModelOrUserCode(const Stmt *S, const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (moduleOfForwardCall(C))
      return true;
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      if (!isTorchDecl(FD) && !FD->isInStdNamespace() && !SM.isInSystemHeader(FD->getLocation()) &&
          !isa<CXXConversionDecl>(FD))
        return true;
      // Rows handed to objects of the user's (`std::make_shared<Node>(states.index({i}), ...)`, one
      // tree node per row): each goes its own way, nothing to vectorise.
      if (FD->isInStdNamespace() && FD->getDeclName().isIdentifier() &&
          (FD->getName() == "make_shared" || FD->getName() == "make_unique"))
        if (const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs();
            TA && TA->size() >= 1 && (*TA)[0].getKind() == TemplateArgument::Type && isUserClass((*TA)[0].getAsType(), SM))
          return true;
    }
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S); CE && CE->getNumArgs() > 0 && CE->getConstructor() &&
                                                      !CE->getConstructor()->isCopyOrMoveConstructor() &&
                                                      isUserClass(CE->getType(), SM))
    return true;
  if (isa<LambdaExpr>(S))
    return true;
  for (const Stmt *C : S->children())
    if (callsModelOrUserCode(C, SM))
      return true;
  return false;
}

/// Every tensor indexing in S (lambdas excluded), in source order.
void collectIndexing(const Stmt *S, std::vector<std::pair<const Expr *, std::vector<const Expr *>>> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Tensor = nullptr;
    std::vector<const Expr *> Args = indexArgs(E, Tensor);
    if (!Args.empty())
      Out.push_back({E, Args});
  }
  for (const Stmt *C : S->children())
    collectIndexing(C, Out);
}
} // namespace

void IndexInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(forStmt(hasLoopInit(declStmt())).bind("loop"), this);
  // `for (int64_t k : ids) t[k] = ...;`, `for (const auto &r : results) t[r.env] = r.reward;`
  Finder->addMatcher(cxxForRangeStmt().bind("loop"), this);
}

const std::optional<IndexInLoopCheck::Finding> &IndexInLoopCheck::qualifies(const Stmt *Loop, ASTContext &Ctx) {
  if (CacheCtx != &Ctx) {
    Cache.clear();
    CacheCtx = &Ctx;
  }
  auto It = Cache.find(Loop);
  if (It != Cache.end())
    return It->second;
  std::optional<Finding> &Result = Cache[Loop];
  const VarDecl *Var = nullptr;
  const Expr *Bound = nullptr;
  const Stmt *Body = nullptr;
  bool OverRange = false;
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    if (!Init || !For->getBody())
      return Result;
    // The induction variable: the integer variable of the init that the condition compares.
    for (const Decl *D : Init->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getType()->isIntegerType())
        if (const Expr *B = boundOf(For->getCond(), VD)) {
          Var = VD;
          Bound = B;
        }
    if (!Var || Bound->isValueDependent())
      return Result;
    // A small constant trip count (`i < 3`) is left alone.
    if (std::optional<llvm::APSInt> N = Bound->getIntegerConstantExpr(Ctx); N && N->getExtValue() < SmallTripCount)
      return Result;
    Body = For->getBody();
  } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    // The element is an index (an integer), or a record whose integer fields index.
    Var = RF->getLoopVariable();
    QualType T = Var ? Var->getType().getNonReferenceType() : QualType();
    if (!Var || !RF->getBody() || !RF->getRangeInit() || T.isNull() || T->isDependentType() ||
        !(T->isIntegralOrEnumerationType() || (T->isRecordType() && !isTensorType(T))))
      return Result;
    Bound = RF->getRangeInit();
    if (Bound->isValueDependent() || Bound->isTypeDependent())
      return Result;
    if (std::optional<uint64_t> N = constantRangeSize(Bound, Ctx); N && *N < uint64_t(SmallTripCount))
      return Result;
    Body = RF->getBody();
    OverRange = true;
  } else {
    return Result;
  }
  std::vector<std::pair<const Expr *, std::vector<const Expr *>>> Indexing;
  collectIndexing(Body, Indexing);
  const Expr *First = nullptr, *FirstTensor = nullptr;
  std::vector<const Expr *> Indexed;
  for (const auto &[E, Args] : Indexing) {
    const Expr *Tensor = nullptr;
    indexArgs(E, Tensor);
    bool Bare = false;
    for (const Expr *A : Args) {
      if (isBareUse(A, Var))
        Bare = true;
      else if (refersTo(A, Var))
        return Result; // `t[i - 1]`, `t[idx[i]]`: a recurrence or a gather, left alone
    }
    if (!Bare || deviceOf(Tensor, Ctx) == DeviceKind::CPU || readToHost(E, HotCodeAnalysis::get(Ctx)))
      continue;
    // `t[i][j]`: the outer indexing is the one reported.
    if (First && First->getSourceRange().fullyContains(E->getSourceRange()))
      continue;
    Indexed.push_back(Tensor);
    if (!First) {
      First = E;
      FirstTensor = Tensor;
    }
  }
  if (!First || carriesState(Body, Body) || callsModelOrUserCode(Body, Ctx.getSourceManager()) ||
      usesRaggedElementSize(Body, Var))
    return Result;
  Finding F;
  F.Index = First;
  F.Tensor = FirstTensor;
  F.Bound = writtenText(Bound, Ctx);
  F.TensorDim = !OverRange && isTensorDimension(Bound);
  F.OverRange = OverRange;
  F.Indexed = std::move(Indexed);
  Result = F;
  return Result;
}

void IndexInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation ForLoc = isa<ForStmt>(Loop) ? cast<ForStmt>(Loop)->getForLoc() : cast<CXXForRangeStmt>(Loop)->getForLoc();
  if (!inUserCode(ForLoc, SM) || ForLoc.isMacroID())
    return;
  const std::optional<Finding> F = qualifies(Loop, Ctx);
  if (!F)
    return;
  // Nested loops (`t[i][j]`): one finding, at the outermost loop that qualifies.
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  for (const Stmt *P = HC.parentOf(Loop); P; P = HC.parentOf(P)) {
    const Stmt *OuterBody = isa<ForStmt>(P)           ? cast<ForStmt>(P)->getBody()
                            : isa<CXXForRangeStmt>(P) ? cast<CXXForRangeStmt>(P)->getBody()
                                                      : nullptr;
    if (OuterBody && OuterBody->getSourceRange().fullyContains(Loop->getSourceRange()) && qualifies(P, Ctx))
      return;
  }
  // The loop must itself run on every step: a per-row loop in set-up code costs its launches once.
  auto Hot = hotContext(Loop, Ctx);
  if (!Hot)
    return;
  // Host tensors that only the project can place (fields, parameters, other files' functions):
  // the project model drops the finding when every tensor indexed is on the host.
  HostAssumptions If;
  If.AcrossFiles = projectMode();
  if (llvm::all_of(F->Indexed, [&](const Expr *T) { return deviceIfHost(T, Ctx, If) == DeviceKind::CPU; }) &&
      hostConfirmedHere(std::move(If), *Hot, Ctx))
    return;
  std::string Tensor = writtenText(F->Tensor, Ctx);
  // `t[i]` as written; a method call as `t.index_put_(...)`.
  std::string Access = writtenText(F->Index, Ctx);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(F->Index))
    Access = Tensor + "." + MC->getMethodDecl()->getNameAsString() + "(...)";
  if (Tensor.empty() || Access.empty())
    return;
  unsigned Line = SM.getSpellingLineNumber(ForLoc);
  std::string Over = F->Bound.empty()  ? ""
                     : F->OverRange ? " over the elements of " + F->Bound
                                    : (F->TensorDim ? " over " : " to ") + F->Bound;
  report(F->Index->getBeginLoc(),
         "`" + Access + "` indexes one row or element of " + Tensor + " per iteration of the loop at line " +
             std::to_string(Line) + Over +
             ": each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one "
             "expression on the whole dimension runs one kernel; vectorise it (slices with "
             "torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the "
             "dimension, broadcasting)",
         Hot);
}

} // namespace torchlint
