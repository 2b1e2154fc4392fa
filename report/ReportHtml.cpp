// --format=html: one self-contained HTML file (inline CSS, SVG and a little script; no network) for
// a batch audit: summaries by check and by file, a chart of findings per check, and every finding
// with its source snippet, why it is slow (the catalog's description), the fix-it as a diff, and
// the runtime probe's measured speedup when docs/probe has one.
#include "core/Catalog.h"
#include "core/Findings.h"
#include "report/ReportCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <ctime>

namespace torchlint {

namespace {

std::string esc(llvm::StringRef S) {
  std::string O;
  O.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      O += "&amp;";
      break;
    case '<':
      O += "&lt;";
      break;
    case '>':
      O += "&gt;";
      break;
    case '"':
      O += "&quot;";
      break;
    case '\'':
      O += "&#39;";
      break;
    default:
      O += C;
    }
  }
  return O;
}

const char Style[] = R"css(
:root{--fg:#1d232a;--muted:#5b6673;--bg:#fff;--card:#f5f7fa;--line:#dde3ea;--warn:#b35900;--remark:#1f6feb;--err:#c62828;--add:#e6ffec;--del:#ffebe9;--hl:#fff8c5}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:1100px;margin:0 auto;padding:0 20px}header{padding-top:20px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 8px}
.muted{color:var(--muted)}code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:140px}
.card b{display:block;font-size:22px}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--card)}td.n{text-align:right;font-variant-numeric:tabular-nums}tr.pick{cursor:pointer}tr.pick:hover{background:var(--hl)}
.sev-warning{color:var(--warn);font-weight:600}.sev-remark{color:var(--remark);font-weight:600}.sev-error{color:var(--err);font-weight:600}
.finding{border:1px solid var(--line);border-radius:8px;margin:14px 0;padding:10px 14px}.finding h3{margin:0 0 6px;font-size:14px}
.finding .msg{margin:4px 0 8px}.tag{display:inline-block;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:0 8px;font-size:12px}
pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px;overflow-x:auto;margin:6px 0}
pre .ln{color:var(--muted);user-select:none}pre .hit{background:var(--hl);display:inline-block;min-width:100%}
pre.diff .del{background:var(--del);display:inline-block;min-width:100%}pre.diff .add{background:var(--add);display:inline-block;min-width:100%}pre.diff .hunk{color:var(--muted)}
.speedup{background:#eef9f0;border:1px solid #b7e4c2;border-radius:6px;padding:4px 8px;display:inline-block}
details summary{cursor:pointer;color:var(--muted)}svg text{font:12px system-ui,sans-serif;fill:var(--fg)}
#filter{padding:5px 8px;width:320px;max-width:100%;border:1px solid var(--line);border-radius:6px}.hidden{display:none}
footer{margin:30px auto;color:var(--muted);font-size:12px}
)css";

const char Script[] = R"js(
(function () {
  var input = document.getElementById('filter');
  var items = Array.prototype.slice.call(document.querySelectorAll('.finding'));
  var shown = document.getElementById('shown');
  function apply() {
    var q = (input.value || '').toLowerCase();
    var n = 0;
    items.forEach(function (el) {
      var ok = !q || el.getAttribute('data-check').indexOf(q) >= 0 || el.getAttribute('data-file').toLowerCase().indexOf(q) >= 0;
      el.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    if (shown) shown.textContent = String(n);
  }
  if (input) input.addEventListener('input', apply);
  Array.prototype.forEach.call(document.querySelectorAll('tr.pick'), function (tr) {
    tr.addEventListener('click', function () {
      input.value = tr.getAttribute('data-filter');
      apply();
      document.getElementById('findings').scrollIntoView();
    });
  });
  apply();
  document.documentElement.setAttribute('data-ready', '1');
})();
)js";

/// Horizontal bar chart of findings per check, as inline SVG.
std::string chart(const std::vector<CheckCount> &Counts) {
  if (Counts.empty())
    return "<p class=\"muted\">No findings.</p>";
  const unsigned LabelW = 260, BarW = 560, RowH = 26, Top = 8;
  unsigned Max = 1;
  for (const CheckCount &C : Counts)
    Max = std::max(Max, C.Total);
  unsigned H = Top * 2 + RowH * Counts.size();
  std::string S = llvm::formatv("<svg id=\"chart\" role=\"img\" aria-label=\"Findings per check\" "
                                "xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                                "viewBox=\"0 0 {0} {1}\">",
                                LabelW + BarW + 60, H)
                      .str();
  S += "<title>Findings per check</title>";
  for (size_t I = 0; I < Counts.size(); ++I) {
    const CheckCount &C = Counts[I];
    unsigned Y = Top + RowH * I;
    unsigned W = std::max(2u, BarW * C.Total / Max);
    unsigned WW = C.Total ? BarW * C.Warnings / Max : 0;
    S += llvm::formatv("<g class=\"bar\" data-check=\"{0}\"><text x=\"{1}\" y=\"{2}\" text-anchor=\"end\">{0}</text>",
                       esc(C.Check), LabelW - 8, Y + 17)
             .str();
    S += llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" rx=\"3\" fill=\"#1f6feb\"/>", LabelW,
                       Y + 4, W, RowH - 8)
             .str();
    if (WW)
      S += llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" rx=\"3\" fill=\"#e08a1e\"/>", LabelW,
                         Y + 4, std::max(2u, WW), RowH - 8)
               .str();
    S += llvm::formatv("<text x=\"{0}\" y=\"{1}\">{2}</text></g>", LabelW + W + 6, Y + 17, C.Total).str();
  }
  S += "</svg>";
  return S;
}

