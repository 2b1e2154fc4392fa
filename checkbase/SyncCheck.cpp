#include "checkbase/SyncCheck.h"
#include "analysis/Collectives.h"
#include "analysis/LocalDataflow.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RarePath.h"
#include "analysis/TUFacts.h"
#include "model/LocalModel.h"
#include "model/TUSummary.h"

using namespace clang;

namespace torchlint {

/// `auto loss = optimizer.step(closure); if (loss.defined()) return loss.item();` in a wrapper that
/// forwards its caller's closure (a GradScaler, a trainer's step helper): Optimizer::step() returns
/// the closure's loss, and an undefined tensor without one, so the read runs only for a caller that
/// passes a closure, and what it costs belongs to that caller's loop, not to the wrapper. The step's
/// argument is absent, a null pointer, or a parameter of the enclosing function.
static bool lossOfForwardedClosure(const Expr *Tensor, ASTContext &Ctx, unsigned Depth = 0) {
  const Expr *E = stripCopies(Tensor);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() || Depth > 2)
      return false;
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.empty())
      return false;
    for (const Expr *Value : V.Values)
      if (!lossOfForwardedClosure(Value, Ctx, Depth + 1))
        return false;
    return true;
  }
  const auto *Step = dyn_cast_or_null<CXXMemberCallExpr>(E);
  if (!Step || !isOptimizerStep(Step))
    return false;
  if (Step->getNumArgs() == 0)
    return true;
  const Expr *Arg = Step->getArg(0);
  if (isa<CXXDefaultArgExpr>(Arg))
    return true;
  Arg = Arg->IgnoreImplicit()->IgnoreParens();
  while (const auto *C = dyn_cast<CXXConstructExpr>(Arg)) { // std::function from a pointer or a copy
    if (C->getNumArgs() != 1)
      return false;
    Arg = C->getArg(0)->IgnoreImplicit()->IgnoreParens();
  }
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(Arg))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
  return Ref && isa<ParmVarDecl>(Ref->getDecl());
}

std::optional<SyncSite> SyncCheck::assess(const Stmt *At, const Expr *Tensor, ASTContext &Ctx) {
  if (!At || !inUserCode(At->getBeginLoc(), Ctx.getSourceManager()))
    return std::nullopt;
  auto Hot = hotContext(At, Ctx);
  if (!Hot || cpuOnlyProgram(Ctx))
    return std::nullopt;
  SyncSite S;
  S.Hot = *Hot;
  if (Tensor) {
    if (lossOfForwardedClosure(Tensor, Ctx))
      return std::nullopt;
    S.Device = deviceOf(Tensor, Ctx);
    if (S.Device == DeviceKind::CPU)
      return std::nullopt;
    // On the host if the fields it reads are: the project model decides (HotContext::HostIf).
    // Likewise the parameters that no call in this TU tells about, and what functions of other
    // files return.
    HostAssumptions If;
    If.AcrossFiles = projectMode();
    if (S.Device == DeviceKind::Unknown && deviceIfHost(Tensor, Ctx, If) == DeviceKind::CPU &&
        hostConfirmedHere(std::move(If), S.Hot, Ctx))
      return std::nullopt;
  }
  // A TU that never names CUDA (a library TU: an agent, a model's .cpp): the sync matters only if
  // a program that runs this code uses CUDA, which the project model decides.
  if (projectMode() && (!Tensor || S.Device == DeviceKind::Unknown)) {
    const TUFacts &T = TUFacts::get(Ctx);
    S.Hot.IfProgramUsesCUDA = T.usesCUDA().isInvalid() && T.opaqueDevice().isInvalid();
  }
  // With the project model, rarity through calls is decided over every file's calls (a helper
  // called only in a logging branch here may run on every step from another file): this TU says
  // only what is around the site in its own function.
  if (std::optional<RarePath> R = projectMode() ? localRarePath(At, Ctx) : rarePath(At, Ctx)) {
    // Once per logging interval is what the advice asks for: nothing to say.
    if (R->OncePerInterval)
      return std::nullopt;
    S.Rare = R->Reason;
  } else if (!projectMode()) {
    // One file alone: a function this file reaches only through logging branches and from code
    // outside training (model/LocalModel.h), as the project model decides it for a project.
    const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
    if (const FunctionDecl *F = HC.enclosingFunction(At))
      if (const model::LocalModel::Rare *LR = model::LocalModel::get(Ctx).rareOnly(model::usrOf(F))) {
        if (LR->OncePerInterval && !HC.enclosingLoop(At))
          return std::nullopt;
        S.Rare = LR->Why;
      }
  }
  return S;
}

bool SyncCheck::cpuOnlyProgram(ASTContext &Ctx) {
  const TUFacts &T = TUFacts::get(Ctx);
  return ProgramFacts::get(Ctx).Main && T.usesCUDA().isInvalid() && T.opaqueDevice().isInvalid();
}

DiagnosticBuilder SyncCheck::reportSync(SourceLocation Loc, llvm::StringRef Message, const SyncSite &Site) {
  if (Site.Rare) {
    HotContext Hot = Site.Hot;
    // Rare through its calls: the function is called in the loop, not on every iteration.
    if (llvm::StringRef(*Site.Rare).starts_with("every call of ")) {
      size_t At = Hot.Why.find(", called on every iteration of the loop");
      if (At != std::string::npos)
        Hot.Why.replace(At, strlen(", called on every iteration of the loop"), ", called in the loop");
    }
    return report(Loc, (Message + "; a remark, not a warning: " + *Site.Rare).str(), Hot, DiagnosticIDs::Remark);
  }
  return report(Loc, Message, Site.Hot);
}

} // namespace torchlint
