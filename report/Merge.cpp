// `torchlint merge OUT IN...`: merges the SARIF or JSON results of shards (--shard K/N) into one.
#include "utils/JsonFile.h"
#include "core/Catalog.h"
#include "core/Findings.h"
#include "report/CodeQuality.h"
#include "report/ReportCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torchlint {

static const char MergeUsage[] =
    "usage: torchlint merge [--format=sarif|json|html|markdown|text|codequality] [--sarif-root=DIR] OUT IN...\n"
    "  Merges the results (SARIF or JSON, as torchlint writes them) of shards into OUT. The format\n"
    "  is --format, else OUT's extension (.sarif, .json, .html, .md), else that of the first input.\n"
    "  Shards of a project-mode run (-p BUILD --shard K/N) carry the summaries of the files they\n"
    "  analysed: their findings are decided here by the project model of all of them.\n"
    "  Exit codes as an analysis: 0 clean, 1 findings, 2 errors (unreadable inputs included).\n";

/// The SRCROOT of a SARIF file, or empty.
static std::string sarifRootOf(llvm::StringRef Path) {
  std::optional<llvm::json::Value> V = readJsonFile(Path);
  if (!V)
    return {};
  const auto *Doc = V->getAsObject();
  const auto *Runs = Doc ? Doc->getArray("runs") : nullptr;
  if (!Runs || Runs->empty())
    return {};
  const auto *Run = (*Runs)[0].getAsObject();
  const auto *Bases = Run ? Run->getObject("originalUriBaseIds") : nullptr;
  const auto *Root = Bases ? Bases->getObject("SRCROOT") : nullptr;
  auto U = Root ? Root->getString("uri") : std::nullopt;
  if (!U)
    return {};
  llvm::StringRef S = *U;
  S.consume_front("file://");
  return uriDecode(S.rtrim('/').empty() ? "/" : S.rtrim('/'));
}

int mergeMain(int Argc, const char **Argv, const std::function<void(RunResult &)> &Decide) {
  std::string Format, Root;
  std::vector<std::string> Pos;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << MergeUsage;
      return 0;
    }
    if (A.consume_front("--format="))
      Format = A.str();
    else if (A.consume_front("--sarif-root="))
      Root = A.str();
    else if (A.starts_with("-") && A != "-") {
      llvm::errs() << "torchlint merge: error: unknown option '" << A << "'\n" << MergeUsage;
      return 2;
    } else
      Pos.push_back(A.str());
  }
  if (Pos.size() < 2) {
    llvm::errs() << "torchlint merge: error: need OUT and at least one IN\n" << MergeUsage;
    return 2;
  }
  std::string Out = Pos.front();
  RunResult R;
  bool AnySarif = false;
  for (size_t I = 1; I < Pos.size(); ++I) {
    std::string Err;
    if (!readResultsFile(Pos[I], R, Err)) {
      R.Errors.push_back("merge: " + Err);
      continue;
    }
    std::string SR = sarifRootOf(Pos[I]);
    if (!SR.empty() || llvm::StringRef(Pos[I]).ends_with(".sarif"))
      AnySarif = true;
    if (Root.empty())
      Root = SR;
  }
  if (Format.empty()) {
    llvm::StringRef Ext = llvm::sys::path::extension(Out);
    if (Ext == ".sarif" || llvm::StringRef(Out).ends_with(".sarif.json"))
      Format = "sarif";
    else if (Ext == ".json")
      Format = "json";
    else if (Ext == ".html")
      Format = "html";
    else if (Ext == ".md")
      Format = "markdown";
    else
      Format = AnySarif ? "sarif" : "json";
  }
  if (Root.empty()) {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Root = std::string(Cwd);
  } else {
    llvm::SmallString<256> Abs(Root);
    llvm::sys::fs::make_absolute(Abs);
    Root = std::string(Abs);
  }
  if (Decide)
    Decide(R);
  R.Summaries.clear();
  R.sort();
  computeFingerprints(R);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Out == "-" ? "-" : Out, EC);
  if (EC) {
    llvm::errs() << "torchlint merge: error: cannot write '" << Out << "': " << EC.message() << "\n";
    return 2;
  }
  ReportOptions Opts;
  Opts.Root = Root;
  Opts.ProbeDir = torchlintHome() + "/docs/probe";
  if (Format == "sarif")
    writeSarif(OS, R, Opts);
  else if (Format == "json")
    writeJson(OS, R);
  else if (Format == "html")
    writeHtml(OS, R, Opts);
  else if (Format == "markdown")
    writeMarkdown(OS, R, Opts);
  else if (Format == "text")
    writeText(OS, R, false);
  else if (Format == "codequality") // GitLab Code Quality (CodeQuality.cpp)
    writeCodeQuality(OS, R, Opts);
  else {
    llvm::errs() << "torchlint merge: error: unknown --format '" << Format << "'\n";
    return 2;
  }
  for (const std::string &E : R.Errors)
    llvm::errs() << "torchlint merge: error: " << E << "\n";
  for (const std::string &N : R.Notices)
    llvm::errs() << "torchlint merge: note: " << N << "\n";
  return R.exitCode();
}

} // namespace torchlint
