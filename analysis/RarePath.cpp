#include "analysis/RarePath.h"
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "utils/SourceText.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchlint {

namespace {

/// `a % N == 0` (either side), possibly as one operand of `&&`.
const BinaryOperator *moduloTest(const Expr *Cond) {
  if (!Cond)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const BinaryOperator *L = moduloTest(BO->getLHS()))
      return L;
    return moduloTest(BO->getRHS());
  }
  if (BO->getOpcode() != BO_EQ)
    return nullptr;
  auto IsRem = [](const Expr *E) {
    const auto *R = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    return R && R->getOpcode() == BO_Rem;
  };
  auto IsConst = [](const Expr *E) { return isa<IntegerLiteral>(E->IgnoreParenImpCasts()); };
  if ((IsRem(BO->getLHS()) && IsConst(BO->getRHS())) || (IsRem(BO->getRHS()) && IsConst(BO->getLHS())))
    return BO;
  return nullptr;
}

const IntegerLiteral *integerLiteral(const Expr *E) { return dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts()); }

/// The member or static/global variable a lazy-initialisation test names: `!graph_`,
/// `graph_ == nullptr`, `!buffer_.defined()`, `!initialized_` (a member, a static local or a
/// global: what survives the call), or null.
const ValueDecl *lazyTestedVariable(const Expr *Cond) {
  if (!Cond)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  const Expr *Operand = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    Operand = UO->getSubExpr();
  else if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->getOpcode() == BO_EQ) {
    if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(BO->getRHS()->IgnoreParenImpCasts()))
      Operand = BO->getLHS();
    else if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      Operand = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cond); Op && Op->getOperator() == OO_Exclaim)
    Operand = Op->getArg(0);
  if (!Operand)
    return nullptr;
  Operand = Operand->IgnoreParenImpCasts();
  // `!ptr` on a smart pointer is operator bool (a member call); `!t.defined()` a member call too.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Operand)) {
    const auto *MD = MC->getMethodDecl();
    if (!MD || !(isa<CXXConversionDecl>(MD) || (MD->getDeclName().isIdentifier() && MD->getName() == "defined")))
      return nullptr;
    Operand = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Operand))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Operand))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && (VD->isStaticLocal() || VD->hasGlobalStorage()))
      return VD;
  return nullptr;
}

/// True when S (a branch), or a method of the same class or a function it calls directly (one
/// level), assigns D: `graph_ = ...`, `graph_.reset(...)`, `initialized_ = true`.
bool assignsVariable(const Stmt *S, const ValueDecl *D, unsigned Depth = 0) {
  if (!S)
    return false;
  auto Names = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl() == D;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl() == D;
    return false;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS()))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal && Names(Op->getArg(0)))
    return true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() && (MD->getName() == "reset" || MD->getName() == "emplace") &&
        Names(MC->getImplicitObjectArgument()))
      return true;
  }
  if (const auto *C = dyn_cast<CallExpr>(S); C && Depth == 0)
    if (const FunctionDecl *Callee = C->getDirectCallee(); Callee && Callee->hasBody())
      if (assignsVariable(Callee->getBody(), D, Depth + 1))
        return true;
  for (const Stmt *Ch : S->children())
    if (assignsVariable(Ch, D, Depth))
      return true;
  return false;
}

