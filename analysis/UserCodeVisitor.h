// UserCodeVisitor: a RecursiveASTVisitor over the user's code only, written once. A visitor that
// collects facts of the user's declarations (analysis/ProgramFacts' collector, LocalDataflow's
// field writes) derives from UserCodeVisitor<Derived>: declarations located in libtorch's or
// the system's headers (core/Recovery.h isLibraryLocation) are skipped whole, template
// instantiations and lambda bodies are visited.
#pragma once

#include "core/Recovery.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace torchlint {

template <typename Derived> class UserCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  explicit UserCodeVisitor(const clang::SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(clang::Decl *D) {
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) && isLibraryLocation(SM, D->getLocation()))
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseDecl(D);
  }

protected:
  const clang::SourceManager &SM;
};

} // namespace torchlint
