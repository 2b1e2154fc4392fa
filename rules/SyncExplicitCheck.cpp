#include "rules/SyncExplicitCheck.h"
#include "core/Recovery.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

bool isTimerClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getDeclName().isIdentifier())
    return false;
  std::string N = RD->getName().lower();
  return llvm::StringRef(N).contains("timer") || llvm::StringRef(N).contains("stopwatch");
}

/// S reads a clock or takes a timing measurement: std::chrono::*::now(), clock(), clock_gettime,
/// gettimeofday, a CUDA event recorded or timed (cudaEventRecord, cudaEventElapsedTime,
/// event.record(), elapsed_time()), or a timer object (a class named *Timer* / *Stopwatch*, its
/// construction or any method; tic() / toc()).
bool readsClock(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 12 || isa<LambdaExpr>(S))
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = C->getDirectCallee(); FD && FD->getDeclName().isIdentifier()) {
      llvm::StringRef N = FD->getName();
      std::string Q = FD->getQualifiedNameAsString();
      if (N == "now" && llvm::StringRef(Q).starts_with("std::chrono::"))
        return true;
      if (FD->isExternC() || FD->getDeclContext()->isTranslationUnit() || llvm::StringRef(Q).starts_with("std::"))
        if (llvm::is_contained(
                {"clock", "clock_gettime", "gettimeofday", "cudaEventRecord", "cudaEventElapsedTime", "tic", "toc"}, N))
          return true;
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
        if (isTimerClass(MD->getParent()))
          return true;
        if ((N == "record" || N == "elapsed_time") && isTorchDecl(MD) && MD->getParent()->getName().contains("Event"))
          return true;
      }
    }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    if (CE->getConstructor() && isTimerClass(CE->getConstructor()->getParent()))
      return true;
  for (const Stmt *Ch : S->children())
    if (readsClock(Ch, Depth + 1))
      return true;
  return false;
}

/// The sync at Call brackets a timing measurement: the statement right before or right after it
/// reads a clock (torch::cuda::synchronize(); auto t1 = std::chrono::steady_clock::now();). A
/// sync that is the whole branch of an `if` is judged by the statements around the `if`.
bool bracketsTiming(const Stmt *Call, ASTContext &Ctx) {
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Stmt *S = Call;
  for (unsigned Level = 0; Level < 2; ++Level) {
    const Stmt *P = H.parentOf(S);
    while (P && !isa<CompoundStmt>(P)) {
      if (isa<LambdaExpr>(P) || !H.parentOf(P))
        return false;
      S = P;
      P = H.parentOf(S);
    }
    const auto *Block = dyn_cast_or_null<CompoundStmt>(P);
    if (!Block)
      return false;
    const Stmt *Prev = nullptr, *Next = nullptr;
    bool Found = false;
    for (const Stmt *Child : Block->body()) {
      if (Found) {
        Next = Child;
        break;
      }
      if (Child == S)
        Found = true;
      else
        Prev = Child;
    }
    if (readsClock(Prev) || readsClock(Next))
      return true;
    // `if (timing) { torch::cuda::synchronize(); }`: look around the if.
    const Stmt *Up = H.parentOf(Block);
    if (!Up || !isa<IfStmt>(Up) || Block->size() > 1)
      return false;
    S = Up;
  }
  return false;
}

/// The name a call calls: its callee's, or, for a call the parse could not resolve (a CUDA
/// runtime function without the toolkit's headers), the name written.
llvm::StringRef calledName(const Expr *E) {
  const Expr *Callee = nullptr;
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    if (const FunctionDecl *F = C->getDirectCallee())
      return F->getDeclName().isIdentifier() ? F->getName() : "";
    Callee = C->getCallee();
  } else if (const auto *R = dyn_cast<RecoveryExpr>(E); R && !R->subExpressions().empty()) {
    Callee = R->subExpressions().front();
  }
  if (!Callee)
    return "";
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(Callee))
    return U->getName().isIdentifier() ? U->getName().getAsIdentifierInfo()->getName() : "";
  if (const auto *D = dyn_cast<DeclRefExpr>(Callee))
    return D->getDecl()->getDeclName().isIdentifier() ? D->getDecl()->getName() : "";
  return "";
}

