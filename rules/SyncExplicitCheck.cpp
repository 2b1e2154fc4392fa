#include "SyncExplicitCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

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
  if (!Site)
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
