#include "core/TraversalScope.h"
#include "core/Recovery.h"
#include "clang/Basic/SourceManager.h"
#include <cstdlib>
#include <cstring>

using namespace clang;

namespace torchlint {

void limitTraversalToUserCode(ASTContext &Ctx) {
  std::vector<Decl *> Current = Ctx.getTraversalScope();
  if (Current.size() != 1 || !isa<TranslationUnitDecl>(Current.front()))
    return; // already limited (by the CLI, or by another check's matcher)
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Scope;
  // noload_decls(): what the TU parsed itself; a PCH's declarations (all in system headers) are
  // not deserialized.
  for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
    if (!isLibraryLocation(SM, D->getLocation())) // nor libtorch included with -I
      Scope.push_back(D);
  Ctx.setTraversalScope(Scope);
}

namespace {
bool &flag() {
  static bool On = [] {
    const char *E = std::getenv("TORCHLINT_FULL_AST");
    return !(E && *E && std::strcmp(E, "0") != 0);
  }();
  return On;
}
} // namespace

bool moduleLimitsTraversal() { return flag(); }
void setModuleLimitsTraversal(bool On) { flag() = On; }

} // namespace torchlint
