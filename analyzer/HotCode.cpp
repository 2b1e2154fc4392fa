#include "HotCode.h"
#include "TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <deque>
#include <memory>

using namespace clang;

namespace torchlint {

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// True when Child (a direct child of Loop) runs on every iteration.
bool childRunsEachIteration(const Stmt *Loop, const Stmt *Child) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return Child != F->getInit();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == R->getBody() || Child == R->getLoopVarStmt() || Child == R->getInc() ||
           Child == R->getCond();
  return true;
}

const FunctionDecl *canon(const FunctionDecl *FD) {
  return FD ? FD->getCanonicalDecl() : nullptr;
}

/// Collects call sites of user code (system headers are skipped) with their enclosing loop.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  CallCollector(ASTContext &Ctx,
                llvm::DenseMap<const FunctionDecl *, std::vector<HotCodeAnalysis::CallSite>> &Out,
                std::vector<const FunctionDecl *> &Forwards)
      : Ctx(Ctx), Out(Out), Forwards(Forwards) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    if (auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->doesThisDeclarationHaveABody()) {
        if (isModuleForward(FD))
          Forwards.push_back(canon(FD));
        Frames.push_back({canon(FD), {}});
        bool R = RecursiveASTVisitor::TraverseDecl(D);
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

  bool TraverseForStmt(ForStmt *S, DataRecursionQueue * = nullptr) {
    if (!TraverseStmt(S->getInit()))
      return false;
    return withLoop(S, [&] {
      return TraverseStmt(S->getCond()) && TraverseStmt(S->getInc()) && TraverseStmt(S->getBody());
    });
  }
  bool TraverseWhileStmt(WhileStmt *S, DataRecursionQueue * = nullptr) {
    return withLoop(S, [&] { return TraverseStmt(S->getCond()) && TraverseStmt(S->getBody()); });
  }
  bool TraverseDoStmt(DoStmt *S, DataRecursionQueue * = nullptr) {
    return withLoop(S, [&] { return TraverseStmt(S->getBody()) && TraverseStmt(S->getCond()); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S, DataRecursionQueue * = nullptr) {
    if (S->getInit() && !TraverseStmt(S->getInit()))
      return false;
    if (!TraverseStmt(S->getRangeInit()))
      return false;
    return withLoop(S, [&] {
      return TraverseStmt(S->getLoopVarStmt()) && TraverseStmt(S->getBody());
    });
  }

  bool VisitCallExpr(CallExpr *C) {
    if (Frames.empty())
      return true;
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    record(Callee, C);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (!Frames.empty() && C->getConstructor())
      record(C->getConstructor(), C);
    return true;
  }

private:
  struct Frame {
    const FunctionDecl *FD;
    std::vector<const Stmt *> Loops;
  };

  template <typename F> bool withLoop(const Stmt *Loop, F Body) {
    if (Frames.empty())
      return Body();
    Frames.back().Loops.push_back(Loop);
    bool R = Body();
    Frames.back().Loops.pop_back();
    return R;
  }

  void record(const FunctionDecl *Callee, const Expr *Call) {
    if (Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
      return;
    const Frame &F = Frames.back();
    HotCodeAnalysis::CallSite Site{F.FD, Call, F.Loops.empty() ? nullptr : F.Loops.back()};
    Out[canon(Callee)].push_back(Site);
    // Calls to a template specialization also make the template's pattern hot.
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
      Out[canon(Pattern)].push_back(Site);
  }

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::vector<HotCodeAnalysis::CallSite>> &Out;
  std::vector<const FunctionDecl *> &Forwards;
  std::vector<Frame> Frames;
};

} // namespace

const HotCodeAnalysis &HotCodeAnalysis::get(ASTContext &Ctx) {
  // One analysis per TU; a new ASTContext replaces the previous one (TUs run one after another
  // on a thread).
  thread_local ASTContext *Owner = nullptr;
  thread_local std::unique_ptr<HotCodeAnalysis> Cached;
  if (Owner != &Ctx || !Cached) {
    Cached = std::make_unique<HotCodeAnalysis>(Ctx);
    Owner = &Ctx;
  }
  return *Cached;
}

HotCodeAnalysis::HotCodeAnalysis(ASTContext &Ctx) : Ctx(Ctx) { build(); }

unsigned HotCodeAnalysis::line(SourceLocation Loc) const {
  return Ctx.getSourceManager().getPresumedLineNumber(Ctx.getSourceManager().getExpansionLoc(Loc));
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

void HotCodeAnalysis::build() {
  std::vector<const FunctionDecl *> Forwards;
  CallCollector Collector(Ctx, Callers, Forwards);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());

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
      if (S.Loop)
        LoopCalls.push_back({Entry.first, &S});
  std::sort(LoopCalls.begin(), LoopCalls.end(), [&](const auto &A, const auto &B) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(A.second->Call->getBeginLoc(),
                                                           B.second->Call->getBeginLoc());
  });
  for (auto &[Callee, Site] : LoopCalls) {
    std::string Why = "in " + describe(Callee) + ", called on every iteration of the loop in " +
                      describe(Site->Caller) + " at line " + std::to_string(line(Site->Loop->getBeginLoc()));
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

std::optional<HotContext> HotCodeAnalysis::hotAt(const Stmt *S, const Stmt *&Loop,
                                                 const FunctionDecl *&FD) const {
  Loop = nullptr;
  FD = nullptr;
  DynTypedNode Node = DynTypedNode::create(*S);
  const Stmt *Prev = S;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return std::nullopt;
    const DynTypedNode &P = Parents[0];
    if (const auto *PS = P.get<Stmt>()) {
      if (!Loop && isLoop(PS) && childRunsEachIteration(PS, Prev))
        Loop = PS;
      if (const auto *L = dyn_cast<LambdaExpr>(PS)) {
        // The lambda's own callers may make it hot; its enclosing loop may too.
        const FunctionDecl *Op = L->getCallOperator();
        if (!FD)
          FD = Op;
        if (!Loop)
          if (auto H = whyHot(Op))
            return H;
      }
      Prev = PS;
      Node = P;
      continue;
    }
    if (const auto *D = P.get<Decl>()) {
      if (const auto *F = dyn_cast<FunctionDecl>(D)) {
        if (!FD)
          FD = F;
        const auto *M = dyn_cast<CXXMethodDecl>(F);
        if (!Loop && M && M->getParent()->isLambda()) {
          // A lambda's body: hot if the lambda is called from hot code, or if it is written in
          // hot code (a lambda written in a loop body usually runs there).
          if (auto H = whyHot(F))
            return H;
          Prev = nullptr;
          Node = P;
          continue;
        }
        if (Loop) {
          HotContext H;
          H.Why = "in the loop at line " + std::to_string(line(Loop->getBeginLoc())) + " of " + describe(F);
          H.LoopLoc = Loop->getBeginLoc();
          H.Function = F;
          return H;
        }
        return whyHot(F);
      }
      // VarDecl initializers, field initializers and the like: keep walking up.
      Prev = nullptr;
      Node = P;
      continue;
    }
    Node = P;
  }
}

std::optional<HotContext> HotCodeAnalysis::whyHot(const Stmt *S) const {
  const Stmt *Loop;
  const FunctionDecl *FD;
  return hotAt(S, Loop, FD);
}

const Stmt *HotCodeAnalysis::enclosingLoop(const Stmt *S) const {
  const Stmt *Loop;
  const FunctionDecl *FD;
  hotAt(S, Loop, FD);
  return Loop;
}

} // namespace torchlint
