// The source text of an expression or statement, one definition each, unit-tested
// (tests/utils/UtilsTest.cpp):
//  - sourceText: the text as the user sees it in the file (code from a macro: the macro call as
//    written), for messages; empty when the range does not map to one file range;
//  - writtenText: the text only when neither end comes from a macro, for fix-its that copy it
//    (a macro's expansion must never be pasted as code).
#pragma once
#include <string>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace torchlint {

std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx);
std::string writtenText(const clang::Stmt *S, const clang::ASTContext &Ctx);

} // namespace torchlint
