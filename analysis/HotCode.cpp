#include "analysis/HotCode.h"
#include "analysis/RarePath.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TorchTypes.h"
#include "core/PerTU.h"
#include "core/Recovery.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "analysis/LoopTraversal.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>
#include <deque>
#include <memory>

using namespace clang;

namespace torchlint {

bool isLoopStatement(const Stmt *S) {
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    // `do { ... } while (0)`, the statement wrapper of macros (AT_ASSERT, TORCH_CHECK, ...): once.
    const Expr *C = D->getCond() ? D->getCond()->IgnoreParenImpCasts() : nullptr;
    if (const auto *I = dyn_cast_or_null<IntegerLiteral>(C))
      return I->getValue() != 0;
    if (const auto *B = dyn_cast_or_null<CXXBoolLiteralExpr>(C))
      return B->getValue();
    return true;
  }
  return isa<ForStmt, WhileStmt, CXXForRangeStmt>(S);
}

namespace {

/// True when Child (a direct child of Loop) runs on every iteration.
bool childRunsEachIteration(const Stmt *Loop, const Stmt *Child) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return Child != F->getInit();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == R->getBody() || Child == R->getLoopVarStmt() || Child == R->getInc() || Child == R->getCond();
  return true;
}

const FunctionDecl *canon(const FunctionDecl *FD) { return FD ? FD->getCanonicalDecl() : nullptr; }

