#include "report/CodeQuality.h"
#include "core/Catalog.h"
#include "report/ReportCommon.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA1.h"

namespace torchlint {

/// GitLab's severities: info, minor, major, critical, blocker.
static llvm::StringRef codeQualitySeverity(const Finding &F) {
  if (F.isCompilerError())
    return "critical";
  if (F.Level == "warning")
    return "major";
  if (F.Level == "remark")
    return "minor";
  return "info";
}

void writeCodeQuality(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts) {
  llvm::json::Array Issues;
  for (const Finding &F : R.Findings) {
    std::string Path = relativeTo(F.File, Opts.Root);
    std::string Fingerprint = F.Fingerprint;
    if (Fingerprint.empty()) { // compiler errors: still one stable identity per message and place
      llvm::SHA1 H;
      H.update(F.Check + "\n" + Path + "\n" + std::to_string(F.Line) + "\n" + F.Message);
      Fingerprint = llvm::toHex(H.final(), /*LowerCase=*/true);
    }
    llvm::json::Object Issue{
        {"type", "issue"},
        {"description", F.Message},
        {"check_name", F.Check},
        {"fingerprint", Fingerprint},
        {"severity", codeQualitySeverity(F)},
        {"categories", llvm::json::Array{F.isCompilerError() ? "Bug Risk" : "Performance"}},
        {"location", llvm::json::Object{{"path", Path}, {"lines", llvm::json::Object{{"begin", F.Line}}}}}};
    if (const CheckInfo *C = findCheck(F.Check))
      Issue["content"] = llvm::json::Object{{"body", (C->Summary + "\n\n" + C->Description).str()}};
    Issues.push_back(std::move(Issue));
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Issues))) << "\n";
}

} // namespace torchlint