const VarDecl *variableOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Test (`i % N == c`) is true at most once per run of the loop around At that counts i from 0
/// to below K <= N (`for (int i = 0; i < 5; ++i) if (i % 5 == 0)`): it only picks one iteration
/// of that loop, not one step in N.
bool oncePerLoopRun(const BinaryOperator *Test, const Stmt *At, const HotCodeAnalysis &HC) {
  const auto *Rem = dyn_cast<BinaryOperator>(Test->getLHS()->IgnoreParenImpCasts());
  if (!Rem || Rem->getOpcode() != BO_Rem)
    Rem = dyn_cast<BinaryOperator>(Test->getRHS()->IgnoreParenImpCasts());
  const IntegerLiteral *N = Rem ? integerLiteral(Rem->getRHS()) : nullptr;
  const VarDecl *I = Rem ? variableOf(Rem->getLHS()) : nullptr;
  if (!N || !I)
    return false;
  const auto *For = dyn_cast_or_null<ForStmt>(HC.enclosingLoop(At));
  if (!For || !For->getInit() || !For->getCond())
    return false;
  // The counter starts at 0: `int i = 0` or `i = 0`.
  bool FromZero = false;
  if (const auto *DS = dyn_cast<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == I && I->getInit())
      if (const IntegerLiteral *Z = integerLiteral(I->getInit()))
        FromZero = Z->getValue() == 0;
  } else if (const auto *A = dyn_cast<BinaryOperator>(For->getInit())) {
    if (A->getOpcode() == BO_Assign && variableOf(A->getLHS()) == I)
      if (const IntegerLiteral *Z = integerLiteral(A->getRHS()))
        FromZero = Z->getValue() == 0;
  }
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!FromZero || !Cond || variableOf(Cond->getLHS()) != I)
    return false;
  const IntegerLiteral *K = integerLiteral(Cond->getRHS());
  if (!K)
    return false;
  uint64_t Trips = K->getValue().getLimitedValue();
  if (Cond->getOpcode() == BO_LE)
    ++Trips;
  else if (Cond->getOpcode() != BO_LT)
    return false;
  return Trips <= N->getValue().getLimitedValue();
}


/// True when S names D (a DeclRefExpr to it), anywhere inside.
bool mentions(const Stmt *S, const ValueDecl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  for (const Stmt *C : S->children())
    if (mentions(C, D))
      return true;
  return false;
}

/// True when S steps V: `++v`, `v++`, `--v`, `v += n`, `v -= n` anywhere inside.
bool steps(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp() && variableOf(UO->getSubExpr()) == V)
    return true;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
      CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) && variableOf(CA->getLHS()) == V)
    return true;
  for (const Stmt *C : S->children())
    if (steps(C, V))
      return true;
  return false;
}

/// True when S writes V other than by stepping it: an assignment, or its address or a non-const
/// reference taken (passed to a function that may write it).
bool assignsOrEscapes(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign && variableOf(BO->getLHS()) == V)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf && variableOf(UO->getSubExpr()) == V)
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee())
      for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I) {
        QualType T = F->getParamDecl(I)->getType();
        if (!T->isReferenceType() || T.getNonReferenceType().isConstQualified() || variableOf(C->getArg(I)) != V)
          continue;
        // A forwarding reference (`std::format("{}", iter)`, a logging macro's Args&&...) passes
        // the value on; it is not a write.
        if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern(); Pattern && Pattern->getNumParams()) {
          const ParmVarDecl *PP = Pattern->getParamDecl(std::min(I, Pattern->getNumParams() - 1));
          QualType PT = PP->getType();
          if (const auto *PE = PT->getAs<PackExpansionType>())
            PT = PE->getPattern();
          else if (I >= Pattern->getNumParams() - 1 && I != Pattern->getNumParams() - 1)
            PT = QualType();
          if (!PT.isNull())
            if (const auto *RR = PT->getAs<RValueReferenceType>(); RR && RR->getPointeeType()->getAs<TemplateTypeParmType>())
              continue;
        }
        return true;
      }
  for (const Stmt *C : S->children())
    if (assignsOrEscapes(C, V))
      return true;
  return false;
}

/// An integer that counts: integral, not bool, not an enumeration.
bool isCountType(QualType T) {
  T = T.getNonReferenceType();
  return T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType();
}