bool derivesFromGtestTest(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || Depth > 8)
    return false;
  if (RD->getQualifiedNameAsString() == "testing::Test")
    return true;
  if (!(RD = RD->getDefinition()))
    return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (derivesFromGtestTest(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

/// A name that a test framework's macro generates for the test function or its class.
bool isGeneratedTestName(llvm::StringRef N) {
  return N.starts_with("____C_A_T_C_H____T_E_S_T____") || N.starts_with("CATCH2_INTERNAL_TEST_") ||
         N.starts_with("DOCTEST_ANON_FUNC_") || N.starts_with("_DOCTEST_ANON_FUNC_");
}

/// FD's name comes from a test framework's macro (TEST(Suite, Name) { ... }).
bool declaredByTestMacro(const FunctionDecl *FD) {
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  const LangOptions &LO = FD->getASTContext().getLangOpts();
  SourceLocation L = FD->getLocation();
  for (unsigned I = 0; I < 16 && L.isMacroID(); ++I, L = SM.getImmediateMacroCallerLoc(L))
    if (llvm::is_contained({"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "GTEST_TEST", "TEST_CASE",
                            "TEST_CASE_METHOD", "SCENARIO", "TEMPLATE_TEST_CASE", "BOOST_AUTO_TEST_CASE",
                            "BOOST_FIXTURE_TEST_CASE", "BOOST_DATA_TEST_CASE"},
                           Lexer::getImmediateMacroName(L, SM, LO)))
      return true;
  return false;
}

/// Collects call sites of user code (system headers are skipped) with their enclosing loop.
class CallCollector : public LoopTraversal<CallCollector> {
public:
  CallCollector(ASTContext &Ctx, llvm::DenseMap<const FunctionDecl *, std::vector<HotCodeAnalysis::CallSite>> &Out,
                std::vector<const FunctionDecl *> &Forwards, llvm::DenseMap<const Stmt *, const Stmt *> &Parents,
                llvm::DenseMap<const Stmt *, const FunctionDecl *> &BodyOf,
                llvm::DenseSet<const FunctionDecl *> &TestBodies, llvm::DenseSet<const FunctionDecl *> &Referenced)
      : Ctx(Ctx), Out(Out), Forwards(Forwards), Parents(Parents), BodyOf(BodyOf), TestBodies(TestBodies),
        Referenced(Referenced) {}

  // Records each statement's parent (no data recursion, so every child comes through here).
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    if (!S)
      return true;
    if (!StmtStack.empty())
      Parents.try_emplace(S, StmtStack.back());
    StmtStack.push_back(S);
    bool R = RecursiveASTVisitor::TraverseStmt(S, nullptr);
    StmtStack.pop_back();
    return R;
  }

  /// Calls of backward() / an optimizer's step(), with the loops around them.
  std::vector<HotCodeAnalysis::CallSite> StepCalls;
  /// Every loop with the loops around it (outermost first) and its function.
  std::vector<std::pair<const Stmt *, HotCodeAnalysis::CallSite>> Loops;
  /// Range-for loops over a torch::data data loader.
  llvm::DenseSet<const Stmt *> LoaderLoops;
  /// Methods of user code that override another (defined here, with a body).
  std::vector<const CXXMethodDecl *> Overriders;
  /// Calls of a virtual method dispatched through the object (no qualified name).
  llvm::DenseSet<const Expr *> VirtualCalls;

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && isLibraryLocation(Ctx.getSourceManager(), D->getLocation()))
      return true;
    if (auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody()) {
        if (isModuleForward(FD))
          Forwards.push_back(canon(FD));
        if (const Stmt *Body = FD->getBody())
          BodyOf.try_emplace(Body, FD);
        if (isTestBody(FD))
          TestBodies.insert(canon(FD));
        if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->size_overridden_methods() > 0)
          Overriders.push_back(MD);
        Frames.push_back({canon(FD), {}});
        std::vector<const Stmt *> Saved;
        Saved.swap(StmtStack); // a function body starts a new statement tree
        bool R = RecursiveASTVisitor::TraverseDecl(D);
        StmtStack.swap(Saved);
        Frames.pop_back();
        return R;
      }
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool TraverseLambdaExpr(LambdaExpr *L, DataRecursionQueue * = nullptr) {
    // The body belongs to operator(); it also inherits the loops it is written in (a lambda
    // written in a loop body usually runs there).
    const FunctionDecl *Op = canon(L->getCallOperator());
    std::vector<const Stmt *> Loops = Frames.empty() ? std::vector<const Stmt *>{} : Frames.back().Loops;
    Frames.push_back({Op, Loops});
    bool R = TraverseStmt(L->getBody());
    Frames.pop_back();
    return R;
  }

  // Loops: analysis/LoopTraversal.h; a range-for over a torch::data DataLoader is a loader loop.
  void beforeRangeFor(const CXXForRangeStmt *S) {
    if (const Expr *R = S->getRangeInit())
      if (const CXXRecordDecl *RD = R->getType().getNonReferenceType()->getAsCXXRecordDecl()) {
        std::string N = RD->getQualifiedNameAsString();
        if (llvm::StringRef(N).starts_with("torch::data::") && llvm::StringRef(N).contains("DataLoader"))
          LoaderLoops.insert(S);
      }
  }

  // A function named other than as a callee (its address taken, a callback): HotCodeAnalysis::
  // referencedOtherThanCalled.
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    const auto *F = dyn_cast<FunctionDecl>(R->getDecl());
    if (!F)
      return true;
    const Stmt *P = Parents.lookup(R);
    while (isa_and_nonnull<ImplicitCastExpr, ParenExpr>(P))
      P = Parents.lookup(P);
    if (const auto *C = dyn_cast_or_null<CallExpr>(P))
      if (C->getCallee()->IgnoreParenImpCasts() == R)
        return true;
    Referenced.insert(canon(F));
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Frames.empty())
      return true;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    if (isTrainingStepCall(Callee))
      StepCalls.push_back({Frames.back().FD, C, Frames.back().Loops});
    record(Callee, C);
    // `MyFn::apply(x)`: libtorch runs MyFn::forward() now and MyFn::backward() in this step's
    // backward pass.
    for (const CXXMethodDecl *M : autogradFunctionMethodsBehind(C))
      record(M, C);
    // `agent->step(obs)` through a base may run any override.
    if (isVirtualDispatch(C))
      VirtualCalls.insert(C);
    return true;
  }

  static bool isTrainingStepCall(const FunctionDecl *F) {
    if (!F->getDeclName().isIdentifier() || !isTorchDecl(F))
      return false;
    llvm::StringRef N = F->getName();
    if (N == "backward")
      return true;
    if (N == "step")
      if (const auto *M = dyn_cast<CXXMethodDecl>(F))
        return llvm::StringRef(M->getParent()->getQualifiedNameAsString()).starts_with("torch::optim::");
    return false;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (!Frames.empty() && C->getConstructor())
      record(C->getConstructor(), C);
    return true;
  }

private:
  friend class LoopTraversal<CallCollector>; // calls withLoop
  struct Frame {
    const FunctionDecl *FD;
    std::vector<const Stmt *> Loops;
  };

  template <typename F> bool withLoop(const Stmt *Loop, F Body) {
    if (Frames.empty())
      return Body();
    Loops.push_back({Loop, {Frames.back().FD, nullptr, Frames.back().Loops}});
    Frames.back().Loops.push_back(Loop);
    bool R = Body();
    Frames.back().Loops.pop_back();
    return R;
  }

  void record(const FunctionDecl *Callee, const Expr *Call) {
    if (isLibraryLocation(Ctx.getSourceManager(), Callee->getLocation()))
      return;
    const Frame &F = Frames.back();
    HotCodeAnalysis::CallSite Site{F.FD, Call, F.Loops};
    Out[canon(Callee)].push_back(Site);
    // Calls to a template specialization also make the template's pattern hot.
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
      Out[canon(Pattern)].push_back(Site);
  }

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::vector<HotCodeAnalysis::CallSite>> &Out;
  std::vector<const FunctionDecl *> &Forwards;
  llvm::DenseMap<const Stmt *, const Stmt *> &Parents;
  llvm::DenseMap<const Stmt *, const FunctionDecl *> &BodyOf;
  llvm::DenseSet<const FunctionDecl *> &TestBodies;
  llvm::DenseSet<const FunctionDecl *> &Referenced;
  std::vector<Frame> Frames;
  std::vector<const Stmt *> StmtStack;
};

} // namespace

