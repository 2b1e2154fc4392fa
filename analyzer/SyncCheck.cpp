#include "SyncCheck.h"
#include "RarePath.h"

using namespace clang;

namespace torchlint {

std::optional<SyncSite> SyncCheck::assess(const Stmt *At, const Expr *Tensor, ASTContext &Ctx) {
  if (!At || !inUserCode(At->getBeginLoc(), Ctx.getSourceManager()))
    return std::nullopt;
  auto Hot = hotContext(At, Ctx);
  if (!Hot)
    return std::nullopt;
  SyncSite S;
  S.Hot = *Hot;
  if (Tensor) {
    S.Device = deviceOf(Tensor, Ctx);
    if (S.Device == DeviceKind::CPU)
      return std::nullopt;
  }
  S.Rare = rarePathReason(At, Ctx);
  return S;
}

DiagnosticBuilder SyncCheck::reportSync(SourceLocation Loc, llvm::StringRef Message, const SyncSite &Site) {
  if (Site.Rare)
    return report(Loc, (Message + "; a remark, not a warning: " + *Site.Rare).str(), Site.Hot,
                  DiagnosticIDs::Remark);
  return report(Loc, Message, Site.Hot);
}

} // namespace torchlint