std::string snippet(const Finding &F) {
  if (!F.Line)
    return {};
  unsigned First = F.Line > 3 ? F.Line - 3 : 1;
  std::vector<std::string> Lines = sourceLines(F.File, First, F.Line + 3);
  if (Lines.empty())
    return {};
  std::string S = "<pre class=\"snippet\">";
  for (size_t I = 0; I < Lines.size(); ++I) {
    unsigned L = First + I;
    std::string Row = llvm::formatv("<span class=\"ln\">{0,5} </span>", L).str() + esc(Lines[I]);
    S += L == F.Line ? "<span class=\"hit\">" + Row + "</span>" : Row;
    S += "\n";
  }
  S += "</pre>";
  return S;
}

std::string diffHtml(llvm::StringRef Diff) {
  std::string S = "<pre class=\"diff\">";
  llvm::SmallVector<llvm::StringRef> Lines;
  Diff.rtrim('\n').split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    const char *Cls = L.starts_with("@@")                            ? "hunk"
                      : L.starts_with("---") || L.starts_with("+++") ? "hunk"
                      : L.starts_with("-")                           ? "del"
                      : L.starts_with("+")                           ? "add"
                                                                     : "";
    S += std::string("<span class=\"") + Cls + "\">" + esc(L) + "</span>\n";
  }
  S += "</pre>";
  return S;
}

} // namespace