bool isTestBody(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  if (isGeneratedTestName(FD->getName()) || declaredByTestMacro(FD))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  llvm::StringRef Class = RD->getDeclName().isIdentifier() ? RD->getName() : "";
  if (MD->getName() == "TestBody")
    return derivesFromGtestTest(RD) || Class.ends_with("_Test");
  // Catch2's TEST_CASE_METHOD, Boost.Test's test_method() (its class is the test case).
  return (MD->getName() == "test" && isGeneratedTestName(Class)) ||
         (MD->getName() == "test_method" && declaredByTestMacro(MD));
}

const HotCodeAnalysis &HotCodeAnalysis::get(ASTContext &Ctx) { return perTU<HotCodeAnalysis>(Ctx); }

HotCodeAnalysis::HotCodeAnalysis(ASTContext &Ctx) : Ctx(Ctx) { build(); }

unsigned HotCodeAnalysis::line(SourceLocation Loc) const {
  return Ctx.getSourceManager().getPresumedLineNumber(Ctx.getSourceManager().getExpansionLoc(Loc));
}

std::string HotCodeAnalysis::placeFrom(SourceLocation Loc, SourceLocation From) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Loc), F = SM.getExpansionLoc(From);
  if (F.isInvalid() || SM.getFileID(L) == SM.getFileID(F))
    return "line " + std::to_string(line(Loc));
  return llvm::sys::path::filename(SM.getFilename(L)).str() + ":" + std::to_string(line(Loc));
}

std::string HotCodeAnalysis::describe(const FunctionDecl *FD) const {
  if (!FD)
    return "this function";
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD)) {
    if (M->getParent()->isLambda())
      return "the lambda at line " + std::to_string(line(M->getParent()->getLocation()));
    return M->getParent()->getNameAsString() + "::" + M->getNameAsString() + "()";
  }
  return FD->getNameAsString() + "()";
}

/// Every method O overrides, directly or through the methods those override (each once).
static std::vector<const CXXMethodDecl *> everyOverridden(const CXXMethodDecl *O) {
  std::vector<const CXXMethodDecl *> Out;
  llvm::SmallVector<const CXXMethodDecl *, 4> Work(O->overridden_methods());
  llvm::DenseSet<const CXXMethodDecl *> Seen;
  while (!Work.empty()) {
    const CXXMethodDecl *B = Work.pop_back_val();
    if (!Seen.insert(B->getCanonicalDecl()).second)
      continue;
    Out.push_back(B);
    Work.append(B->overridden_methods().begin(), B->overridden_methods().end());
  }
  return Out;
}

static bool conditionalWithin(const HotCodeAnalysis &HC, const Stmt *S, const Stmt *Loop);

void HotCodeAnalysis::build() {
  std::vector<const FunctionDecl *> Forwards;
  CallCollector Collector(Ctx, Callers, Forwards, Parents, BodyOf, TestBodies, Referenced);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  addDispatchedCalls(Collector.Overriders, Collector.VirtualCalls);
  Overrides = Collector.Overriders;
  classifyLoops(Collector.StepCalls, Collector.Loops, Collector.LoaderLoops);
  for (const auto &Entry : Collector.Loops)
    if (isBoundedLoop(Entry.first))
      BoundedLoops.insert(Entry.first);

  // Seeds: functions called inside a loop, and Module::forward(). Then callees of hot functions.
  std::deque<const FunctionDecl *> Work;
  for (const FunctionDecl *F : Forwards) {
    if (HotFunctions.try_emplace(F, "in " + describe(F) + ", which runs on every forward pass").second)
      Work.push_back(F);
  }
  // Deterministic order: iterate callers by source position of the call.
  std::vector<std::pair<const FunctionDecl *, const CallSite *>> LoopCalls;
  for (auto &Entry : Callers)
    for (const CallSite &S : Entry.second)
      if (hotLoop(S.Loops) && !inTestBody(S.Call))
        LoopCalls.push_back({Entry.first, &S});
  // A call on every iteration explains a function better than one under a branch: those first.
  auto Branch = [&](const CallSite *S) { return conditionalWithin(*this, S->Call, hotLoop(S->Loops)); };
  std::sort(LoopCalls.begin(), LoopCalls.end(), [&](const auto &A, const auto &B) {
    bool BA = Branch(A.second), BB = Branch(B.second);
    if (BA != BB)
      return !BA;
    return Ctx.getSourceManager().isBeforeInTranslationUnit(A.second->Call->getBeginLoc(),
                                                            B.second->Call->getBeginLoc());
  });
  for (auto &[Callee, Site] : LoopCalls) {
    // A call under a branch of the loop body (`if (step % 100 == 0)`, `if (should_prune(it))`)
    // does not run on every iteration: say only what the code knows.
    const Stmt *Loop = hotLoop(Site->Loops);
    std::string Why = "in " + describe(Callee) +
                      (conditionalWithin(*this, Site->Call, Loop) ? ", called in the loop in "
                                                                  : ", called on every iteration of the loop in ") +
                      describe(Site->Caller) + " at " +
                      placeFrom(Loop->getBeginLoc(),
                                (Callee->getDefinition() ? Callee->getDefinition() : Callee)->getLocation());
    if (HotFunctions.try_emplace(Callee, Why).second)
      Work.push_back(Callee);
  }
  // Propagate: a function called (anywhere) from a hot function is hot.
  while (!Work.empty()) {
    const FunctionDecl *Hot = Work.front();
    Work.pop_front();
    std::string HotWhy = HotFunctions.lookup(Hot);
    // Find callees of Hot: scan all callee entries whose sites have Caller == Hot.
    for (auto &Entry : Callers) {
      if (HotFunctions.count(Entry.first))
        continue;
      for (const CallSite &S : Entry.second) {
        if (S.Caller != Hot)
          continue;
        // "in helper(), called from train(), called on every iteration of ..."
        llvm::StringRef Rest = HotWhy;
        Rest.consume_front("in ");
        std::string Why = "in " + describe(Entry.first) + ", called from " + Rest.str();
        HotFunctions.try_emplace(Entry.first, Why);
        Work.push_back(Entry.first);
        break;
      }
    }
  }
}