/// The stream variable or field E names: `s`, `s.stream()`, `s` converted to cudaStream_t.
const ValueDecl *streamNamed(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    if (MD && (isa<CXXConversionDecl>(MD) || (MD->getDeclName().isIdentifier() && MD->getName() == "stream")))
      return streamNamed(M->getImplicitObjectArgument());
    return nullptr;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(D->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

/// True when the stream D (a variable or field) only ever carries host callbacks: user code of
/// this TU names it only to enqueue a host function (cudaLaunchHostFunc, cudaStreamAddCallback),
/// to synchronize or query it, or to assign it a pool stream, and enqueues at least one host
/// function. Synchronizing it waits for those callbacks, not for the training kernels on the
/// current stream (a GUI progress callback run off the training thread).
bool onlyCarriesHostCallbacks(const ValueDecl *D, ASTContext &Ctx) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const ValueDecl *D;
    const SourceManager &SM;
    unsigned Named = 0, Accounted = 0, HostFunctions = 0;
    Uses(const ValueDecl *D, const SourceManager &SM) : D(D), SM(SM) {}
    bool shouldVisitLambdaBody() const { return true; }
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool TraverseDecl(Decl *X) {
      if (X && !isa<TranslationUnitDecl>(X) && isLibraryLocation(SM, X->getLocation()))
        return true;
      return RecursiveASTVisitor::TraverseDecl(X);
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Named += E->getDecl() == D;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      Named += E->getMemberDecl() == D;
      return true;
    }
    void hostFunctionCall(const Expr *E, llvm::ArrayRef<const Expr *> Args) {
      llvm::StringRef N = calledName(E);
      if ((N == "cudaLaunchHostFunc" || N == "cudaStreamAddCallback") && !Args.empty() && streamNamed(Args[0]) == D) {
        ++HostFunctions;
        ++Accounted;
      }
    }
    bool VisitCallExpr(CallExpr *C) {
      hostFunctionCall(C, llvm::ArrayRef<const Expr *>(C->getArgs(), C->getNumArgs()));
      if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
        if (const CXXMethodDecl *MD = M->getMethodDecl(); MD && MD->getDeclName().isIdentifier() &&
                                                           (MD->getName() == "synchronize" || MD->getName() == "query"))
          if (const Expr *Obj = M->getImplicitObjectArgument(); Obj && streamNamed(Obj) == D)
            ++Accounted;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && Op->getOperator() == OO_Equal &&
                                                            streamNamed(Op->getArg(0)) == D &&
                                                            calledName(Op->getArg(1)->IgnoreImplicit()) == "getStreamFromPool")
        ++Accounted;
      return true;
    }
    bool VisitRecoveryExpr(RecoveryExpr *R) {
      auto Subs = R->subExpressions();
      if (Subs.size() > 1)
        hostFunctionCall(R, llvm::ArrayRef<const Expr *>(Subs.begin() + 1, Subs.end()));
      return true;
    }
  } U(D, Ctx.getSourceManager());
  U.TraverseDecl(Ctx.getTranslationUnitDecl());
  return U.HostFunctions > 0 && U.Named == U.Accounted;
}

} // namespace

void SyncExplicitCheck::registerMatchers(MatchFinder *Finder) {
  // torch::cuda::synchronize(), c10::cuda::device_synchronize(), stream.synchronize(),
  // event.synchronize() (c10::Stream, c10::cuda::CUDAStream, at::cuda::CUDAEvent, c10::Event...).
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("synchronize", "device_synchronize"), isInTorchHeaders()))).bind("call"),
      this);
  // The CUDA runtime.
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("::cudaDeviceSynchronize", "::cudaStreamSynchronize",
                                                             "::cudaEventSynchronize", "::cudaThreadSynchronize"))))
                         .bind("call"),
                     this);
}

void SyncExplicitCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  auto Site = assess(Call, nullptr, *Result.Context);
  if (!Site || bracketsTiming(Call, *Result.Context))
    return; // synchronizing to read a clock is what timing code must do
  // A side stream that only runs host callbacks: the wait is for the callback, not the GPU.
  const Expr *Stream = nullptr;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
    Stream = M->getImplicitObjectArgument();
  else if (calledName(Call) == "cudaStreamSynchronize" && Call->getNumArgs() == 1)
    Stream = Call->getArg(0);
  if (const ValueDecl *D = streamNamed(Stream); D && onlyCarriesHostCallbacks(D, *Result.Context))
    return;
  const FunctionDecl *FD = Call->getDirectCallee();
  std::string Name = FD->getQualifiedNameAsString();
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
    Name = M->getParent()->getNameAsString() + "::" + M->getNameAsString();
  reportSync(Call->getExprLoc(),
             Name + "() blocks the CPU until the device has finished the queued work, so the next step "
                    "cannot be queued while the GPU runs; order work with streams and events "
                    "(event.record(), stream.wait_event) instead, and synchronize only where host code "
                    "reads results (timing, checkpoints)",
             *Site);
}

} // namespace torchlint