void writeHtml(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts) {
  std::vector<CheckCount> ByCheck = countByCheck(R);
  std::vector<FileCount> ByFile = countByFile(R);
  std::map<std::string, ProbeResult> Probe = loadProbeResults(Opts.ProbeDir);
  unsigned N = R.findingCount(), Fixable = 0, Warnings = 0;
  for (const CheckCount &C : ByCheck) {
    Fixable += C.Fixable;
    Warnings += C.Warnings;
  }
  char Date[64] = "";
  std::time_t Now = std::time(nullptr);
  std::strftime(Date, sizeof(Date), "%Y-%m-%d %H:%M UTC", std::gmtime(&Now));

  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">\n"
     << "<title>torchlint report: " << N << (N == 1 ? " finding" : " findings") << "</title>\n<style>" << Style
     << "</style>\n</head>\n<body>\n<header>\n<h1>torchlint report</h1>\n<p class=\"muted\">torchlint "
     << TORCHLINT_VERSION << " &middot; " << Date;
  if (!Opts.Root.empty())
    OS << " &middot; root <code>" << esc(Opts.Root) << "</code>";
  OS << "</p>\n</header>\n<main>\n<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">"
     << "<div class=\"card\"><b id=\"total\">" << N << "</b>findings</div>"
     << "<div class=\"card\"><b>" << Warnings << "</b>warnings</div>"
     << "<div class=\"card\"><b>" << ByFile.size() << "</b>files with findings</div>"
     << "<div class=\"card\"><b>" << R.FilesAnalyzed << "</b>files analysed</div>"
     << "<div class=\"card\"><b>" << Fixable << "</b>with a fix-it</div></div>\n";

  OS << "<h3>By check</h3>\n<table id=\"by-check\">\n<thead><tr><th>Check</th><th>Category</th><th>Level</th>"
        "<th>Severity</th><th class=\"n\">Findings</th><th class=\"n\">With "
        "fix-it</th><th>Measured</th></tr></thead>\n<tbody>\n";
  for (const CheckCount &C : ByCheck) {
    const CheckInfo *Info = findCheck(C.Check);
    auto P = Probe.find(C.Check);
    OS << "<tr class=\"pick\" data-filter=\"" << esc(C.Check) << "\"><td><code>" << esc(C.Check) << "</code>";
    if (Info)
      OS << "<br><span class=\"muted\">" << esc(Info->Summary) << "</span>";
    OS << "</td><td>" << (Info ? esc(Info->Category) : "") << "</td><td>" << (Info ? esc(Info->Level) : "")
       << "</td><td>";
    if (C.Warnings)
      OS << "<span class=\"sev-warning\">" << C.Warnings << " warning" << (C.Warnings == 1 ? "" : "s") << "</span> ";
    if (C.Remarks)
      OS << "<span class=\"sev-remark\">" << C.Remarks << " remark" << (C.Remarks == 1 ? "" : "s") << "</span>";
    OS << "</td><td class=\"n\">" << C.Total << "</td><td class=\"n\">" << C.Fixable << "</td><td>"
       << (P != Probe.end() ? llvm::formatv("{0:F1}x", P->second.Speedup).str() : std::string("&ndash;"))
       << "</td></tr>\n";
  }
  OS << "</tbody>\n</table>\n<h3>Findings per check</h3>\n<figure>" << chart(ByCheck)
     << "<figcaption class=\"muted\">Orange: warnings; blue: remarks.</figcaption></figure>\n";

  OS << "<h3>By file</h3>\n<table id=\"by-file\">\n<thead><tr><th>File</th><th class=\"n\">Findings</th>"
        "<th class=\"n\">Warnings</th><th class=\"n\">Remarks</th></tr></thead>\n<tbody>\n";
  for (const FileCount &C : ByFile) {
    std::string Name = relativeTo(C.File, Opts.Root);
    OS << "<tr class=\"pick\" data-filter=\"" << esc(Name) << "\"><td><code>" << esc(Name)
       << "</code></td><td class=\"n\">" << C.Total << "</td><td class=\"n\">" << C.Warnings << "</td><td class=\"n\">"
       << C.Remarks << "</td></tr>\n";
  }
  OS << "</tbody>\n</table>\n</section>\n";

  // Tool and compiler errors: the audit is incomplete where these occurred.
  std::vector<const Finding *> CompilerErrors;
  for (const Finding &F : R.Findings)
    if (F.isCompilerError())
      CompilerErrors.push_back(&F);
  if (!R.Errors.empty() || !CompilerErrors.empty()) {
    OS << "<section id=\"errors\">\n<h2>Errors</h2>\n<p>These inputs were not (fully) analysed.</p>\n<ul>\n";
    for (const std::string &E : R.Errors)
      OS << "<li class=\"sev-error\">" << esc(E) << "</li>\n";
    for (const Finding *F : CompilerErrors)
      OS << "<li><code>" << esc(relativeTo(F->File, Opts.Root)) << ":" << F->Line << ":" << F->Column
         << "</code> <span class=\"sev-error\">error:</span> " << esc(F->Message) << "</li>\n";
    OS << "</ul>\n</section>\n";
  }

  OS << "<section id=\"findings\">\n<h2>Findings (<span id=\"shown\">" << N << "</span>)</h2>\n"
     << "<p><input id=\"filter\" type=\"search\" placeholder=\"Filter by check or file\" aria-label=\"Filter\"></p>\n";
  if (!N)
    OS << "<p class=\"muted\" id=\"clean\">No findings.</p>\n";
  unsigned Id = 0;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError())
      continue;
    ++Id;
    std::string Name = relativeTo(F.File, Opts.Root);
    const CheckInfo *Info = findCheck(F.Check);
    OS << "<article class=\"finding\" id=\"f" << Id << "\" data-check=\"" << esc(F.Check) << "\" data-file=\""
       << esc(Name) << "\">\n<h3><code>" << esc(Name) << ":" << F.Line << ":" << F.Column
       << "</code> <span class=\"sev-" << esc(F.Level) << "\">" << esc(F.Level) << "</span> <span class=\"tag\">"
       << esc(F.Check) << "</span></h3>\n"
       << "<p class=\"msg\">" << esc(F.Message) << "</p>\n"
       << snippet(F);
    for (const Note &Nt : F.Notes)
      OS << "<p class=\"note muted\">note: <code>" << esc(relativeTo(Nt.File, Opts.Root)) << ":" << Nt.Line
         << "</code> " << esc(Nt.Message) << "</p>\n";
    if (Info)
      OS << "<details class=\"why\" open><summary>Why it is slow</summary><p>" << esc(Info->Description)
         << "</p><p class=\"muted\">Source: " << esc(Info->Seed) << "</p></details>\n";
    std::string Diff = fixDiff(F, Name);
    if (!Diff.empty())
      OS << "<div class=\"fix\"><h4>Suggested fix (torchlint --fix)</h4>" << diffHtml(Diff) << "</div>\n";
    auto P = Probe.find(F.Check);
    if (P != Probe.end())
      OS << "<p class=\"speedup\">Runtime probe: " << esc(describeProbe(P->second)) << "</p>\n";
    OS << "</article>\n";
  }
  OS << "</section>\n</main>\n<footer>Generated by torchlint " << TORCHLINT_VERSION
     << ". This file is self-contained and works offline.</footer>\n<script>" << Script
     << "</script>\n</body>\n</html>\n";
}

} // namespace torchlint