void HotCodeAnalysis::addDispatchedCalls(const std::vector<const CXXMethodDecl *> &Overriders,
                                         const llvm::DenseSet<const Expr *> &VirtualCalls) {
  // A call dispatched through a base (`agent->step(obs)` on an Agent*) may run every override of
  // the method it names: each override in this TU gets that call site too, so a loop that steps
  // agents through their base makes each agent's step hot (and a step() in an override makes the
  // loop a step loop). Sites are gathered first, then added (Callers' vectors must not grow while
  // being read).
  std::vector<std::pair<const FunctionDecl *, CallSite>> Added;
  for (const CXXMethodDecl *O : Overriders) {
    for (const CXXMethodDecl *B : everyOverridden(O)) {
      auto It = Callers.find(canon(B));
      if (It == Callers.end())
        continue;
      for (const CallSite &S : It->second)
        if (VirtualCalls.count(S.Call))
          Added.push_back({canon(O), S});
    }
  }
  for (auto &[F, S] : Added)
    Callers[F].push_back(S);
}

/// True when S, in the body of Loop, runs only in a branch of it (if, switch, ?:, && or ||).
static bool conditionalWithin(const HotCodeAnalysis &HC, const Stmt *S, const Stmt *Loop) {
  for (const Stmt *Cur = S, *P = HC.parentOf(S); P && Cur != Loop; Cur = P, P = HC.parentOf(P)) {
    if (P == Loop)
      return false;
    if (const auto *I = dyn_cast<IfStmt>(P)) {
      if (!I->isConstexpr() && (Cur == I->getThen() || Cur == I->getElse()))
        return true;
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Cur == Sw->getBody())
        return true;
    } else if (const auto *C = dyn_cast<ConditionalOperator>(P)) {
      if (Cur != C->getCond())
        return true;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isLogicalOp() && Cur == B->getRHS())
        return true;
    }
  }
  return false;
}

const Stmt *HotCodeAnalysis::hotLoop(const std::vector<const Stmt *> &Loops) const {
  for (auto It = Loops.rbegin(); It != Loops.rend(); ++It)
    if (!isEpochLoop(*It) && !BoundedLoops.count(*It))
      return *It;
  return nullptr;
}

std::vector<const CXXMethodDecl *> HotCodeAnalysis::overridersOf(const CXXMethodDecl *M) const {
  std::vector<const CXXMethodDecl *> Out;
  const CXXMethodDecl *Target = M->getCanonicalDecl();
  for (const CXXMethodDecl *O : Overrides)
    if (llvm::any_of(everyOverridden(O), [&](const CXXMethodDecl *B) { return B->getCanonicalDecl() == Target; }))
      Out.push_back(O);
  return Out;
}

std::vector<const CXXMethodDecl *> autogradFunctionMethodsBehind(const CallExpr *C) {
  std::vector<const CXXMethodDecl *> Out;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C ? C->getDirectCallee() : nullptr);
  if (!MD || !MD->isStatic() || !MD->getDeclName().isIdentifier() || MD->getName() != "apply" || !isTorchDecl(MD))
    return Out;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent());
  if (!Spec || Spec->getName() != "Function" || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return Out;
  const CXXRecordDecl *User = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  if (!User)
    return Out;
  for (const CXXMethodDecl *M : User->methods())
    if (M->isStatic() && M->getDeclName().isIdentifier() && (M->getName() == "forward" || M->getName() == "backward"))
      Out.push_back(M);
  return Out;
}