/// The loop that counts the steps E names, seen from At: E is a variable that a loop around At
/// steps (`++iter` in its body or increment), the innermost loop around At, declares outside
/// itself (or in its for-init), with no loop around that loop but epoch loops and in a function that no loop calls on every step (the counter of
/// a per-layer loop inside the step is not a step counter); or a parameter that every call of its
/// function in this TU passes such a counter (followed through up to four calls). Null otherwise.
const Stmt *stepCounterLoop(const Expr *E, const Stmt *At, const HotCodeAnalysis &HC, unsigned Depth = 0) {
  const VarDecl *V = E ? variableOf(E) : nullptr;
  if (!V || Depth > 4 || !isCountType(V->getType()) || V->getType()->isReferenceType())
    return nullptr;
  const FunctionDecl *FD = HC.enclosingFunction(At);
  if (!FD || !FD->hasBody())
    return nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (P->getDeclContext() != FD || HC.referencedOtherThanCalled(FD) || steps(FD->getBody(), P) ||
        assignsOrEscapes(FD->getBody(), P))
      return nullptr;
    unsigned Index = P->getFunctionScopeIndex();
    std::vector<const Expr *> Calls = HC.callsOf(FD);
    const Stmt *Found = nullptr;
    for (const Expr *Call : Calls) {
      const auto *C = dyn_cast<CallExpr>(Call);
      if (!C || isa<CXXOperatorCallExpr>(C) || Index >= C->getNumArgs())
        return nullptr;
      const Stmt *L = stepCounterLoop(C->getArg(Index), C, HC, Depth + 1);
      if (!L)
        return nullptr;
      Found = L;
    }
    return Found;
  }
  if (!V->isLocalVarDecl() || V->isStaticLocal() || HC.whyHot(FD) || assignsOrEscapes(FD->getBody(), V))
    return nullptr;
  // The innermost loop around At counts: it steps V, declared outside it or in its for-init.
  const Stmt *Counting = nullptr;
  for (const Stmt *P = HC.parentOf(At); P; P = HC.parentOf(P)) {
    if (!isLoopStatement(P))
      continue;
    if (Counting) { // a loop around the counting loop: only an epoch loop may be there
      if (!HC.isEpochLoop(P))
        return nullptr;
      continue;
    }
    SourceRange R = P->getSourceRange();
    bool DeclaredInside = !(V->getLocation() < R.getBegin()) && !(R.getEnd() < V->getLocation());
    bool ForInit = false;
    if (const auto *For = dyn_cast<ForStmt>(P))
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
        ForInit = llvm::is_contained(DS->decls(), V);
    if ((DeclaredInside && !ForInit) || !steps(P, V) || isBoundedLoop(P))
      return nullptr;
    Counting = P;
  }
  return Counting;
}

/// `{ return p == e; }` (either side): the parameter p (of a counting type, not named in e) that
/// F's body compares for equality, or null.
const ParmVarDecl *equalityOfParameter(const FunctionDecl *F) {
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  const auto *BO = Ret && Ret->getRetValue() ? dyn_cast<BinaryOperator>(Ret->getRetValue()->IgnoreParenImpCasts()) : nullptr;
  if (!BO || BO->getOpcode() != BO_EQ)
    return nullptr;
  for (auto [Side, Other] : {std::pair{BO->getLHS(), BO->getRHS()}, std::pair{BO->getRHS(), BO->getLHS()}}) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Side->IgnoreParenImpCasts());
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (P && isCountType(P->getType()) && !mentions(Other, P))
      return P;
  }
  return nullptr;
}

/// A test in Cond's `&&` chain that is true on one iteration of a step loop only: `iter == k`
/// with iter a step counter (stepCounterLoop) and k not naming it, or a call passing such a
/// counter to a function (every override of a virtual one defined here) that returns
/// `p == k`. Returns the text to show, and the counting loop.
std::optional<std::pair<std::string, const Stmt *>> oncePerRunTest(const Expr *Cond, const Stmt *At, ASTContext &Ctx) {
  if (!Cond)
    return std::nullopt;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->getOpcode() == BO_LAnd) {
    if (auto L = oncePerRunTest(BO->getLHS(), At, Ctx))
      return L;
    return oncePerRunTest(BO->getRHS(), At, Ctx);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond); BO && BO->getOpcode() == BO_EQ) {
    for (auto [Side, Other] : {std::pair{BO->getLHS(), BO->getRHS()}, std::pair{BO->getRHS(), BO->getLHS()}}) {
      const VarDecl *V = variableOf(Side);
      if (!V || mentions(Other, V))
        continue;
      if (const Stmt *L = stepCounterLoop(Side, At, HC))
        return std::pair{"`" + sourceText(BO, Ctx) + "`", L};
    }
    return std::nullopt;
  }
  const auto *C = dyn_cast<CallExpr>(Cond);
  const FunctionDecl *Callee = C ? C->getDirectCallee() : nullptr;
  if (!Callee || isa<CXXOperatorCallExpr>(C))
    return std::nullopt;
  std::vector<const FunctionDecl *> Bodies;
  if (isVirtualDispatch(C)) {
    for (const CXXMethodDecl *O : HC.overridersOf(cast<CXXMethodDecl>(Callee)))
      Bodies.push_back(O);
    if (const FunctionDecl *Def = Callee->getDefinition(); Def && !cast<CXXMethodDecl>(Callee)->isPureVirtual())
      Bodies.push_back(Def);
  } else if (const FunctionDecl *Def = Callee->getDefinition()) {
    Bodies.push_back(Def);
  }
  if (Bodies.empty())
    return std::nullopt;
  std::optional<unsigned> Index;
  std::string Shown;
  for (const FunctionDecl *F : Bodies) {
    const ParmVarDecl *P = equalityOfParameter(F);
    if (!P || (Index && *Index != P->getFunctionScopeIndex()))
      return std::nullopt;
    Index = P->getFunctionScopeIndex();
    if (Shown.empty()) {
      const auto *Ret = cast<ReturnStmt>(cast<CompoundStmt>(F->getBody())->body_front());
      Shown = sourceText(Ret->getRetValue(), Ctx);
    }
  }
  if (*Index >= C->getNumArgs())
    return std::nullopt;
  const Stmt *L = stepCounterLoop(C->getArg(*Index), At, HC);
  if (!L)
    return std::nullopt;
  return std::pair{"`" + sourceText(C, Ctx) + "` (true when " + Shown + ")", L};
}

} // namespace

