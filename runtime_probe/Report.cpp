#include "Report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace probe {

namespace {

std::string jsonString(const std::string &S) {
  std::string O = "\"";
  for (char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    default:
      if ((unsigned char)C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else {
        O += C;
      }
    }
  }
  return O + "\"";
}

std::string num(double V, int Digits = 4) {
  if (!std::isfinite(V))
    return "null";
  char B[64];
  std::snprintf(B, sizeof B, "%.*g", Digits + 2, V);
  return B;
}

/// The counted metrics (Counting.h): per step, over `steps` untimed steps.
std::string countedJson(const Stats &S) {
  if (!S.counted)
    return "null";
  const Counts &K = *S.counted;
  std::ostringstream O;
  O << "{\"steps\": " << K.steps << ", \"syncs_per_step\": " << num(K.perStep(K.syncs)) << ", \"sync_ops\": {";
  bool First = true;
  for (const auto &[Rule, N] : K.sync_rules) {
    O << (First ? "" : ", ") << jsonString(Rule) << ": " << num(K.perStep(N));
    First = false;
  }
  O << "}, \"copies_per_step\": " << num(K.perStep(K.copies))
    << ", \"copy_bytes_per_step\": " << num(K.perStep(K.copy_bytes), 10)
    << ", \"dispatches_per_step\": " << num(K.perStep(K.dispatches))
    << ", \"leaf_ops_per_step\": " << num(K.perStep(K.leaf_ops))
    << ", \"top_level_ops_per_step\": " << num(K.perStep(K.top_level_ops))
    << ", \"allocs_per_step\": " << num(K.perStep(K.allocs))
    << ", \"alloc_bytes_per_step\": " << num(K.perStep(K.alloc_bytes), 10)
    << ", \"graph_nodes_held_per_step\": " << (K.graph_nodes_held >= 0 ? num(K.perStep(K.graph_nodes_held)) : "null")
    << "}";
  return O.str();
}

std::string syncsJson(const Stats &S) {
  std::ostringstream O;
  O << "\"syncs_per_step\": " << (S.syncs_per_step ? num(*S.syncs_per_step) : "null")
    << ", \"syncs_source\": " << (S.syncs_per_step ? jsonString(S.syncs_source) : "null");
  return O.str();
}

/// Cases whose counted syncs a CUDA run would not have: the docs and the reports do not cite them
/// ("counts_cited": false in the JSON, with the reason).
const char *countsNotCitedWhy(const std::string &Check) {
  if (Check == "torch-data-parallel")
    return "on the probe's one device, data_parallel's module, input and output moves target the device the "
           "tensors are already on: counted as requested copies on the CPU, no copy on CUDA";
  return nullptr;
}

std::string statsJson(const Stats &S) {
  std::ostringstream O;
  O << "{\"median_ms\": " << num(S.median_ms) << ", \"p10_ms\": " << num(S.p10_ms)
    << ", \"p90_ms\": " << num(S.p90_ms) << ", " << syncsJson(S)
    << ", \"peak_bytes\": " << (S.peak_bytes ? std::to_string(*S.peak_bytes) : "null")
    << ",\n       \"counted\": " << countedJson(S) << "}";
  return O.str();
}

std::string fixed(double V, int Prec) {
  char B[64];
  std::snprintf(B, sizeof B, "%.*f", Prec, V);
  return B;
}

std::string ms(double V) { return V >= 100 ? fixed(V, 0) : V >= 10 ? fixed(V, 1) : fixed(V, 2); }

std::string syncs(const Stats &S) { return S.syncs_per_step ? fixed(*S.syncs_per_step, 1) : "NA"; }

/// "1 (item)" or "3 (bool-index 2, nonzero 1)": counted syncs per step and the rules behind them.
std::string countedSyncs(const Stats &S) {
  if (!S.counted)
    return "NA";
  const Counts &K = *S.counted;
  std::string O = num(K.perStep(K.syncs), 3);
  std::string Why;
  for (const auto &[Rule, N] : K.sync_rules)
    Why += (Why.empty() ? "" : ", ") + Rule + (K.sync_rules.size() > 1 ? " " + num(K.perStep(N), 3) : "");
  return Why.empty() ? O : O + " (" + Why + ")";
}

std::string countedOther(const Stats &S, int64_t Counts::*Field) {
  if (!S.counted)
    return "NA";
  double V = S.counted->perStep((*S.counted).*Field);
  return fixed(V, V == std::floor(V) ? 0 : 2);
}

std::string mib(const Stats &S) {
  return S.peak_bytes ? fixed(double(*S.peak_bytes) / (1024.0 * 1024.0), 1) : "NA";
}

std::string xmlEscape(const std::string &S) {
  std::string O;
  for (char C : S) {
    if (C == '<') O += "&lt;";
    else if (C == '>') O += "&gt;";
    else if (C == '&') O += "&amp;";
    else if (C == '"') O += "&quot;";
    else O += C;
  }
  return O;
}

} // namespace

