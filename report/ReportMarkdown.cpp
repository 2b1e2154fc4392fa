// --format=markdown: a summary for pull-request comments (GitHub / GitLab flavoured Markdown).
#include "core/Catalog.h"
#include "core/Findings.h"
#include "report/ReportCommon.h"
#include "llvm/Support/FormatVariadic.h"

namespace torchlint {

namespace {
/// Escapes text for a Markdown table cell or a list item.
std::string md(llvm::StringRef S) {
  std::string O;
  for (char C : S) {
    if (llvm::StringRef("|*_`<>[]\\").contains(C))
      O += '\\';
    O += C == '\n' ? ' ' : C;
  }
  return O;
}
const unsigned MaxListed = 50;
} // namespace

void writeMarkdown(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts) {
  std::vector<CheckCount> ByCheck = countByCheck(R);
  std::vector<FileCount> ByFile = countByFile(R);
  std::map<std::string, ProbeResult> Probe = loadProbeResults(Opts.ProbeDir);
  unsigned N = R.findingCount();
  OS << "### torchlint: " << N << (N == 1 ? " finding" : " findings") << " in " << ByFile.size()
     << (ByFile.size() == 1 ? " file" : " files") << " (" << R.FilesAnalyzed << " analysed)\n\n";
  if (!N && !R.hasErrors()) {
    OS << "No performance anti-patterns found.\n";
    return;
  }
  if (N) {
    OS << "| Check | Findings | Fix-it | Measured speedup | What |\n|---|---:|---:|---|---|\n";
    for (const CheckCount &C : ByCheck) {
      const CheckInfo *Info = findCheck(C.Check);
      auto P = Probe.find(C.Check);
      OS << "| `" << C.Check << "` | " << C.Total << " | " << C.Fixable << " | "
         << (P != Probe.end() ? llvm::formatv("{0:F1}x on {1}", P->second.Speedup, md(P->second.Device)).str()
                              : std::string("-"))
         << " | " << (Info ? md(Info->Summary) : std::string()) << " |\n";
    }
    OS << "\n<details><summary>By file</summary>\n\n| File | Findings |\n|---|---:|\n";
    for (const FileCount &C : ByFile)
      OS << "| `" << relativeTo(C.File, Opts.Root) << "` | " << C.Total << " |\n";
    OS << "\n</details>\n\n#### Findings\n\n";
    unsigned Listed = 0;
    for (const Finding &F : R.Findings) {
      if (F.isCompilerError())
        continue;
      if (Listed++ == MaxListed) {
        OS << "\n... and " << (N - MaxListed) << " more (see the SARIF or HTML report).\n";
        break;
      }
      std::string Name = relativeTo(F.File, Opts.Root);
      OS << "- `" << Name << ":" << F.Line << ":" << F.Column << "` **" << F.Check << "**: " << md(F.Message) << "\n";
      std::string Diff = fixDiff(F, Name);
      if (!Diff.empty())
        OS << "  <details><summary>fix-it</summary>\n\n  ```diff\n"
           <<
            [&] {
              std::string Indented;
              llvm::SmallVector<llvm::StringRef> Lines;
              llvm::StringRef(Diff).rtrim('\n').split(Lines, '\n');
              for (llvm::StringRef L : Lines)
                Indented += "  " + L.str() + "\n";
              return Indented;
            }()
           << "  ```\n  </details>\n";
    }
  }
  if (R.hasErrors()) {
    OS << "\n#### Errors\n\n";
    for (const std::string &E : R.Errors)
      OS << "- " << md(E) << "\n";
    for (const Finding &F : R.Findings)
      if (F.isCompilerError())
        OS << "- `" << relativeTo(F.File, Opts.Root) << ":" << F.Line << "`: " << md(F.Message) << "\n";
  }
}

} // namespace torchlint
