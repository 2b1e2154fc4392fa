#include "checkbase/SyncCheck.h"
#include "analysis/ProgramFacts.h"
#include "analysis/RarePath.h"
#include "analysis/TUFacts.h"

using namespace clang;

namespace torchlint {

std::optional<SyncSite> SyncCheck::assess(const Stmt *At, const Expr *Tensor, ASTContext &Ctx) {
  if (!At || !inUserCode(At->getBeginLoc(), Ctx.getSourceManager()))
    return std::nullopt;
  auto Hot = hotContext(At, Ctx);
  if (!Hot || cpuOnlyProgram(Ctx))
    return std::nullopt;
  SyncSite S;
  S.Hot = *Hot;
  if (Tensor) {
    S.Device = deviceOf(Tensor, Ctx);
    if (S.Device == DeviceKind::CPU)
      return std::nullopt;
    // On the host if the fields it reads are: the project model decides (HotContext::HostIfFields).
    llvm::SmallVector<const FieldDecl *, 2> Fields;
    if (S.Device == DeviceKind::Unknown && deviceIfFieldsOnHost(Tensor, Ctx, Fields) == DeviceKind::CPU)
      S.Hot.HostIfFields.assign(Fields.begin(), Fields.end());
  }
  // With the project model, rarity through calls is decided over every file's calls (a helper
  // called only in a logging branch here may run on every step from another file): this TU says
  // only what is around the site in its own function.
  if (std::optional<RarePath> R = projectMode() ? localRarePath(At, Ctx) : rarePath(At, Ctx)) {
    // Once per logging interval is what the advice asks for: nothing to say.
    if (R->OncePerInterval)
      return std::nullopt;
    S.Rare = R->Reason;
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
