#include "rules/Float64OnDeviceCheck.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "analysis/TensorDtype.h"
#include "analysis/TensorShapes.h"
#include "fixits/TensorOptionsFix.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
const char Why[] = "most GPUs run float64 arithmetic at 1/32 to 1/64 of the float32 rate, without tensor cores, "
                   "and move twice the bytes";

bool isDouble(const std::string &T) { return T == "Double"; }

/// A tensor of a proven shape with few elements (an accumulator, a scalar constant): its
/// float64 arithmetic costs nothing worth a change.
bool isSmall(const Expr *E, ASTContext &Ctx) {
  auto S = provenShape(E, Ctx);
  if (!S)
    return false;
  int64_t N = 1;
  for (int64_t D : *S)
    N *= D;
  return N < 4096;
}

/// The argument of a `.to(...)`-like call that denotes float64 (a ScalarType or options whose
/// dtype is kDouble), or null.
const Expr *doubleArgument(const CallExpr *Call, ASTContext &Ctx) {
  for (const Expr *A : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(A) && isDouble(scalarTypeDenotedBy(A, Ctx)))
      return A;
  return nullptr;
}

/// True when a Device / options argument of Call provably denotes the CPU (`.to(kCPU, kDouble)`).
bool toCpu(const CallExpr *Call, ASTContext &Ctx) {
  for (const Expr *A : Call->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      continue;
    const Expr *S = stripCopies(A);
    if (isDeviceLikeType(S->getType()) || isTensorOptionsType(S->getType()))
      if (isConstantCpuDevice(A) || deviceDenotedBy(A, Ctx) == DeviceKind::CPU)
        return true;
  }
  return false;
}
} // namespace

void Float64OnDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("to"), ofClass(hasName("::torch::nn::Module"))))).bind("module"),
      this);
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("to", "toType", "double", "cuda"), isTensorMethod()).bind("m")))
          .bind("tensor"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(isTensorFactoryDecl()))).bind("factory"), this);
}

void Float64OnDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  auto CudaProgram = [&] { return TUFacts::get(Ctx).usesCUDA().isValid(); };

  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("module")) {
    if (!inUserCode(Call->getExprLoc(), SM) || !doubleArgument(Call, Ctx) || toCpu(Call, Ctx) || !CudaProgram())
      return;
    report(Call->getExprLoc(),
           std::string("module converted to float64 in a program that runs on CUDA: its parameters, gradients and "
                       "activations become double, and ") +
               Why +
               "; keep the module and its inputs in float32 (torch::kFloat) and keep float64 on the host for "
               "metrics and accumulators",
           hotContext(Call, Ctx));
    return;
  }

  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("tensor")) {
    const auto *M = Result.Nodes.getNodeAs<CXXMethodDecl>("m");
    SourceLocation Loc = Call->getExprLoc();
    if (!inUserCode(Loc, SM) || Loc.isMacroID())
      return;
    const Expr *Obj = Call->getImplicitObjectArgument();
    bool Converts = M->getName() == "double" || doubleArgument(Call, Ctx);
    bool Copies = false;
    if (!Converts) {
      // `.to(device)` / `.cuda()` of a tensor that is provably float64 on the host.
      if (M->getName() == "cuda")
        Copies = true;
      else if (M->getName() == "to")
        if (const Expr *Dev = deviceArgumentOfTo(Call))
          Copies = !isConstantCpuDevice(Dev) && deviceDenotedBy(Dev, Ctx) != DeviceKind::CPU;
      if (!Copies || Call->getNumArgs() > 1 && scalarTypeDenotedBy(Call->getArg(1), Ctx) != "")
        return; // not a copy, or a copy that converts (`.to(device, kFloat)`)
      if (!isDouble(scalarTypeOf(Obj, Ctx)))
        return;
    } else {
      if (toCpu(Call, Ctx))
        return;
      // Converted where it lives: on the host, unless the call also moves it.
      bool Moves = M->getName() == "to" && deviceArgumentOfTo(Call);
      if (!Moves && deviceOf(Obj, Ctx) == DeviceKind::CPU)
        return;
    }
    if (isSmall(Obj, Ctx) || (!CudaProgram() && !projectMode()))
      return;
    auto Hot = hotContext(Call, Ctx);
    if (!Hot)
      return; // once, in set-up code (a checkpoint converted on load)
    // A TU that never names CUDA (an agent's trainer handed its device by main()): the project
    // model keeps the finding if a program that runs this code uses CUDA.
    if (!CudaProgram())
      Hot->IfProgramUsesCUDA = true;
    if (Copies)
      report(Loc,
             std::string("a float64 tensor is copied to the device in a program that runs on CUDA: its arithmetic "
                         "there runs in double, and ") +
                 Why + "; convert it to float32 once, where the data is made or loaded",
             Hot);
    else
      report(Loc,
             std::string(M->getName() == "to" && deviceArgumentOfTo(Call) ? "tensor moved to the device as float64: "
                         : deviceOf(Obj, Ctx) == DeviceKind::Accelerator
                             ? "tensor converted to float64 on the device: "
                             : "tensor converted to float64 in a program that runs on CUDA (it is not known to be on "
                               "the host): ") +
                 Why +
                 "; compute in float32, and convert to double on the host only what needs it (metrics, "
                 "accumulators)",
             Hot);
    return;
  }

  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("factory")) {
    if (!inUserCode(Call->getBeginLoc(), SM) || Call->getBeginLoc().isMacroID())
      return;
    const FunctionDecl *FD = Call->getDirectCallee();
    const Expr *Options = nullptr;
    for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
      if (isTensorOptionsType(FD->getParamDecl(I)->getType()) && !isa<CXXDefaultArgExpr>(Call->getArg(I)))
        Options = Call->getArg(I);
    if (!Options || !isDouble(scalarTypeDenotedBy(Options, Ctx)))
      return;
    bool NoDevice = false;
    if (deviceDenotedBy(Options, Ctx, &NoDevice) == DeviceKind::CPU || NoDevice || isConstantCpuDevice(Options))
      return; // a double tensor on the host
    if (isSmall(Call, Ctx) || !CudaProgram())
      return;
    report(Call->getBeginLoc(),
           std::string("float64 tensor created on the device in a program that runs on CUDA: ") + Why +
               "; create it as float32 (torch::kFloat)",
           hotContext(Call, Ctx));
  }
}

} // namespace torchlint
