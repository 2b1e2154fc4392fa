// Linked only into the static torchlint (TORCHLINT_STATIC, cmake/StaticLink.cmake). LLVMSupport's
// Z3Solver.cpp, which Debian builds against libz3.so, is reached from clang's static analyzer
// (linked through libclangTidy) but never run by torchlint. Defining its few external symbols here
// keeps that archive member, and with it a dependency on libz3, out of the binary. These are the
// definitions LLVM itself uses when it is built without Z3.
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SMTAPI.h"
#include "llvm/Support/raw_ostream.h"

namespace llvm {
SMTSolverRef CreateZ3Solver() {
  report_fatal_error("torchlint was built without the Z3 solver", false);
  return nullptr;
}
void SMTSort::dump() const { print(errs()); }
void SMTExpr::dump() const { print(errs()); }
void SMTSolver::dump() const { print(errs()); }
void SMTSolverStatistics::dump() const { print(errs()); }
} // namespace llvm
