// SARIF 2.1.0 output (validated against OASIS's schema in tests/reports) and input (merge, --baseline).
#include "core/Catalog.h"
#include "core/Findings.h"
#include "report/ReportCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>

namespace torchlint {

static const char FingerprintKey[] = "torchlint/v1";
static const char RootId[] = "SRCROOT";

static llvm::StringRef sarifLevel(llvm::StringRef Level) {
  if (Level == "error" || Level == "fatal")
    return "error";
  if (Level == "warning")
    return "warning";
  return "note";
}

/// The check's doc page, as Markdown, for SARIF's help (GitHub shows it next to the alert).
static std::string helpMarkdown(const CheckInfo &C) {
  auto Buf = llvm::MemoryBuffer::getFile(torchlintHome() + "/" + C.docPath());
  if (Buf)
    return (*Buf)->getBuffer().str();
  return ("# " + C.Name + "\n\n" + C.Description + "\n\nSource: " + C.Seed + "\n").str();
}

void writeSarif(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts) {
  std::string Root = Opts.Root;
  auto Artifact = [&](llvm::StringRef File) {
    std::string Rel = relativeTo(File, Root);
    if (!Root.empty() && Rel != File)
      return llvm::json::Object{{"uri", uriEncode(Rel)}, {"uriBaseId", RootId}};
    return llvm::json::Object{{"uri", fileUri(File)}};
  };
  std::map<std::string, ProbeResult> Probe = loadProbeResults(Opts.ProbeDir);
  llvm::json::Array Rules;
  std::map<std::string, unsigned> RuleIndex;
  for (const CheckInfo &C : catalog()) {
    RuleIndex[C.Name.str()] = static_cast<unsigned>(Rules.size());
    llvm::json::Object Props{{"category", C.Category},
                             {"torchlintLevel", C.Level},
                             {"fixable", C.Fixable},
                             {"seed", C.Seed},
                             {"tags", llvm::json::Array{"performance", C.Category}}};
    auto P = Probe.find(C.Name.str());
    if (P != Probe.end()) {
      Props["measuredSpeedup"] = P->second.Speedup;
      Props["measuredOn"] = P->second.Device;
    }
    Rules.push_back(llvm::json::Object{
        {"id", C.Name},
        {"name", C.ClassName.drop_back(5)},
        {"shortDescription", llvm::json::Object{{"text", C.Summary}}},
        {"fullDescription", llvm::json::Object{{"text", C.Description}}},
        {"help",
         llvm::json::Object{{"text", (C.Description + " Source: " + C.Seed).str()}, {"markdown", helpMarkdown(C)}}},
        {"helpUri", fileUri(torchlintHome() + "/" + C.docPath())},
        {"defaultConfiguration", llvm::json::Object{{"enabled", C.onByDefault()}, {"level", "warning"}}},
        {"properties", std::move(Props)}});
  }
  llvm::json::Array Results, Notifications;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError()) {
      // A compiler error is never a result (it is not a finding about the code's performance):
      // a notification, with its place (docs/reliability.md).
      Notifications.push_back(llvm::json::Object{
          {"level", "error"},
          {"descriptor", llvm::json::Object{{"id", F.Check.empty() ? "clang-diagnostic-error" : F.Check}}},
          {"message", llvm::json::Object{{"text", F.Message}}},
          {"locations",
           llvm::json::Array{llvm::json::Object{
               {"physicalLocation",
                llvm::json::Object{{"artifactLocation", Artifact(F.File)},
                                   {"region", llvm::json::Object{{"startLine", std::max(1u, F.Line)},
                                                                 {"startColumn", std::max(1u, F.Column)},
                                                                 {"charOffset", F.Offset}}}}}}}}});
      continue;
    }
    llvm::json::Object Region{
        {"startLine", std::max(1u, F.Line)}, {"startColumn", std::max(1u, F.Column)}, {"charOffset", F.Offset}};
    std::string Snippet = sourceLine(F.File, F.Line);
    if (!Snippet.empty())
      Region["snippet"] = llvm::json::Object{{"text", Snippet}};
    llvm::json::Object Res{
        {"ruleId", F.Check},
        {"level", sarifLevel(F.Level)},
        {"message", llvm::json::Object{{"text", F.Message}}},
        {"locations", llvm::json::Array{llvm::json::Object{
                          {"physicalLocation", llvm::json::Object{{"artifactLocation", Artifact(F.File)},
                                                                  {"region", std::move(Region)}}}}}}};
    if (!F.Fingerprint.empty())
      Res["partialFingerprints"] = llvm::json::Object{{FingerprintKey, F.Fingerprint}};
    auto It = RuleIndex.find(F.Check);
    if (It != RuleIndex.end())
      Res["ruleIndex"] = It->second;
    if (!F.Notes.empty()) {
      llvm::json::Array Related;
      unsigned Id = 0;
      for (const Note &N : F.Notes) {
        llvm::json::Object Loc{{"id", Id++}, {"message", llvm::json::Object{{"text", N.Message}}}};
        if (!N.File.empty())
          Loc["physicalLocation"] =
              llvm::json::Object{{"artifactLocation", Artifact(N.File)},
                                 {"region", llvm::json::Object{{"startLine", std::max(1u, N.Line)},
                                                               {"startColumn", std::max(1u, N.Column)},
                                                               {"charOffset", N.Offset}}}};
        Related.push_back(std::move(Loc));
      }
      Res["relatedLocations"] = std::move(Related);
    }
    if (!F.Fixes.empty()) {
      std::map<std::string, llvm::json::Array> ByFile;
      for (const Replacement &Rp : F.Fixes)
        ByFile[Rp.File].push_back(llvm::json::Object{
            {"deletedRegion", llvm::json::Object{{"charOffset", Rp.Offset}, {"charLength", Rp.Length}}},
            {"insertedContent", llvm::json::Object{{"text", Rp.Text}}}});
      llvm::json::Array Changes;
      for (auto &[File, Reps] : ByFile)
        Changes.push_back(llvm::json::Object{{"artifactLocation", Artifact(File)}, {"replacements", std::move(Reps)}});
      Res["fixes"] = llvm::json::Array{
          llvm::json::Object{{"description", llvm::json::Object{{"text", "torchlint fix-it for " + F.Check}}},
                             {"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(Res));
  }
  for (const std::string &E : R.Errors)
    Notifications.push_back(llvm::json::Object{{"level", "error"}, {"message", llvm::json::Object{{"text", E}}}});
  for (const std::string &N : R.Notices)
    Notifications.push_back(llvm::json::Object{{"level", "note"}, {"message", llvm::json::Object{{"text", N}}}});
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", llvm::json::Object{{"name", "torchlint"},
                                                                {"version", TORCHLINT_VERSION},
                                                                {"semanticVersion", TORCHLINT_VERSION},
                                                                {"informationUri",
                                                                 fileUri(torchlintHome() + "/docs/checks/README.md")},
                                                                {"rules", std::move(Rules)}}}}},
      {"results", std::move(Results)},
      {"columnKind", "utf16CodeUnits"},
      {"invocations", llvm::json::Array{llvm::json::Object{{"executionSuccessful", !R.hasErrors()},
                                                           {"toolExecutionNotifications", std::move(Notifications)}}}},
      {"properties", llvm::json::Object{{"filesAnalyzed", R.FilesAnalyzed}}}};
  if (!R.Summaries.empty())
    (*Run.getObject("properties"))[SummariesProperty] = summariesJson(R.Summaries);
  if (!Root.empty())
    Run["originalUriBaseIds"] = llvm::json::Object{
        {RootId,
         llvm::json::Object{
             {"uri", fileUri(Root, /*Dir=*/true)},
             {"description", llvm::json::Object{{"text", "The root of the analysed sources (--sarif-root)"}}}}}};
  llvm::json::Object Doc{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                         {"version", "2.1.0"},
                         {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
}

namespace {
std::string str(const llvm::json::Object *O, llvm::StringRef K) {
  if (!O)
    return {};
  auto S = O->getString(K);
  return S ? S->str() : std::string();
}
unsigned num(const llvm::json::Object *O, llvm::StringRef K) {
  if (!O)
    return 0;
  auto N = O->getInteger(K);
  return N && *N > 0 ? static_cast<unsigned>(*N) : 0u;
}
/// file:///a/b -> /a/b
std::string pathOfFileUri(llvm::StringRef U) {
  if (U.consume_front("file://")) {
    U.consume_front("localhost");
    return uriDecode(U);
  }
  return uriDecode(U);
}
} // namespace

bool readSarif(llvm::StringRef Text, RunResult &Out, std::string &Err) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    Err = llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *Doc = V->getAsObject();
  const llvm::json::Array *Runs = Doc ? Doc->getArray("runs") : nullptr;
  if (!Runs) {
    Err = "not a SARIF log (no runs)";
    return false;
  }
  for (const llvm::json::Value &RV : *Runs) {
    const llvm::json::Object *Run = RV.getAsObject();
    if (!Run)
      continue;
    std::map<std::string, std::string> Bases;
    if (const auto *B = Run->getObject("originalUriBaseIds"))
      for (const auto &KV : *B)
        if (const auto *O = KV.second.getAsObject())
          Bases[KV.first.str()] = pathOfFileUri(str(O, "uri"));
    auto Path = [&](const llvm::json::Object *Artifact) -> std::string {
      std::string U = str(Artifact, "uri");
      std::string Base = str(Artifact, "uriBaseId");
      if (!Base.empty()) {
        std::string Dir = Bases.count(Base) ? Bases[Base] : std::string();
        if (!Dir.empty() && Dir.back() != '/')
          Dir += '/';
        return Dir + uriDecode(U);
      }
      return pathOfFileUri(U);
    };
    auto Location = [&](const llvm::json::Object *Phys, std::string &File, unsigned &Line, unsigned &Col,
                        unsigned &Off) {
      if (!Phys)
        return;
      File = Path(Phys->getObject("artifactLocation"));
      const llvm::json::Object *Region = Phys->getObject("region");
      Line = num(Region, "startLine");
      Col = num(Region, "startColumn");
      Off = num(Region, "charOffset");
    };
    if (const auto *P = Run->getObject("properties")) {
      Out.FilesAnalyzed += num(P, "filesAnalyzed");
      if (const auto *Ss = P->getArray(SummariesProperty))
        readSummaries(*Ss, Out);
    }
    if (const auto *Results = Run->getArray("results"))
      for (const llvm::json::Value &ResV : *Results) {
        const llvm::json::Object *Res = ResV.getAsObject();
        if (!Res)
          continue;
        Finding F;
        F.Check = str(Res, "ruleId");
        std::string Level = str(Res, "level");
        F.Level = Level == "note" ? "remark" : Level.empty() ? "warning" : Level;
        F.Message = str(Res->getObject("message"), "text");
        if (const auto *Locs = Res->getArray("locations"))
          if (!Locs->empty())
            if (const auto *L0 = (*Locs)[0].getAsObject())
              Location(L0->getObject("physicalLocation"), F.File, F.Line, F.Column, F.Offset);
        if (const auto *FP = Res->getObject("partialFingerprints"))
          F.Fingerprint = str(FP, FingerprintKey);
        if (const auto *Rel = Res->getArray("relatedLocations"))
          for (const llvm::json::Value &NV : *Rel)
            if (const auto *NO = NV.getAsObject()) {
              Note N;
              N.Message = str(NO->getObject("message"), "text");
              Location(NO->getObject("physicalLocation"), N.File, N.Line, N.Column, N.Offset);
              F.Notes.push_back(std::move(N));
            }
        if (const auto *Fixes = Res->getArray("fixes"))
          for (const llvm::json::Value &FixV : *Fixes)
            if (const auto *Fix = FixV.getAsObject())
              if (const auto *Changes = Fix->getArray("artifactChanges"))
                for (const llvm::json::Value &CV : *Changes)
                  if (const auto *Change = CV.getAsObject()) {
                    std::string File = Path(Change->getObject("artifactLocation"));
                    if (const auto *Reps = Change->getArray("replacements"))
                      for (const llvm::json::Value &RpV : *Reps)
                        if (const auto *Rp = RpV.getAsObject()) {
                          const auto *Del = Rp->getObject("deletedRegion");
                          F.Fixes.push_back({File, num(Del, "charOffset"), num(Del, "charLength"),
                                             str(Rp->getObject("insertedContent"), "text")});
                        }
                  }
        Out.Findings.push_back(std::move(F));
      }
    if (const auto *Invs = Run->getArray("invocations"))
      for (const llvm::json::Value &IV : *Invs)
        if (const auto *Inv = IV.getAsObject())
          if (const auto *Ns = Inv->getArray("toolExecutionNotifications"))
            for (const llvm::json::Value &NV : *Ns)
              if (const auto *N = NV.getAsObject()) {
                const llvm::json::Array *Locs = N->getArray("locations");
                if (str(N, "level") == "error" && Locs && !Locs->empty()) {
                  // A compiler error (writeSarif): a finding of level error again.
                  Finding F;
                  F.Check = str(N->getObject("descriptor"), "id");
                  F.Level = "error";
                  F.Message = str(N->getObject("message"), "text");
                  if (const auto *L0 = (*Locs)[0].getAsObject())
                    Location(L0->getObject("physicalLocation"), F.File, F.Line, F.Column, F.Offset);
                  Out.Findings.push_back(std::move(F));
                } else if (str(N, "level") == "error")
                  Out.Errors.push_back(str(N->getObject("message"), "text"));
                else if (str(N, "level") == "note")
                  Out.Notices.push_back(str(N->getObject("message"), "text"));
              }
  }
  return true;
}

bool readResultsFile(llvm::StringRef Path, RunResult &Out, std::string &Err) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    Err = "cannot read '" + Path.str() + "': " + Buf.getError().message();
    return false;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  auto V = llvm::json::parse(Text);
  if (!V) {
    Err = "'" + Path.str() + "' is not JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *O = V->getAsObject();
  bool Ok;
  if (O && O->getArray("runs"))
    Ok = readSarif(Text, Out, Err);
  else if (O && O->getArray("findings"))
    Ok = readJson(Text, Out, Err);
  else {
    Err = "neither torchlint JSON nor SARIF";
    Ok = false;
  }
  if (!Ok)
    Err = "'" + Path.str() + "': " + Err;
  return Ok;
}

} // namespace torchlint
