#include "rules/SyncPrintCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

static const char Message[] =
    "printing a tensor copies its values to the host and blocks until the GPU has finished all "
    "queued work; print once per logging interval, or print metadata (sizes(), dtype()) instead";

void SyncPrintCheck::registerMatchers(MatchFinder *Finder) {
  // os << t: libtorch's operator<<(std::ostream&, const Tensor&) (any ostream).
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("<<"), argumentCountIs(2),
                                         hasArgument(1, expr(isTensorExpr()).bind("tensor")),
                                         callee(functionDecl(isInTorchHeaders())))
                         .bind("call"),
                     this);
  // torch::print(t), at::print(os, t, width), t.print().
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("print"), isInTorchHeaders())),
                              hasAnyArgument(expr(isTensorExpr()).bind("tensor")))
                         .bind("call"),
                     this);
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("print"), isTensorMethod()))).bind("member"), this);
}

void SyncPrintCheck::check(const MatchFinder::MatchResult &Result) {
  const CallExpr *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const Expr *Tensor = Result.Nodes.getNodeAs<Expr>("tensor");
  if (const auto *M = Result.Nodes.getNodeAs<CXXMemberCallExpr>("member")) {
    Call = M;
    Tensor = M->getImplicitObjectArgument();
  }
  auto Site = assess(Call, Tensor, *Result.Context);
  if (!Site)
    return;
  SourceLocation Loc = Call->getExprLoc();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    Loc = Op->getOperatorLoc();
  reportSync(Loc, Message, *Site);
}

} // namespace torchlint