bool insideAssert(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = S->getBeginLoc();
  while (Loc.isMacroID()) {
    llvm::StringRef Name = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (Name == "assert")
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

static std::optional<RarePath> rarePath(const Stmt *S, ASTContext &Ctx, unsigned Depth, bool ThroughCalls = true);

/// S is in a function's body outside any loop of it: rare when every hot call of the function in
/// the TU is (a helper called only from a logging branch, `if (step % 500 == 0) sample(model);`,
/// and perhaps once per epoch); once per logging interval when every such call is.
static std::optional<RarePath> rareThroughCalls(const Stmt *S, ASTContext &Ctx, unsigned Depth) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *FD = HC.enclosingFunction(S);
  if (!FD || Depth >= 3 || HC.referencedOtherThanCalled(FD))
    return std::nullopt;
  std::vector<const Expr *> Calls = HC.callsOf(FD);
  if (Calls.empty())
    return std::nullopt;
  std::optional<RarePath> First;
  bool Once = true;
  for (const Expr *Call : Calls) {
    if (!HC.whyHot(Call))
      continue; // a call in set-up or once per epoch makes nothing hot
    std::optional<RarePath> R = rarePath(Call, Ctx, Depth + 1);
    if (!R)
      return std::nullopt;
    Once = Once && R->OncePerInterval;
    if (!First)
      First = R;
  }
  if (!First)
    return std::nullopt;
  std::string Reason = First->Reason;
  if (llvm::StringRef(Reason).starts_with("it "))
    Reason = Reason.substr(3);
  return RarePath{"every call of " + HC.describe(FD) + " " + Reason, Once};
}

std::optional<RarePath> rarePath(const Stmt *S, ASTContext &Ctx) { return rarePath(S, Ctx, 0); }

std::optional<std::string> rarePathReason(const Stmt *S, ASTContext &Ctx) {
  if (std::optional<RarePath> R = rarePath(S, Ctx))
    return R->Reason;
  return std::nullopt;
}

std::optional<RarePath> localRarePath(const Stmt *S, ASTContext &Ctx) {
  return rarePath(S, Ctx, 0, /*ThroughCalls=*/false);
}

static std::optional<RarePath> rarePath(const Stmt *S, ASTContext &Ctx, unsigned Depth, bool ThroughCalls) {
  if (insideAssert(S, Ctx))
    return RarePath{"it is inside assert(), which NDEBUG (release) builds compile out", false};
  const SourceManager &SM = Ctx.getSourceManager();
  // The hot-code analysis' parent map of user code (a function body's parent is null; a
  // variable's initializer has its DeclStmt as parent).
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = S;
  while (true) {
    const Stmt *P = HC.parentOf(Prev);
    if (!P)
      return ThroughCalls ? rareThroughCalls(S, Ctx, Depth) : std::nullopt;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      if (BO->getOpcode() == BO_LAnd && Prev == BO->getRHS())
        if (const BinaryOperator *Test = moduloTest(BO->getLHS()); Test && !oncePerLoopRun(Test, P, HC)) {
          std::string Text = sourceText(Test, Ctx);
          return RarePath{"it only runs when `" + Text + "` (short-circuit `&&`)", true};
        }
    if (isLoopStatement(P) || isa<LambdaExpr>(P))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Prev == If->getThen())
        if (const BinaryOperator *Test = moduloTest(If->getCond()); Test && !oncePerLoopRun(Test, If, HC)) {
          std::string Text = sourceText(Test, Ctx);
          unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(If->getBeginLoc()));
          return RarePath{"it only runs in the logging branch `if (" + Text + ")` at line " + std::to_string(Line),
                          true};
        }
      // A once-per-run branch: `if (iter == warmup_steps)`, `if (opt.should_prune(iter))` with
      // should_prune returning `iter == k`, iter counting the step loop's iterations.
      if (Prev == If->getThen())
        if (auto Once = oncePerRunTest(If->getCond(), If, Ctx)) {
          unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(If->getBeginLoc()));
          return RarePath{"it only runs when " + Once->first + " at line " + std::to_string(Line) +
                              ", on one iteration of the loop at " +
                              HC.placeFrom(Once->second->getBeginLoc(), If->getBeginLoc()),
                          true};
        }
      // A lazy initialisation: `if (!graph_) { graph_ = ...; }` runs once, on the first call.
      if (Prev == If->getThen() && !If->getElse())
        if (const ValueDecl *D = lazyTestedVariable(If->getCond()); D && assignsVariable(If->getThen(), D)) {
          unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(If->getBeginLoc()));
          return RarePath{"it only runs once, in the lazy initialisation `if (" + sourceText(If->getCond(), Ctx) +
                              ")` at line " + std::to_string(Line),
                          true};
        }
    }
    Prev = P;
  }
}


