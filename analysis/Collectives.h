// Recognising distributed collectives (c10d) and what they reduce, and the gradient-accumulation
// step pattern of a training loop. Shared by the distributed checks (torch-ddp-no-sync,
// torch-allreduce-per-parameter).
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace torchlint {

/// c10d all-reduce: ProcessGroup/Backend::allreduce or ::allreduce_coalesced (on the base class
/// or a c10d subclass such as ProcessGroupNCCL) and c10d::ops::allreduce*.
bool isAllReduceCall(const clang::CallExpr *C);
/// The tensors argument of an all-reduce call (the vector of tensors), or null.
const clang::Expr *allReduceTensors(const clang::CallExpr *C);
/// True when E is built from gradients: it calls Tensor::grad()/mutable_grad(), or names a local
/// variable that is initialized, filled (push_back/emplace_back/insert/assignment) or iterated
/// from such an expression. Follows local variables of the enclosing function only.
bool isGradientExpr(const clang::Expr *E, clang::ASTContext &Ctx);
/// An optimizer step: step() of a class derived from torch::optim::Optimizer.
bool isOptimizerStep(const clang::CallExpr *C);
/// The accumulation test in a condition: `(i + 1) % N == 0`, `i % N == N - 1`, `!(i % N)`,
/// also through a bool local initialized with one. Returns the `%` expression, or null.
const clang::BinaryOperator *accumulationTest(const clang::Expr *Cond, clang::ASTContext &Ctx);

} // namespace torchlint
