#include "rules/LoaderWorkersCheck.h"
#include "core/Recovery.h"
#include "analysis/OptionsFlow.h"
#include "fixits/SetupFixes.h"
#include "fixits/TensorOptionsFix.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

LoaderWorkersCheck::LoaderWorkersCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : TorchCheck(Name, Context), Workers(Options.get("Workers", 4U)) {}

void LoaderWorkersCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Workers", Workers);
}

void LoaderWorkersCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("::torch::data::make_data_loader")))).bind("call"), this);
}

static bool isLoaderOptions(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getQualifiedNameAsString() == "torch::data::DataLoaderOptions";
}

void LoaderWorkersCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  if (!inUserCode(Call->getBeginLoc(), *Result.SourceManager) || Call->getBeginLoc().isMacroID())
    return;
  const FunctionDecl *FD = Call->getDirectCallee();
  int Idx = -1;
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (isLoaderOptions(FD->getParamDecl(I)->getType()))
      Idx = static_cast<int>(I);
  if (Idx < 0 || static_cast<unsigned>(Idx) >= Call->getNumArgs())
    return;

  const std::string N = std::to_string(Workers);
  const std::string Msg =
      "torch::data::make_data_loader() with workers unset or 0 loads and collates every batch in the "
      "training thread, which waits for it on each step; set DataLoaderOptions::workers(N)";
  std::vector<FixItHint> Fixes;
  const Expr *Arg = Call->getArg(Idx);
  if (isa<CXXDefaultArgExpr>(Arg)) {
    insertDefaultedArgument(Call, Idx, "torch::data::DataLoaderOptions().workers(" + N + ")", Ctx, Fixes);
  } else {
    const Expr *W = Arg->IgnoreImplicit();
    while (const auto *Copy = dyn_cast<CXXConstructExpr>(W)) {
      if (!Copy->getConstructor()->isCopyOrMoveConstructor() || Copy->getNumArgs() < 1)
        break;
      W = Copy->getArg(0)->IgnoreImplicit();
    }
    const auto *CE = dyn_cast<CXXConstructExpr>(W);
    if (CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid() && CE->getNumArgs() == 1 &&
        CE->getArg(0)->IgnoreImpCasts()->getType()->isIntegerType()) {
      // A bare batch size: DataLoaderOptions(batch_size) by implicit conversion.
      std::string Text = writtenText(CE->getArg(0)->IgnoreImpCasts(), Ctx);
      if (!Text.empty())
        replaceExpr(CE->getArg(0)->IgnoreImpCasts(), "torch::data::DataLoaderOptions(" + Text + ").workers(" + N + ")",
                    Ctx, Fixes);
    } else {
      OptionValue V = resolveOption(Arg, "workers", Ctx);
      if (!V.isConstant(0))
        return; // set to a run-time value or a positive constant, or not followed
      bool BracedOnly = CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->isListInitialization();
      const Expr *Target = W;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(W))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Target = VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr;
      if (V.K == OptionValue::Set && V.Source)
        replaceExpr(V.Source, N, Ctx, Fixes);
      else if (Target && !BracedOnly && !isa<InitListExpr>(Target) &&
               (!isa<CXXConstructExpr>(Target) || isa<CXXTemporaryObjectExpr>(Target)))
        appendMemberCall(Target, "workers(" + N + ")", Ctx, Fixes);
    }
  }
  // The workers could be set in code that could not be typed on the options' way (issue 24); errors
  // elsewhere in the file do not matter.
  if (evidenceRestsOnErrors(Ctx, {Arg}))
    return;
  auto D = report(Call->getBeginLoc(), Msg);
  for (const FixItHint &F : Fixes)
    D << F;
}

} // namespace torchlint
