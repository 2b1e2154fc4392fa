// Stripping what C++ adds around an expression, one definition each, unit-tested
// (tests/utils/UtilsTest.cpp). Every check and analysis asks these instead of writing its own loop:
//  - stripTemporaries: parentheses, implicit casts and the nodes around temporaries
//    (materialisation, binding, cleanups, constant-expression wrappers);
//  - stripCopies: that, plus copies and moves of the value (a copy or move constructor, a
//    functional cast that only converts, a braced list around one value of the same class):
//    `torch::Tensor t = f(x);` or `t{f(x)}` initialiser -> `f(x)`;
//  - stripMoves: that, plus `std::move(x)` (x's value, handed on): `v_(std::move(v))` -> `v`;
//  - stripToWritten: what the user wrote where C++ converts implicitly (a one-argument
//    converting construction the user did not spell as `T(x)`): `Device d = "cuda";` -> "cuda";
//  - bracedList: the braced list an argument was written as where C++ makes an initializer_list
//    of it, or an ArrayRef of that (`t.index({Slice(), i})`) -> `{Slice(), i}`;
//  - elementAccess: a class's subscript or at() call split into container and index
//    (`v[i]`, `v.at(i)` -> `v`, `i`).
#pragma once

namespace clang {
class Expr;
class InitListExpr;
} // namespace clang

namespace torchlint {

const clang::Expr *stripTemporaries(const clang::Expr *E);
const clang::Expr *stripCopies(const clang::Expr *E);
const clang::Expr *stripMoves(const clang::Expr *E);
const clang::Expr *stripToWritten(const clang::Expr *E);
/// The braced list Arg was written as (through the std::initializer_list C++ makes of it and a
/// one-argument construction from that: c10::ArrayRef<TensorIndex>); null when it is not one.
const clang::InitListExpr *bracedList(const clang::Expr *Arg);
/// E is `c[i]` (a class's operator[]) or `c.at(i)`: true, with Container and Index set.
bool elementAccess(const clang::Expr *E, const clang::Expr *&Container, const clang::Expr *&Index);

} // namespace torchlint