bool isVirtualDispatch(const CallExpr *C) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->isVirtual())
    return false;
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts());
  return ME && !ME->hasQualifier();
}

namespace {
/// The number of elements of a braced list (`{a, b}`, through std::initializer_list), or -1.
int bracedListSize(const Expr *E) {
  if (!E)
    return -1;
  E = E->IgnoreImplicit();
  // vector(initializer_list, const allocator & = {}): the list, and defaults after it.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() >= 1 &&
                                                      llvm::all_of(llvm::drop_begin(CE->arguments()), [](const Expr *A) {
                                                        return isa<CXXDefaultArgExpr>(A);
                                                      }))
    E = CE->getArg(0)->IgnoreImplicit();
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    E = IL->getSubExpr()->IgnoreImplicit();
  const auto *IL = dyn_cast<InitListExpr>(E);
  if (!IL)
    return -1;
  // std::array<T, N> a = {{...}}: the aggregate's one member holds the list.
  if (IL->getNumInits() == 1)
    if (const auto *Inner = dyn_cast<InitListExpr>(IL->getInit(0)->IgnoreImplicit()))
      IL = Inner;
  return static_cast<int>(IL->getNumInits());
}

/// The parent of each statement under S (the first one seen), and the references to V among them,
/// for the read-only test below (isBoundedLoop runs while HotCodeAnalysis is being built, so its
/// parent map cannot be asked).
void parentsAndUses(const Stmt *S, const VarDecl *V, llvm::DenseMap<const Stmt *, const Stmt *> &Parents,
                    llvm::SmallVectorImpl<const DeclRefExpr *> &Uses) {
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V)
    Uses.push_back(D);
  for (const Stmt *C : S->children())
    if (C) {
      Parents.try_emplace(C, S);
      parentsAndUses(C, V, Parents, Uses);
    }
}

const Stmt *parentPast(const Stmt *S, const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  for (auto It = Parents.find(S); It != Parents.end(); It = Parents.find(S)) {
    S = It->second;
    if (!isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr>(S))
      return S;
  }
  return nullptr;
}

/// E is the left-hand side of an assignment (plain or compound, built-in or overloaded).
bool assignedTo(const Stmt *E, const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  const Stmt *P = parentPast(E, Parents);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->isAssignmentOp() && BO->getLHS()->IgnoreParenImpCasts() == E;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    return Op->isAssignmentOp() && Op->getNumArgs() > 0 && Op->getArg(0)->IgnoreParenImpCasts() == E;
  return false;
}

/// A local container of its function initialised from a braced list of at most 16 elements
/// (`std::vector<std::string> prompts = {"go .", "i lost ."};`) that the function only reads:
/// size(), empty(), iteration, an element read (`prompts[i]`, `at(i)`, `front()`), handed by
/// value or const reference. A few demo inputs, as a braced list is.
bool smallFixedLocalList(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getType()->isReferenceType())
    return false;
  int N = bracedListSize(V->getInit());
  if (N < 0 || N > 16)
    return false;
  if (V->getType().isConstQualified())
    return true;
  const auto *FD = dyn_cast<FunctionDecl>(V->getDeclContext());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return false;
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
  llvm::SmallVector<const DeclRefExpr *, 8> Uses;
  parentsAndUses(Body, V, Parents, Uses);
  for (const DeclRefExpr *U : Uses) {
    const Stmt *P = parentPast(U, Parents);
    if (!P)
      return false;
    if (const auto *R = dyn_cast<CXXForRangeStmt>(P); R && R->getRangeInit() &&
                                                      R->getRangeInit()->IgnoreParenImpCasts() == U)
      continue;
    // The range-for's hidden `auto &&__range = prompts;`.
    if (const auto *DS = dyn_cast<DeclStmt>(P); DS && DS->isSingleDecl())
      if (const auto *RV = dyn_cast<VarDecl>(DS->getSingleDecl()); RV && RV->isImplicit())
        continue;
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      if (!MD || !MD->getDeclName().isIdentifier())
        return false;
      llvm::StringRef Name = MD->getName();
      bool Reads = llvm::is_contained({"size", "empty", "begin", "end", "cbegin", "cend", "rbegin", "rend"}, Name);
      bool Element = llvm::is_contained({"at", "front", "back"}, Name);
      if (!Reads && !Element)
        return false;
      if (Element) {
        const Stmt *Call = parentPast(ME, Parents);
        if (!Call || assignedTo(Call, Parents))
          return false;
      }
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P);
        Op && Op->getOperator() == OO_Subscript && Op->getArg(0)->IgnoreParenImpCasts() == U) {
      if (assignedTo(Op, Parents))
        return false;
      continue;
    }
    // An argument: by value or const reference.
    auto ParamReads = [&](const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
      if (!Callee)
        return false;
      for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I)
        if (Args[I]->IgnoreParenImpCasts() == U) {
          QualType T = Callee->getParamDecl(I)->getType();
          return !T->isReferenceType() || T->getPointeeType().isConstQualified();
        }
      return false;
    };
    if (const auto *C = dyn_cast<CallExpr>(P); C && !isa<CXXOperatorCallExpr>(C)) {
      if (ParamReads(C->getDirectCallee(), llvm::ArrayRef(C->getArgs(), C->getNumArgs())))
        continue;
      return false;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(P)) {
      if (ParamReads(C->getConstructor(), llvm::ArrayRef(C->getArgs(), C->getNumArgs())))
        continue;
      return false;
    }
    return false;
  }
  return true;
}

