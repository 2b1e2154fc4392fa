// torchlint-probe: runs every case's before and after on the same data, checks that they are
// equivalent, times them, and writes JSON, Markdown and SVG reports.
//   torchlint-probe --device cpu|cuda [--quick] [--cases GLOB] --json FILE [--markdown FILE] [--svg FILE]
#include "Measure.h"
#include "Report.h"

#include <fnmatch.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#ifndef PROBE_CATALOG_CHECKS
#define PROBE_CATALOG_CHECKS ""
#endif

namespace {

using namespace probe;

int usage(const char *Msg = nullptr) {
  if (Msg)
    std::cerr << "torchlint-probe: " << Msg << "\n";
  std::cerr << "usage: torchlint-probe --device cpu|cuda [--quick] [--cases GLOB] --json FILE\n"
               "                       [--markdown FILE] [--svg FILE] [--reps N] [--steps N] [--warmup N]\n"
               "       torchlint-probe --list | --missing-cases\n"
               "  --cases GLOB   only cases whose check, name or check/name matches (fnmatch); seeds by name\n"
               "  --markdown, --svg default to the --json path with .md and .svg\n";
  return 2;
}

bool matches(const std::string &Glob, const std::string &A, const std::string &B = "") {
  if (Glob.empty())
    return true;
  // Comma-separated globs.
  std::stringstream SS(Glob);
  std::string G;
  while (std::getline(SS, G, ','))
    if (!fnmatch(G.c_str(), A.c_str(), 0) || (!B.empty() && (!fnmatch(G.c_str(), B.c_str(), 0) ||
                                                             !fnmatch(G.c_str(), (A + "/" + B).c_str(), 0))))
      return true;
  return false;
}

/// Compares two output sets: same names, same shapes, |a-b| <= atol + rtol*|b| everywhere.
bool equivalent(const Outputs &A, const Outputs &B, const Tolerance &Tol, std::string &Detail) {
  char Buf[160];
  std::snprintf(Buf, sizeof Buf, "rtol %g, atol %g: %s", Tol.rtol, Tol.atol, Tol.why);
  Detail = Buf;
  if (A.empty()) {
    Detail = "no outputs to compare";
    return false;
  }
  if (A.size() != B.size()) {
    Detail = "different outputs (" + std::to_string(A.size()) + " vs " + std::to_string(B.size()) + ")";
    return false;
  }
  for (size_t I = 0; I < A.size(); ++I) {
    if (A[I].first != B[I].first) {
      Detail = "output " + A[I].first + " vs " + B[I].first;
      return false;
    }
    if (!A[I].second.defined() || !B[I].second.defined()) {
      if (A[I].second.defined() != B[I].second.defined()) {
        Detail = A[I].first + ": defined in one variant only";
        return false;
      }
      continue;
    }
    torch::Tensor X = A[I].second.detach().to(torch::kCPU, torch::kDouble);
    torch::Tensor Y = B[I].second.detach().to(torch::kCPU, torch::kDouble);
    if (X.sizes() != Y.sizes()) {
      Detail = A[I].first + ": shapes differ";
      return false;
    }
    if (X.numel() == 0)
      continue;
    torch::Tensor Diff = (X - Y).abs();
    torch::Tensor Bound = Tol.atol + Tol.rtol * Y.abs();
    bool Ok = (Diff <= Bound).all().item<bool>() && !torch::isnan(X).any().item<bool>();
    if (!Ok) {
      std::snprintf(Buf, sizeof Buf, "%s differs: max |a-b| = %.3g", A[I].first.c_str(),
                    Diff.max().item<double>());
      Detail = Buf;
      return false;
    }
  }
  return true;
}

/// On CUDA, deterministic algorithms while the variants' equivalence is checked: cuDNN's weight
/// gradients and atomics-based kernels differ from run to run (~1e-8 on an H100, libtorch 2.11),
/// which a bitwise tolerance would report as a difference between before and after. cuDNN's
/// convolutions also run in TF32 by default (`allowTF32CuDNN`), so an NHWC and an NCHW kernel, or a
/// convolution with and without a bias that BatchNorm cancels, round differently by ~1e-4 (the
/// first H200 run: torch-channels-last 2.1e-4, torch-conv-bias-before-bn 1.3e-5): the equivalence
/// is about the rewrite, not TF32's rounding, so it runs in float32. The timed steps run with the
/// program's own settings. Restores the settings it found.
class DeterministicScope {
public:
  explicit DeterministicScope(bool Active) : Active(Active) {
    if (!Active)
      return;
    at::Context &G = at::globalContext();
    Cudnn = G.deterministicCuDNN();
    Algorithms = G.deterministicAlgorithms();
    WarnOnly = G.deterministicAlgorithmsWarnOnly();
    Tf32CuDNN = G.allowTF32CuDNN();
    G.setDeterministicCuDNN(true);
    G.setAllowTF32CuDNN(false);
    G.setDeterministicAlgorithms(true, /*warn_only=*/true);
  }
  ~DeterministicScope() {
    if (!Active)
      return;
    at::Context &G = at::globalContext();
    G.setDeterministicCuDNN(Cudnn);
    G.setDeterministicAlgorithms(Algorithms, WarnOnly);
    G.setAllowTF32CuDNN(Tf32CuDNN);
  }
  DeterministicScope(const DeterministicScope &) = delete;
  DeterministicScope &operator=(const DeterministicScope &) = delete;

private:
  bool Active, Cudnn = false, Algorithms = false, WarnOnly = false, Tf32CuDNN = true;
};

/// Runs `steps` steps of each variant on the same RNG stream; compares their outputs.
bool checkEquivalence(Variant &A, Variant &B, const Tolerance &Tol, int Steps, std::string &Detail,
                      bool Cuda = false) {
  DeterministicScope Deterministic(Cuda);
  for (int I = 0; I < Steps; ++I) {
    torch::manual_seed(1000 + I);
    A.step();
    torch::manual_seed(1000 + I);
    B.step();
  }
  return equivalent(A.outputs(), B.outputs(), Tol, Detail);
}

std::unique_ptr<Variant> build(const Factory &F, const Ctx &C) {
  torch::manual_seed(0);
  return F(C);
}

std::string loadAverage() {
  std::ifstream In("/proc/loadavg");
  std::string A, B, C;
  if (!(In >> A >> B >> C))
    return "unknown";
  return A + " " + B + " " + C;
}

std::string utcNow() {
  std::time_t T = std::time(nullptr);
  char B[32];
  std::strftime(B, sizeof B, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&T));
  return B;
}

