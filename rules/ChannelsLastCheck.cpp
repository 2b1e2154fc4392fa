#include "rules/ChannelsLastCheck.h"
#include "analysis/TUFacts.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {
/// ConvOptions<2> / ConvTransposeOptions<2>: the options of a 2-D (4-D tensor) convolution.
AST_MATCHER(CXXRecordDecl, isTwoDimensionalConvOptions) {
  const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(&Node);
  if (!S || (S->getName() != "ConvOptions" && S->getName() != "ConvTransposeOptions"))
    return false;
  const TemplateArgumentList &Args = S->getTemplateArgs();
  return Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Integral && Args[0].getAsIntegral() == 2;
}
} // namespace

void ChannelsLastCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxConstructExpr(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(cxxRecordDecl(
                           anyOf(hasAnyName("::torch::nn::Conv2d", "::torch::nn::Conv2dImpl",
                                            "::torch::nn::ConvTranspose2d", "::torch::nn::ConvTranspose2dImpl"),
                                 allOf(isInTorchHeaders(), isTwoDimensionalConvOptions()))))))))
          .bind("ctor"),
      this);
}

void ChannelsLastCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Ctor = Result.Nodes.getNodeAs<CXXConstructExpr>("ctor");
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getExpansionLoc(Ctor->getBeginLoc());
  if (!inUserCode(Loc, SM) || Ctor->getParenOrBraceRange().isInvalid())
    return; // not `{nullptr}`-style empty holders without arguments either
  if (Ctor->getNumArgs() == 1 && Ctor->getArg(0)->getType()->isNullPtrType())
    return; // torch::nn::Conv2d conv{nullptr}: an empty holder, assigned later
  if (FirstConv.isValid() && !SM.isBeforeInTranslationUnit(Loc, FirstConv))
    return;
  FirstConv = Loc;
  const CXXRecordDecl *RD = Ctor->getType()->getAsCXXRecordDecl();
  ConvName = RD && RD->getName().contains("Transpose") ? "ConvTranspose2d" : "Conv2d";
  Ctx = Result.Context;
}

void ChannelsLastCheck::onEndOfTranslationUnit() {
  if (FirstConv.isInvalid() || !Ctx)
    return;
  const TUFacts &Facts = TUFacts::get(*Ctx);
  SourceLocation Cuda = Facts.usesCUDA();
  if (Cuda.isInvalid() || Facts.firstEnumerator("MemoryFormat::ChannelsLast").isValid())
    return;
  report(FirstConv, "this model's " + ConvName + " layers run on CUDA (from line " + std::to_string(Facts.line(Cuda)) +
                        ") in the default NCHW layout, and the file never converts anything to "
                        "torch::MemoryFormat::ChannelsLast: cuDNN's fastest Tensor Core convolutions work in "
                        "NHWC, so NCHW convolutions pay internal layout transposes or use slower kernels; convert the "
                        "input batches and the conv "
                        "weights with .contiguous(torch::MemoryFormat::ChannelsLast) (most useful with AMP)");
  FirstConv = SourceLocation();
}

} // namespace torchlint