/// `i < prompts.size()` (or `!=`, `<=`, with casts): the container whose size bounds a for loop.
const Expr *sizeBound(const Expr *Cond) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreImplicit() : nullptr);
  if (!BO || !(BO->getOpcode() == BO_LT || BO->getOpcode() == BO_NE || BO->getOpcode() == BO_LE))
    return nullptr;
  const Expr *R = BO->getRHS()->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(R))
    R = Cast->getSubExpr()->IgnoreParenImpCasts();
  const auto *MC = dyn_cast<CXXMemberCallExpr>(R);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() || MD->getName() != "size")
    return nullptr;
  return MC->getImplicitObjectArgument();
}
} // namespace

bool isBoundedLoop(const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S))
    return smallFixedLocalList(sizeBound(F->getCond()));
  const auto *R = dyn_cast<CXXForRangeStmt>(S);
  if (!R || !R->getRangeInit())
    return false;
  if (smallFixedLocalList(R->getRangeInit()))
    return true;
  const Expr *Init = R->getRangeInit()->IgnoreImplicit();
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(Init))
    Init = IL->getSubExpr()->IgnoreImplicit();
  if (const auto *IL = dyn_cast<InitListExpr>(Init))
    return IL->getNumInits() <= 16;
  // The model's parameters, buffers or submodules, an optimizer's parameter groups.
  Init = stripCopies(Init);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Init);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() || !isTorchDecl(MD))
    return false;
  llvm::StringRef N = MD->getName();
  std::string Cls = MD->getParent()->getQualifiedNameAsString();
  if (Cls == "torch::nn::Module")
    return N == "parameters" || N == "named_parameters" || N == "buffers" || N == "named_buffers" || N == "children" ||
           N == "named_children" || N == "modules" || N == "named_modules";
  if (Cls == "torch::optim::Optimizer")
    return N == "param_groups";
  return false;
}

namespace {
/// A condition that holds every few iterations or once enough has been gathered: a `%` test
/// (`t % n_steps == 0`) or a container's size() (`memory.size() >= batch_size`).
bool isPeriodicCondition(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Rem)
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Percent)
    return true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && MD->getDeclName().isIdentifier() && MD->getName() == "size")
      return true;
  for (const Stmt *C : S->children())
    if (isPeriodicCondition(C))
      return true;
  return false;
}
} // namespace

bool HotCodeAnalysis::periodicWithin(const Stmt *S, const Stmt *Loop) const {
  for (const Stmt *Cur = S, *P = parentOf(S); P && Cur != Loop; Cur = P, P = parentOf(P)) {
    if (P == Loop)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P); If && Cur != If->getCond() && isPeriodicCondition(If->getCond()))
      return true;
  }
  return false;
}

