#include "fixits/SetupFixes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchlint {

static bool editable(SourceRange R) { return R.isValid() && R.getBegin().isFileID() && R.getEnd().isFileID(); }

static bool isPostfix(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return isa<CXXTemporaryObjectExpr>(CE) || CE->getParenOrBraceRange().isValid();
  return isa<ParenExpr, DeclRefExpr, CallExpr, MemberExpr, CXXFunctionalCastExpr, ArraySubscriptExpr>(E);
}

bool appendMemberCall(const Expr *E, llvm::StringRef Call, const ASTContext &Ctx, std::vector<FixItHint> &Out) {
  if (!E)
    return false;
  SourceRange R = E->getSourceRange();
  if (!editable(R))
    return false;
  SourceLocation End = Lexer::getLocForEndOfToken(R.getEnd(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (End.isInvalid())
    return false;
  if (isPostfix(E)) {
    Out.push_back(FixItHint::CreateInsertion(End, ("." + Call).str()));
  } else {
    Out.push_back(FixItHint::CreateInsertion(R.getBegin(), "("));
    Out.push_back(FixItHint::CreateInsertion(End, (")." + Call).str()));
  }
  return true;
}

bool wrapArguments(llvm::ArrayRef<const Expr *> Args, llvm::StringRef Prefix, llvm::StringRef Suffix,
                   const ASTContext &Ctx, std::vector<FixItHint> &Out) {
  const Expr *First = nullptr, *Last = nullptr;
  for (const Expr *A : Args) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    if (!First)
      First = A;
    Last = A;
  }
  if (!First || !editable(First->getSourceRange()) || !editable(Last->getSourceRange()))
    return false;
  SourceLocation End = Lexer::getLocForEndOfToken(Last->getEndLoc(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (End.isInvalid())
    return false;
  Out.push_back(FixItHint::CreateInsertion(First->getBeginLoc(), Prefix));
  Out.push_back(FixItHint::CreateInsertion(End, Suffix));
  return true;
}

bool replaceExpr(const Expr *E, llvm::StringRef Text, const ASTContext &, std::vector<FixItHint> &Out) {
  if (!E || !editable(E->getSourceRange()))
    return false;
  Out.push_back(FixItHint::CreateReplacement(CharSourceRange::getTokenRange(E->getSourceRange()), Text));
  return true;
}

bool insertDefaultedArgument(const CallExpr *C, unsigned Idx, llvm::StringRef Text, const ASTContext &Ctx,
                             std::vector<FixItHint> &Out) {
  if (!C || Idx >= C->getNumArgs())
    return false;
  for (unsigned I = 0; I < C->getNumArgs(); ++I)
    if ((I < Idx) == isa<CXXDefaultArgExpr>(C->getArg(I)))
      return false;
  if (Idx == 0) {
    // `f()` -> `f(Text)`: before the closing parenthesis.
    SourceLocation RParen = C->getRParenLoc();
    if (!editable(SourceRange(C->getCallee()->getEndLoc(), RParen)))
      return false;
    Out.push_back(FixItHint::CreateInsertion(RParen, Text.str()));
    return true;
  }
  const Expr *Prev = C->getArg(Idx - 1);
  if (!editable(Prev->getSourceRange()))
    return false;
  SourceLocation End = Lexer::getLocForEndOfToken(Prev->getEndLoc(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (End.isInvalid())
    return false;
  Out.push_back(FixItHint::CreateInsertion(End, (", " + Text).str()));
  return true;
}

static std::string indentationOf(SourceLocation Loc, const SourceManager &SM) {
  llvm::StringRef Buf = SM.getBufferData(SM.getFileID(Loc));
  unsigned Off = SM.getFileOffset(Loc);
  unsigned LineStart = Off;
  while (LineStart > 0 && Buf[LineStart - 1] != '\n')
    --LineStart;
  unsigned I = LineStart;
  while (I < Buf.size() && (Buf[I] == ' ' || Buf[I] == '\t'))
    ++I;
  return Buf.substr(LineStart, I - LineStart).str();
}

bool insertAtFunctionStart(const FunctionDecl *FD, llvm::StringRef Stmt, const ASTContext &Ctx,
                           std::vector<FixItHint> &Out) {
  const auto *Body = FD ? dyn_cast_or_null<CompoundStmt>(FD->getBody()) : nullptr;
  if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Indent;
  if (!Body->body_empty() && Body->body_front()->getBeginLoc().isFileID() &&
      SM.getSpellingLineNumber(Body->body_front()->getBeginLoc()) != SM.getSpellingLineNumber(Body->getLBracLoc()))
    Indent = indentationOf(Body->body_front()->getBeginLoc(), SM);
  else
    Indent = indentationOf(FD->getBeginLoc(), SM) + "  ";
  SourceLocation After = Body->getLBracLoc().getLocWithOffset(1);
  Out.push_back(FixItHint::CreateInsertion(After, ("\n" + Indent + Stmt).str()));
  return true;
}

bool insertBeforeStatement(const Stmt *S, llvm::StringRef Stmt, const ASTContext &Ctx, std::vector<FixItHint> &Out) {
  if (!S || !S->getBeginLoc().isFileID())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = S->getBeginLoc();
  llvm::StringRef Buf = SM.getBufferData(SM.getFileID(Begin));
  unsigned Off = SM.getFileOffset(Begin);
  for (unsigned I = Off; I > 0 && Buf[I - 1] != '\n'; --I)
    if (Buf[I - 1] != ' ' && Buf[I - 1] != '\t')
      return false; // S does not start its line
  Out.push_back(FixItHint::CreateInsertion(Begin, (Stmt + "\n" + indentationOf(Begin, SM)).str()));
  return true;
}

} // namespace torchlint
