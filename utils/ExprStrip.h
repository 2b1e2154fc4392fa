// Stripping what C++ adds around an expression, one definition each, unit-tested
// (tests/utils/UtilsTest.cpp). Every check and analysis asks these instead of writing its own loop:
//  - stripTemporaries: parentheses, implicit casts and the nodes around temporaries
//    (materialisation, binding, cleanups, constant-expression wrappers);
//  - stripCopies: that, plus copies and moves of the value (a copy or move constructor, a
//    functional cast that only converts): `torch::Tensor t = f(x);` initialiser -> `f(x)`;
//  - stripToWritten: what the user wrote where C++ converts implicitly (a one-argument
//    converting construction the user did not spell as `T(x)`): `Device d = "cuda";` -> "cuda".
#pragma once

namespace clang {
class Expr;
} // namespace clang

namespace torchlint {

const clang::Expr *stripTemporaries(const clang::Expr *E);
const clang::Expr *stripCopies(const clang::Expr *E);
const clang::Expr *stripToWritten(const clang::Expr *E);

} // namespace torchlint
