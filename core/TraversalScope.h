// Which declarations the AST matchers walk. libtorch's headers hold hundreds of thousands of
// declarations the checks never report in; walking only the user's own top-level declarations
// (ASTContext::setTraversalScope, as clangd does for clang-tidy) gives the same findings for a
// fraction of the time. The CLI sets the scope from its own AST consumer (Accel.cpp); inside
// clang-tidy (the plugin) every torchlint check carries a translationUnitDecl() matcher that sets
// it when the walk starts, before any child of the TU is visited.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "core/Recovery.h"

namespace torchlint {

/// Limits Ctx's traversal to the top-level declarations the TU parsed outside system headers, in
/// order (without deserializing a PCH's declarations). No-op when a scope is already set.
void limitTraversalToUserCode(clang::ASTContext &Ctx);

/// Whether the check module sets the scope itself (default: yes, unless the environment variable
/// TORCHLINT_FULL_AST is set to a non-empty value other than 0, which the equivalence tests use to
/// run the plugin over the whole AST). The CLI turns it off: it decides the scope itself.
bool moduleLimitsTraversal();
void setModuleLimitsTraversal(bool On);

/// What the module registers for a check class T: T, plus the matcher that limits the walk.
template <class T> class ScopedCheck : public T {
public:
  using T::T;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override {
    if (moduleLimitsTraversal())
      Finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("torchlint-tu"), this);
    T::registerMatchers(Finder);
  }
  void onEndOfTranslationUnit() override {
    // Once per TU (the first check that saw the TU says it): which functions were not judged.
    if (Ctx)
      reportUnjudgedCode(*Ctx);
    T::onEndOfTranslationUnit();
  }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override {
    Ctx = Result.Context;
    if (Result.Nodes.getNodeAs<clang::TranslationUnitDecl>("torchlint-tu")) {
      limitTraversalToUserCode(*Result.Context);
      return;
    }
    T::check(Result);
  }

private:
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint
