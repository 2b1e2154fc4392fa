#include "rules/Tf32MatmulCheck.h"
#include "analysis/NnModules.h"
#include "analysis/TUFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// Modules whose forward() is a cuBLAS matrix product (convolutions use cuDNN, whose TF32 is on by
/// default: at::globalContext().allowTF32CuDNN() starts true).
bool isGemmModule(const CXXRecordDecl *Impl) {
  if (!Impl)
    return false;
  static const llvm::StringRef Names[] = {"LinearImpl",
                                          "BilinearImpl",
                                          "MultiheadAttentionImpl",
                                          "TransformerImpl",
                                          "TransformerEncoderLayerImpl",
                                          "TransformerDecoderLayerImpl",
                                          "LSTMImpl",
                                          "GRUImpl",
                                          "RNNImpl",
                                          "LSTMCellImpl",
                                          "GRUCellImpl",
                                          "RNNCellImpl"};
  return llvm::is_contained(Names, Impl->getName()) && isTorchDecl(Impl);
}
} // namespace

void Tf32MatmulCheck::registerMatchers(MatchFinder *Finder) {
  // Tensor methods and functions of at / torch / torch::nn::functional that run a cuBLAS GEMM.
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("matmul", "mm", "bmm", "addmm", "baddbmm", "addbmm",
                                                             "linear", "bilinear", "einsum", "tensordot"),
                                                  isInTorchHeaders())))
                         .bind("call"),
                     this);
  // A Linear (or attention, recurrent) module's forward: `fc(x)`, `fc->forward(x)`.
  Finder->addMatcher(callExpr(anyOf(cxxOperatorCallExpr(hasOverloadedOperatorName("()")),
                                    cxxMemberCallExpr(callee(cxxMethodDecl(hasName("forward"))))))
                         .bind("module-call"),
                     this);
}

void Tf32MatmulCheck::check(const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::string Name;
  if (Call) {
    Name = cast<FunctionDecl>(Call->getCalleeDecl())->getNameAsString() + "()";
  } else {
    Call = Result.Nodes.getNodeAs<CallExpr>("module-call");
    const Expr *M = moduleOfForwardCall(Call);
    const CXXRecordDecl *Impl = M ? moduleImplOf(M->getType()) : nullptr;
    if (!isGemmModule(Impl))
      return;
    Name = Impl->getName().drop_back(4).str() + " forward()";
  }
  if (!inUserCode(Call->getExprLoc(), SM))
    return;
  if (!hotContext(Call, *Result.Context))
    return; // a product outside the loop (a one-off set-up computation)
  if (First && !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Call->getExprLoc()), SM.getExpansionLoc(FirstLoc)))
    return;
  First = Call;
  FirstLoc = Call->getExprLoc();
  FirstName = Name;
  Ctx = Result.Context;
}

void Tf32MatmulCheck::onEndOfTranslationUnit() {
  if (!First || !Ctx)
    return;
  const TUFacts &Facts = TUFacts::get(*Ctx);
  SourceLocation Cuda = Facts.usesCUDA();
  // Quiet: no CUDA; products in fp16/bf16 or under autocast (no fp32 GEMM to speed up); fp64 in
  // the file (the program cares about precision); the precision already decided either way.
  bool Decided = Facts.firstCall("at::Context::setAllowTF32CuBLAS").isValid() ||
                 Facts.firstCall("at::Context::setFloat32MatmulPrecision").isValid() ||
                 Facts.firstCall("at::Context::setFloat32Precision").isValid();
  if (Cuda.isInvalid() || Facts.usesAutocast().isValid() || Facts.usesReducedPrecision().isValid() ||
      Facts.firstEnumerator("ScalarType::Double").isValid() || Decided) {
    First = nullptr;
    return;
  }
  std::string Enable = torchVersion().atLeast(2, 0) ? "`at::globalContext().setFloat32MatmulPrecision(\"high\");`"
                                                    : "`at::globalContext().setAllowTF32CuBLAS(true);`";
  report(FirstLoc,
         FirstName + " runs a float32 matrix product on CUDA (CUDA from line " + std::to_string(Facts.line(Cuda)) +
             ") and the file never allows TF32 for cuBLAS, so on Ampere and newer GPUs it runs in full fp32 "
             "instead of on tensor cores (up to 8x the fp32 throughput on an A100); if the model tolerates "
             "inputs rounded to a 10-bit mantissa (relative error ~1e-3 per product, fp32 range and "
             "accumulation), call " +
             Enable + " once at start-up",
         hotContext(First, *Ctx));
  First = nullptr;
}

} // namespace torchlint