void HotCodeAnalysis::classifyLoops(const std::vector<CallSite> &StepCalls,
                                    const std::vector<std::pair<const Stmt *, CallSite>> &Loops,
                                    const llvm::DenseSet<const Stmt *> &LoaderLoops) {
  auto Innermost = [](const CallSite &S) { return S.Loops.empty() ? nullptr : S.Loops.back(); };
  // Functions that run a training step on every call: backward()/step() outside any loop of
  // theirs, or a call (outside loops) to such a function.
  std::deque<const FunctionDecl *> Work;
  // Adds to Set every caller of the functions in Work, transitively; with OutsideLoops, only
  // through calls that are not in a loop of their caller.
  auto AddCallers = [&](llvm::DenseSet<const FunctionDecl *> &Set, bool OutsideLoops) {
    while (!Work.empty()) {
      const FunctionDecl *F = Work.front();
      Work.pop_front();
      auto It = Callers.find(F);
      if (It == Callers.end())
        continue;
      for (const CallSite &S : It->second)
        if ((!OutsideLoops || S.Loops.empty()) && Set.insert(S.Caller).second)
          Work.push_back(S.Caller);
    }
  };
  llvm::DenseSet<const FunctionDecl *> DoesStep;
  for (const CallSite &S : StepCalls)
    if (S.Loops.empty() && DoesStep.insert(S.Caller).second)
      Work.push_back(S.Caller);
  AddCallers(DoesStep, /*OutsideLoops=*/true);
  // Loops that run a training step per iteration.
  llvm::DenseSet<const Stmt *> StepLoops(LoaderLoops.begin(), LoaderLoops.end());
  for (const CallSite &S : StepCalls)
    if (const Stmt *L = Innermost(S))
      StepLoops.insert(L);
  for (auto &Entry : Callers)
    if (DoesStep.count(Entry.first))
      for (const CallSite &S : Entry.second)
        if (const Stmt *L = Innermost(S))
          StepLoops.insert(L);
  // Functions that contain a step loop, directly or through calls.
  llvm::DenseSet<const FunctionDecl *> HasStepLoop;
  for (auto &[Loop, Info] : Loops)
    if (StepLoops.count(Loop) && HasStepLoop.insert(Info.Caller).second)
      Work.push_back(Info.Caller);
  AddCallers(HasStepLoop, /*OutsideLoops=*/false);
  // Epoch loops: not step loops themselves, but containing one (nested, or through a call).
  // Not a loop that reaches the training pass only every few iterations (`if (t % n_steps == 0)
  // update();`, `if (memory.size() > batch) learn();`): its body runs per environment step, more
  // often than the training pass (a rollout loop).
  llvm::DenseSet<const Stmt *> Contains;
  auto AddOuter = [&](const Stmt *Inner, const std::vector<const Stmt *> &Outer) {
    for (const Stmt *L : Outer)
      if (!periodicWithin(Inner, L))
        Contains.insert(L);
  };
  for (auto &[Loop, Info] : Loops)
    if (StepLoops.count(Loop))
      AddOuter(Loop, Info.Loops);
  for (auto &Entry : Callers)
    if (HasStepLoop.count(Entry.first))
      for (const CallSite &S : Entry.second)
        AddOuter(S.Call, S.Loops);
  for (const Stmt *L : Contains)
    if (!StepLoops.count(L))
      EpochLoops.insert(L);
}

std::optional<HotContext> HotCodeAnalysis::whyHot(const FunctionDecl *FD) const {
  if (!FD)
    return std::nullopt;
  const FunctionDecl *C = canon(FD);
  auto It = HotFunctions.find(C);
  if (It == HotFunctions.end()) {
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      It = HotFunctions.find(canon(Pattern));
    if (It == HotFunctions.end())
      return std::nullopt;
  }
  HotContext H;
  H.Why = It->second;
  H.Function = FD;
  return H;
}

const Expr *HotCodeAnalysis::userOf(const Expr *E, bool SkipTemporaryObjects) const {
  const Stmt *Cur = E;
  for (unsigned I = 0; I < 8; ++I) {
    const auto *P = dyn_cast_or_null<Expr>(parentOf(Cur));
    if (!P)
      return nullptr;
    Cur = P;
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr, ExprWithCleanups>(P))
      continue;
    if (const auto *C = dyn_cast<CXXConstructExpr>(P))
      if (C->getNumArgs() == 1 && (SkipTemporaryObjects || !isa<CXXTemporaryObjectExpr>(C)))
        continue;
    return P;
  }
  return nullptr;
}

const FunctionDecl *HotCodeAnalysis::enclosingFunction(const Stmt *S) const {
  for (const Stmt *Cur = S; Cur; Cur = parentOf(Cur)) {
    if (const auto *L = dyn_cast<LambdaExpr>(Cur); L && Cur != S)
      return L->getCallOperator();
    if (const FunctionDecl *F = BodyOf.lookup(Cur))
      return F;
  }
  return nullptr;
}

std::optional<HotContext> HotCodeAnalysis::hotAt(const Stmt *S, const Stmt *&Loop, const FunctionDecl *&FD) const {
  Loop = nullptr;
  FD = nullptr;
  const Stmt *Prev = S;
  for (const Stmt *Cur = S;;) {
    if (const FunctionDecl *F = BodyOf.lookup(Cur)) {
      // Reached the body of F.
      if (!FD)
        FD = F;
      if (Loop) {
        HotContext H;
        H.Why = "in the loop at line " + std::to_string(line(Loop->getBeginLoc())) + " of " + describe(F);
        H.LoopLoc = Loop->getBeginLoc();
        H.Function = F;
        return H;
      }
      return whyHot(F);
    }
    const Stmt *P = parentOf(Cur);
    if (!P)
      return std::nullopt; // not in user code we analysed
    if (!Loop && isLoopStatement(P) && childRunsEachIteration(P, Cur) && !isEpochLoop(P) && !BoundedLoops.count(P))
      Loop = P;
    if (const auto *L = dyn_cast<LambdaExpr>(P)) {
      // A lambda's body: hot when the lambda is called from hot code, or when it is written in
      // hot code (a lambda written in a loop body usually runs there).
      const FunctionDecl *Op = L->getCallOperator();
      if (!FD)
        FD = Op;
      if (Loop) {
        HotContext H;
        H.Why = "in the loop at line " + std::to_string(line(Loop->getBeginLoc())) + " of " + describe(Op);
        H.LoopLoc = Loop->getBeginLoc();
        H.Function = Op;
        return H;
      }
      if (auto H = whyHot(Op))
        return H;
    }
    (void)Prev;
    Prev = Cur;
    Cur = P;
  }
}