std::string toJson(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds) {
  std::ostringstream O;
  O << "{\n  \"device\": " << jsonString(info.device) << ",\n  \"torch_version\": " << jsonString(info.torch_version)
    << ",\n  \"cuda_version\": " << (info.cuda_version ? jsonString(*info.cuda_version) : "null")
    << ",\n  \"cases\": [";
  for (size_t I = 0; I < cases.size(); ++I) {
    const CaseResult &C = cases[I];
    O << (I ? ",\n" : "\n") << "    {\"check\": " << jsonString(C.check) << ", \"name\": " << jsonString(C.name)
      << ",\n     \"before\": " << statsJson(C.before) << ",\n     \"after\": " << statsJson(C.after)
      << ",\n     \"speedup\": " << (C.timed ? num(C.speedup()) : "null")
      << ", \"equivalent\": " << (C.equivalent ? "true" : "false")
      << ", \"after_source\": " << jsonString(C.after_source);
    if (const char *Why = countsNotCitedWhy(C.check))
      O << ",\n     \"counts_cited\": false, \"counts_not_cited_why\": " << jsonString(Why);
    O << "}";
  }
  O << "\n  ],\n  \"seeds\": [";
  for (size_t I = 0; I < seeds.size(); ++I) {
    const SeedResult &S = seeds[I];
    O << (I ? ",\n" : "\n") << "    {\"name\": " << jsonString(S.name) << ", \"stages\": [";
    for (size_t J = 0; J < S.stages.size(); ++J) {
      const StageResult &St = S.stages[J];
      O << (J ? ",\n" : "\n") << "      {\"label\": " << jsonString(St.label)
        << ", \"median_ms\": " << num(St.stats.median_ms) << ", " << syncsJson(St.stats)
        << ",\n       \"counted\": " << countedJson(St.stats) << "}";
    }
    O << "\n    ]}";
  }
  O << "\n  ]\n}\n";
  return O.str();
}