bool writeFile(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  std::filesystem::path Parent = std::filesystem::path(Path).parent_path();
  if (!Parent.empty())
    std::filesystem::create_directories(Parent, EC);
  std::ofstream O(Path);
  O << Text;
  if (!O) {
    std::cerr << "torchlint-probe: cannot write " << Path << "\n";
    return false;
  }
  std::cerr << "torchlint-probe: wrote " << Path << "\n";
  return true;
}

/// The results so far, in JSON, at <json>.partial (removed when the run ends normally): a run
/// that dies (a crash in libtorch, a time limit) keeps the cases it finished.
void writePartial(const std::string &JsonPath, const RunInfo &Info, const std::vector<CaseResult> &Cases,
                  const std::vector<SeedResult> &Seeds) {
  std::ofstream O(JsonPath + ".partial");
  O << toJson(Info, Cases, Seeds);
}

std::string withExtension(std::string Path, const std::string &Ext) {
  size_t Slash = Path.rfind('/');
  size_t Dot = Path.rfind('.');
  if (Dot != std::string::npos && (Slash == std::string::npos || Dot > Slash))
    Path.erase(Dot);
  return Path + Ext;
}

} // namespace

int main(int argc, char **argv) {
  std::string DeviceName, Glob, JsonPath, MdPath, SvgPath;
  bool Quick = false, List = false, Missing = false;
  int Reps = -1, Steps = -1, Warmup = -1;
  std::string Command = "torchlint-probe";
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    Command += " " + A;
    auto Next = [&](std::string &Out) {
      if (I + 1 >= argc)
        return false;
      Out = argv[++I];
      Command += " " + Out;
      return true;
    };
    std::string V;
    if (A == "--device") {
      if (!Next(DeviceName)) return usage("--device needs cpu or cuda");
    } else if (A == "--quick") {
      Quick = true;
    } else if (A == "--cases") {
      if (!Next(Glob)) return usage("--cases needs a glob");
    } else if (A == "--json") {
      if (!Next(JsonPath)) return usage("--json needs a file");
    } else if (A == "--markdown") {
      if (!Next(MdPath)) return usage("--markdown needs a file");
    } else if (A == "--svg") {
      if (!Next(SvgPath)) return usage("--svg needs a file");
    } else if (A == "--reps" || A == "--steps" || A == "--warmup") {
      if (!Next(V)) return usage("a count is missing");
      (A == "--reps" ? Reps : A == "--steps" ? Steps : Warmup) = std::stoi(V);
    } else if (A == "--list") {
      List = true;
    } else if (A == "--missing-cases") {
      Missing = true;
    } else if (A == "-h" || A == "--help") {
      return usage();
    } else {
      return usage(("unknown argument " + A).c_str());
    }
  }

  if (List) {
    for (const CaseDef &C : cases())
      std::cout << C.check << "/" << C.name << " (after: " << C.after_source << ")"
                << (C.before && C.after ? "" : "  INCOMPLETE") << "\n";
    for (const SeedDef &S : seeds())
      std::cout << "seed " << S.name << " (" << S.stages.size() << " stages)\n";
    return 0;
  }
  if (Missing) {
    // Checks in rules/checks.json (at build time) without a probe case.
    std::set<std::string> Have;
    for (const CaseDef &C : cases())
      if (C.before && C.after)
        Have.insert(C.check);
    std::stringstream SS(PROBE_CATALOG_CHECKS);
    std::string Name;
    int N = 0;
    while (std::getline(SS, Name, ','))
      if (!Name.empty() && !Have.count(Name)) {
        std::cout << Name << "\n";
        ++N;
      }
    return N ? 1 : 0;
  }

  if (DeviceName != "cpu" && DeviceName != "cuda")
    return usage("--device must be cpu or cuda");
  if (JsonPath.empty())
    return usage("--json FILE is required");
  if (MdPath.empty())
    MdPath = withExtension(JsonPath, ".md");
  if (SvgPath.empty())
    SvgPath = withExtension(JsonPath, ".svg");

  Ctx C;
  C.quick = Quick;
  if (DeviceName == "cuda") {
    if (!builtWithCuda()) {
      std::cerr << "torchlint-probe: this binary was built against a libtorch without CUDA; rebuild with "
                   "-DCMAKE_PREFIX_PATH=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')\n";
      return 2;
    }
    if (!torch::cuda::is_available()) {
      std::cerr << "torchlint-probe: --device cuda, but torch::cuda::is_available() is false\n";
      return 2;
    }
    C.device = torch::Device(torch::kCUDA, 0);
  }

  installWarningPrinter();
  MeasureOptions Opt;
  if (Quick)
    Opt = MeasureOptions{1, 3, 1};
  else if (C.cuda())
    Opt = MeasureOptions{5, 30, 10};
  else
    Opt = MeasureOptions{2, 10, 2};
  if (Reps > 0) Opt.repetitions = Reps;
  if (Steps > 0) Opt.steps_per_rep = Steps;
  if (Warmup >= 0) Opt.warmup_steps = Warmup;
  const int EquivSteps = 2;

  RunInfo Info;
  Info.device = DeviceName;
  Info.device_description = deviceDescription(C);
  Info.torch_version = torchVersion();
  Info.cuda_version = cudaVersion();
  Info.date = utcNow();
  Info.command = Command;
  Info.quick = Quick;
  Info.load_start = loadAverage();
  Info.options = Opt;

  bool AllOk = true;
  std::vector<CaseResult> CaseResults;
  for (const CaseDef &D : cases()) {
    if (!matches(Glob, D.check, D.name))
      continue;
    CaseResult R;
    R.check = D.check;
    R.name = D.name;
    R.what = D.what;
    R.after_source = D.after_source;
    std::cerr << "== " << D.check << " / " << D.name << " (after: " << D.after_source << ")\n";
    if (!D.before || !D.after) {
      R.equivalence_detail = D.before ? "no after variant (fix-it source not built?)" : "no before variant";
      std::cerr << "   INCOMPLETE: " << R.equivalence_detail << "\n";
      AllOk = false;
      CaseResults.push_back(R);
      continue;
    }
    try {
      auto B = build(D.before, C);
      auto A = build(D.after, C);
      R.equivalent = checkEquivalence(*B, *A, D.tol.on(C.cuda()), EquivSteps, R.equivalence_detail, C.cuda());
      std::cerr << "   equivalent: " << (R.equivalent ? "yes" : "NO") << " (" << R.equivalence_detail << ")\n";
      R.before = measure(D.check + "/" + D.name + "/before", *B, C, Opt);
      R.after = measure(D.check + "/" + D.name + "/after", *A, C, Opt);
      R.timed = true;
      std::cerr << "   before " << R.before.median_ms << " ms, after " << R.after.median_ms << " ms, speedup "
                << R.speedup() << "x\n";
    } catch (const std::exception &E) {
      R.equivalent = false;
      R.equivalence_detail = std::string("exception: ") + E.what();
      std::cerr << "   FAILED: " << E.what() << "\n";
    }
    AllOk = AllOk && R.equivalent;
    CaseResults.push_back(R);
    writePartial(JsonPath, Info, CaseResults, {});
  }

  std::vector<SeedResult> SeedResults;
  for (const SeedDef &S : seeds()) {
    if (!matches(Glob, S.name) && !matches(Glob, "seed-" + S.name))
      continue;
    SeedResult SR;
    SR.name = S.name;
    SR.what = S.what;
    std::cerr << "== seed " << S.name << "\n";
    // Reference outputs: the first stage after EquivSteps steps.
    Outputs Ref;
    for (size_t J = 0; J < S.stages.size(); ++J) {
      StageResult St;
      St.label = S.stages[J].label;
      try {
        auto V = build(S.stages[J].make, C);
        {
          DeterministicScope Deterministic(C.cuda());
          for (int I = 0; I < EquivSteps; ++I) {
            torch::manual_seed(1000 + I);
            V->step();
          }
        }
        if (J == 0) {
          // Deep copy: outputs() may alias parameters and gradients that the timed steps update.
          for (auto &[Name, T] : V->outputs())
            Ref.emplace_back(Name, T.defined() ? T.detach().clone() : T);
          St.equivalent = !Ref.empty();
          St.equivalence_detail = "reference";
        } else {
          St.equivalent = equivalent(V->outputs(), Ref, S.tol.on(C.cuda()), St.equivalence_detail);
        }
        St.stats = measure("seed/" + S.name + "/" + St.label, *V, C, Opt);
        std::cerr << "   " << St.label << ": " << St.stats.median_ms << " ms, equivalent "
                  << (St.equivalent ? "yes" : "NO") << " (" << St.equivalence_detail << ")\n";
      } catch (const std::exception &E) {
        St.equivalent = false;
        St.equivalence_detail = std::string("exception: ") + E.what();
        std::cerr << "   " << St.label << " FAILED: " << E.what() << "\n";
      }
      AllOk = AllOk && St.equivalent;
      SR.stages.push_back(St);
      std::vector<SeedResult> SoFar = SeedResults;
      SoFar.push_back(SR);
      writePartial(JsonPath, Info, CaseResults, SoFar);
    }
    SeedResults.push_back(SR);
  }

  if (CaseResults.empty() && SeedResults.empty()) {
    std::cerr << "torchlint-probe: no case matches '" << Glob << "'\n";
    return 2;
  }
  Info.load_end = loadAverage();
  bool Wrote = writeFile(JsonPath, toJson(Info, CaseResults, SeedResults)) &&
               writeFile(MdPath, toMarkdown(Info, CaseResults, SeedResults)) &&
               writeFile(SvgPath, toSvg(Info, CaseResults, SeedResults));
  std::remove((JsonPath + ".partial").c_str());
  if (!AllOk)
    std::cerr << "torchlint-probe: some cases are not equivalent or failed (see above)\n";
  return AllOk && Wrote ? 0 : 1;
}