namespace {
/// The constant truth value of E: a compile-time constant, or a local (or const variable) of
/// integral type whose only value is one; -1 when unknown. `&&`, `||` and `!` are folded.
int constantTruth(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 8 || E->isValueDependent() || E->isTypeDependent())
    return -1;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
    int V = constantTruth(UO->getSubExpr(), Ctx, Depth + 1);
    return V < 0 ? -1 : !V;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    int L = constantTruth(BO->getLHS(), Ctx, Depth + 1), R = constantTruth(BO->getRHS(), Ctx, Depth + 1);
    if (BO->getOpcode() == BO_LAnd)
      return L == 0 || R == 0 ? 0 : (L == 1 && R == 1 ? 1 : -1);
    return L == 1 || R == 1 ? 1 : (L == 0 && R == 0 ? 0 : -1);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType()->isIntegralOrEnumerationType() || isa<ParmVarDecl>(VD))
      return -1;
    const Expr *Only = nullptr;
    if (VD->getType().isConstQualified() && VD->getInit()) {
      Only = VD->getInit();
    } else if (VD->isLocalVarDecl() && !VD->isStaticLocal()) {
      const VarValues &V = valuesOf(VD, Ctx);
      if (!V.Known || V.Written || V.Values.size() != 1)
        return -1;
      Only = V.Values.front();
    }
    if (!Only || Only->isValueDependent())
      return -1;
    bool B;
    return Only->EvaluateAsBooleanCondition(B, Ctx) ? int(B) : -1;
  }
  bool B;
  if (E->EvaluateAsBooleanCondition(B, Ctx))
    return int(B);
  return -1;
}
} // namespace

bool neverRuns(const Stmt *S, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = S;
  for (const Stmt *P = HC.parentOf(S); P; Prev = P, P = HC.parentOf(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || If->isConsteval() || !If->getCond())
      continue;
    if (Prev == If->getThen() && constantTruth(If->getCond(), Ctx) == 0)
      return true;
    if (Prev == If->getElse() && constantTruth(If->getCond(), Ctx) == 1)
      return true;
  }
  return false;
}