std::string toMarkdown(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds) {
  std::ostringstream O;
  O << "# torchlint runtime probe: " << (info.device == "cuda" ? "CUDA" : "CPU") << " results\n\n"
    << "| | |\n| --- | --- |\n"
    << "| device | " << info.device << ": " << info.device_description << " |\n"
    << "| torch | " << info.torch_version << " |\n"
    << "| CUDA | " << (info.cuda_version ? *info.cuda_version : std::string("none (CPU build)")) << " |\n"
    << "| date (UTC) | " << info.date << " |\n"
    << "| command | `" << info.command << "` |\n"
    << "| host load (1/5/15-min loadavg) | start " << info.load_start << "; end " << info.load_end << " |\n"
    << "| timing | Google Benchmark, manual time (" << (info.device == "cuda" ? "CUDA events" : "steady clock")
    << "), " << info.options.warmup_steps << " warm-up steps, " << info.options.repetitions << " repetitions of "
    << info.options.steps_per_rep << " steps; ms per step |\n\n";
  if (info.device != "cuda")
    O << "**CPU run.** Host-device synchronisations cost nothing on the CPU, so the sync checks show about "
         "1x here; these timings check equivalence and plumbing. Syncs per step are **counted** from the "
         "dispatcher (`\"syncs_source\": \"dispatcher\"`: the operators that would synchronise on CUDA, "
         "docs/probe/README.md), not measured on a GPU; peak memory is measured on CUDA only (NA). On a shared machine (see the load above) CPU timings vary by 10-20% between runs: "
         "read speedups within 0.85x-1.15x as no difference.\n\n";
  if (info.quick)
    O << "**--quick run**: few repetitions; timings are indicative only.\n\n";
  O << "## Checks\n\n| check | case | before ms (p10-p90) | after ms (p10-p90) | speedup | syncs/step | peak MiB | "
       "equivalent | after |\n| --- | --- | --- | --- | ---: | --- | --- | --- | --- |\n";
  for (const CaseResult &C : cases) {
    O << "| " << C.check << " | " << C.name << " | ";
    if (C.timed)
      O << ms(C.before.median_ms) << " (" << ms(C.before.p10_ms) << "-" << ms(C.before.p90_ms) << ") | "
        << ms(C.after.median_ms) << " (" << ms(C.after.p10_ms) << "-" << ms(C.after.p90_ms) << ") | "
        << fixed(C.speedup(), 2) << "x | " << syncs(C.before) << " → " << syncs(C.after) << " | " << mib(C.before)
        << " → " << mib(C.after) << " | ";
    else
      O << "- | - | - | - | - | ";
    O << (C.equivalent ? "yes" : "**NO**") << " (" << C.equivalence_detail << ") | " << C.after_source << " |\n";
  }
  O << "\n## Counted per step (dispatcher and allocators; the same on every machine)\n\n"
       "syncs: operators that would synchronise on CUDA (rule); copies: host-device copies requested; "
       "leaf ops: operator calls that dispatch no other (kernels); top-level: calls from the program; "
       "allocs: allocator calls (bytes).\n\n"
       "| check | case | syncs before → after | copies | leaf ops | top-level ops | allocs | alloc bytes |\n"
       "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const CaseResult &C : cases) {
    if (!C.timed)
      continue;
    auto pair = [&](int64_t Counts::*F) { return countedOther(C.before, F) + " → " + countedOther(C.after, F); };
    const char *NotCited = countsNotCitedWhy(C.check);
    O << "| " << C.check << " | " << C.name << " | " << countedSyncs(C.before) << " → " << countedSyncs(C.after)
      << (NotCited ? std::string(" (not cited: ") + NotCited + ")" : std::string()) << " | " << pair(&Counts::copies) << " | " << pair(&Counts::leaf_ops) << " | " << pair(&Counts::top_level_ops)
      << " | " << pair(&Counts::allocs) << " | " << pair(&Counts::alloc_bytes) << " |\n";
  }
  // What the before keeps rather than runs (Variant::heldGraphNodes): cases that say.
  bool AnyHeld = false;
  for (const CaseResult &C : cases)
    AnyHeld |= C.timed && C.before.counted && C.before.counted->graph_nodes_held >= 0;
  if (AnyHeld) {
    O << "\n## Autograd graph nodes held per step\n\n"
         "The autograd nodes that the variant's long-lived state (a running total, a metrics tensor) keeps "
         "reachable, growth per counted step: memory that grows for the whole run, however fast each step is.\n\n"
         "| check | case | graph nodes held per step, before → after |\n| --- | --- | --- |\n";
    for (const CaseResult &C : cases) {
      if (!C.timed || !C.before.counted || C.before.counted->graph_nodes_held < 0)
        continue;
      O << "| " << C.check << " | " << C.name << " | " << countedOther(C.before, &Counts::graph_nodes_held) << " → "
        << (C.after.counted && C.after.counted->graph_nodes_held >= 0 ? countedOther(C.after, &Counts::graph_nodes_held)
                                                                       : std::string("NA"))
        << " |\n";
    }
  }
  O << "\n## Seed reproductions\n";
  for (const SeedResult &S : seeds) {
    O << "\n### " << S.name << "\n\n" << S.what << "\n\n| stage | ms/step (p10-p90) | vs first | syncs/step | "
      "copies | leaf ops | allocs | equivalent to first |\n| --- | --- | ---: | --- | --- | --- | --- | --- |\n";
    double First = S.stages.empty() ? 0 : S.stages.front().stats.median_ms;
    for (const StageResult &St : S.stages)
      O << "| " << St.label << " | " << ms(St.stats.median_ms) << " (" << ms(St.stats.p10_ms) << "-"
        << ms(St.stats.p90_ms) << ") | " << fixed(St.stats.median_ms > 0 ? First / St.stats.median_ms : 0, 2)
        << "x | " << countedSyncs(St.stats) << " | " << countedOther(St.stats, &Counts::copies) << " | "
        << countedOther(St.stats, &Counts::leaf_ops) << " | " << countedOther(St.stats, &Counts::allocs) << " | "
        << (St.equivalent ? "yes" : "**NO**") << " ("
        << St.equivalence_detail << ") |\n";
  }
  O << "\n## What each case does\n\n";
  for (const CaseResult &C : cases)
    O << "- `" << C.check << "` / " << C.name << ": " << C.what << "\n";
  return O.str();
}

