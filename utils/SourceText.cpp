#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchlint {

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::string writtenText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return {};
  SourceRange R = S->getSourceRange();
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return {};
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

} // namespace torchlint