namespace {
/// The parameter `p` of F tested by E for null: `p`, `p != nullptr` / `nullptr != p` (NonNull
/// true), `!p`, `p == nullptr` (NonNull false); null otherwise.
const ParmVarDecl *pointerTest(const Expr *E, const FunctionDecl *F, bool &NonNull, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  bool Negated = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
    Negated = true;
    E = U->getSubExpr()->IgnoreParenImpCasts();
  }
  auto isNull = [&](const Expr *X) {
    return X->IgnoreParenImpCasts()->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
           Expr::NPCK_NotNull;
  };
  const Expr *Ref = E;
  bool Equal = false;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && !Negated && (B->getOpcode() == BO_NE || B->getOpcode() == BO_EQ)) {
    if (isNull(B->getRHS()))
      Ref = B->getLHS()->IgnoreParenImpCasts();
    else if (isNull(B->getLHS()))
      Ref = B->getRHS()->IgnoreParenImpCasts();
    else
      return nullptr;
    Equal = B->getOpcode() == BO_EQ;
  }
  // An optional's `has_value()` or its `explicit operator bool` (`if (batch)`).
  bool Optional = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Ref); MC && Ref == E) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && (isa<CXXConversionDecl>(MD) || (MD->getDeclName().isIdentifier() && MD->getName() == "has_value")) &&
        MC->getNumArgs() == 0 && isOptionalType(MC->getImplicitObjectArgument()->getType())) {
      Ref = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
      Optional = true;
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Ref);
  const auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!PV || !(Optional ? isOptionalType(PV->getType()) : PV->getType()->isPointerType()) ||
      !llvm::is_contained(F->parameters(), PV))
    return nullptr;
  NonNull = !(Negated || Equal);
  return PV;
}

/// The parameters that condition E, taking the value Taken, needs non-null.
void nonNullIn(const Expr *E, bool Taken, const FunctionDecl *F, ASTContext &Ctx,
               std::vector<const ParmVarDecl *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    // Both operands of a taken `&&` hold, both of a not-taken `||` fail.
    if ((Taken && B->getOpcode() == BO_LAnd) || (!Taken && B->getOpcode() == BO_LOr)) {
      nonNullIn(B->getLHS(), Taken, F, Ctx, Out);
      nonNullIn(B->getRHS(), Taken, F, Ctx, Out);
      return;
    }
  }
  bool NonNull = false;
  if (const ParmVarDecl *PV = pointerTest(E, F, NonNull, Ctx); PV && NonNull == Taken && !valuesOf(PV, Ctx).Written &&
                                                               !llvm::is_contained(Out, PV))
    Out.push_back(PV);
}
} // namespace

/// D is Name declared in namespace std or c10 (through inline namespaces: std::__1).
static bool stdOrC10Named(const NamedDecl *D, llvm::StringRef Name) {
  if (!D->getDeclName().isIdentifier() || D->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext()->getEnclosingNamespaceContext());
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getParent());
  return NS && NS->getDeclName().isIdentifier() && (NS->getName() == "std" || NS->getName() == "c10") &&
         NS->getParent()->isTranslationUnit();
}

bool isOptionalType(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && stdOrC10Named(RD, "optional");
}

bool isEmptyOptional(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens(); // casts, cleanups, temporaries
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = F->getSubExpr();
      continue;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return IL->getNumInits() == 0 && isOptionalType(IL->getType());
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1 && C->getConstructor() && C->getConstructor()->isCopyOrMoveConstructor()) {
        E = C->getArg(0); // nullopt_t taken by value
        continue;
      }
      if (!isOptionalType(C->getType()))
        return false;
      if (C->getNumArgs() == 0)
        return true; // `{}`, `std::optional<T>()`
      if (C->getNumArgs() != 1)
        return false;
      E = C->getArg(0); // optional(nullopt_t), or a copy of an empty optional
      continue;
    }
    if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      return V && stdOrC10Named(V, "nullopt");
    }
    return false;
  }
  return false;
}

std::vector<const ParmVarDecl *> nonNullGuards(const Stmt *S, ASTContext &Ctx) {
  std::vector<const ParmVarDecl *> Out;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *F = S ? HC.enclosingFunction(S) : nullptr;
  if (!F)
    return Out;
  const Stmt *Prev = S;
  for (const Stmt *P = HC.parentOf(S); P; Prev = P, P = HC.parentOf(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || If->isConsteval() || !If->getCond())
      continue;
    if (Prev == If->getThen())
      nonNullIn(If->getCond(), true, F, Ctx, Out);
    else if (Prev == If->getElse())
      nonNullIn(If->getCond(), false, F, Ctx, Out);
  }
  return Out;
}

} // namespace torchlint