std::string toSvg(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds) {
  struct Bar {
    std::string label;
    double value;
  };
  std::vector<Bar> Bars;
  for (const CaseResult &C : cases)
    if (C.timed)
      Bars.push_back({C.check + " / " + C.name, C.speedup()});
  for (const SeedResult &S : seeds)
    for (size_t J = 1; J < S.stages.size(); ++J)
      if (S.stages[J].stats.median_ms > 0)
        Bars.push_back({"seed " + S.name + ": " + S.stages[J].label,
                        S.stages.front().stats.median_ms / S.stages[J].stats.median_ms});
  // Log scale, 1/4x .. max(4x, best), 1x marked.
  double Max = 4;
  for (const Bar &B : Bars)
    Max = std::max(Max, B.value);
  const double Min = 0.25;
  const int LabelW = 430, PlotW = 520, RowH = 20, Top = 50, Left = LabelW + 10;
  const int H = Top + RowH * int(Bars.size()) + 40, W = Left + PlotW + 80;
  auto X = [&](double V) {
    V = std::min(std::max(V, Min), Max);
    return Left + PlotW * (std::log(V) - std::log(Min)) / (std::log(Max) - std::log(Min));
  };
  std::ostringstream O;
  O << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">torchlint probe: speedup of the fix ("
    << (info.device == "cuda" ? "CUDA" : "CPU") << ", log scale)</text>\n<text x=\"10\" y=\"38\">"
    << xmlEscape(info.device_description + "; torch " + info.torch_version + "; " + info.date) << "</text>\n";
  for (size_t I = 0; I < Bars.size(); ++I) {
    double Y = Top + RowH * double(I);
    double X0 = X(1.0), X1 = X(Bars[I].value);
    const char *Color = Bars[I].value >= 1.05 ? "#2a7ab0" : Bars[I].value <= 0.95 ? "#c0504d" : "#999999";
    O << "<text x=\"" << LabelW << "\" y=\"" << Y + 14 << "\" text-anchor=\"end\">" << xmlEscape(Bars[I].label)
      << "</text>\n<rect x=\"" << std::min(X0, X1) << "\" y=\"" << Y + 3 << "\" width=\""
      << std::max(1.0, std::abs(X1 - X0)) << "\" height=\"" << RowH - 6 << "\" fill=\"" << Color << "\"/>\n"
      << "<text x=\"" << std::max(X0, X1) + 4 << "\" y=\"" << Y + 14 << "\">" << fixed(Bars[I].value, 2)
      << "x</text>\n";
  }
  double Bottom = Top + RowH * double(Bars.size());
  for (double T : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0})
    if (T <= Max) {
      O << "<line x1=\"" << X(T) << "\" y1=\"" << Top << "\" x2=\"" << X(T) << "\" y2=\"" << Bottom
        << "\" stroke=\"" << (T == 1.0 ? "black" : "#dddddd") << "\"/>\n<text x=\"" << X(T) << "\" y=\""
        << Bottom + 16 << "\" text-anchor=\"middle\">" << num(T, 2) << "x</text>\n";
    }
  O << "</svg>\n";
  return O.str();
}

} // namespace probe