std::optional<HotContext> HotCodeAnalysis::whyHot(const Stmt *S) const {
  const Stmt *Loop;
  const FunctionDecl *FD;
  if (inTestBody(S) || neverRuns(S, Ctx))
    return std::nullopt;
  return hotAt(S, Loop, FD);
}

bool HotCodeAnalysis::inTestBody(const Stmt *S) const {
  if (TestBodies.empty())
    return false;
  const FunctionDecl *Outer = nullptr;
  for (const Stmt *Cur = S; Cur; Cur = parentOf(Cur))
    if (const FunctionDecl *F = BodyOf.lookup(Cur))
      Outer = F;
  return Outer && TestBodies.count(canon(Outer));
}

std::optional<std::vector<const Expr *>> HotCodeAnalysis::argumentsAtEveryCall(const ParmVarDecl *PV,
                                                                                bool AllowNonConstReference,
                                                                                bool Defaults) const {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(PV->getDeclContext());
  if (!FD || (isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->getParent()->isLambda()))
    return std::nullopt;
  // A virtual method also runs for the calls of what it overrides (through the base): not this
  // TU's calls of it alone.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return std::nullopt;
  QualType T = PV->getType();
  if (T->isReferenceType() ? !T->getPointeeType().isConstQualified() && !AllowNonConstReference
                            : valuesOf(PV, Ctx).Written)
    return std::nullopt; // a non-const reference or a reassigned copy may hold anything
  if (referencedOtherThanCalled(FD))
    return std::nullopt;
  std::vector<const Expr *> Calls = callsOf(FD), Args;
  if (Calls.empty())
    return std::nullopt;
  unsigned Index = PV->getFunctionScopeIndex();
  for (const Expr *Call : Calls) {
    const Expr *Arg = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      unsigned Shift = isa<CXXMethodDecl>(FD) ? 1 : 0;
      Arg = Index + Shift < Op->getNumArgs() ? Op->getArg(Index + Shift) : nullptr;
    } else if (const auto *C = dyn_cast<CallExpr>(Call)) {
      Arg = Index < C->getNumArgs() ? C->getArg(Index) : nullptr;
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(Call)) {
      Arg = Index < C->getNumArgs() ? C->getArg(Index) : nullptr;
    }
    if (const auto *D = dyn_cast_or_null<CXXDefaultArgExpr>(Arg); D && Defaults)
      Arg = D->getExpr(); // the default written in the declaration
    if (!Arg || isa<CXXDefaultArgExpr>(Arg))
      return std::nullopt;
    Args.push_back(Arg);
  }
  return Args;
}

std::vector<const Expr *> HotCodeAnalysis::callsOf(const FunctionDecl *FD) const {
  std::vector<const Expr *> Out;
  auto It = Callers.find(canon(FD));
  if (It != Callers.end())
    for (const CallSite &S : It->second)
      Out.push_back(S.Call);
  return Out;
}

std::vector<const FunctionDecl *> HotCodeAnalysis::callees(const FunctionDecl *FD) const {
  std::vector<const FunctionDecl *> Out;
  const FunctionDecl *C = canon(FD);
  for (auto &Entry : Callers)
    for (const CallSite &S : Entry.second)
      if (S.Caller == C) {
        Out.push_back(Entry.first);
        break;
      }
  // Deterministic order (DenseMap iterates by pointer): by source position.
  std::sort(Out.begin(), Out.end(), [&](const FunctionDecl *A, const FunctionDecl *B) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  return Out;
}

const Stmt *HotCodeAnalysis::enclosingLoop(const Stmt *S) const {
  // Any loop, bounded ones included (a loop over the parameters is a loop), up to the function.
  for (const Stmt *Cur = S; Cur && !BodyOf.count(Cur);) {
    const Stmt *P = parentOf(Cur);
    if (!P || isa<LambdaExpr>(P))
      return nullptr;
    if (isLoopStatement(P) && childRunsEachIteration(P, Cur))
      return P;
    Cur = P;
  }
  return nullptr;
}

} // namespace torchlint
