// The runtime probe's case API. A case is a realistic training or evaluation step in two
// variants: "before" (contains the anti-pattern torchlint reports) and "after" (the fix). Both
// run on the same data; the harness checks that they are equivalent, then times them.
//
// Hand-written after:                       Fix-it generated after:
//   struct Before : probe::Variant {...};     struct Step : probe::Variant {...};  // the anti-pattern
//   struct After  : probe::Variant {...};     PROBE_FIXIT_CASE("torch-foo", "name", "what", Step, tol);
//   PROBE_CASE("torch-foo", "name", "what",
//              Before, After, tol);
//
// For PROBE_FIXIT_CASE the build copies the file, runs `torchlint --fix --checks=-*,torch-foo` on
// the copy and compiles the copy with PROBE_FIXED_SOURCE=1: the copy's Step registers as "after",
// so the probe measures exactly what users get from the fix-it (runtime_probe/CMakeLists.txt).
// For checks that judge a whole file, PROBE_BEFORE and PROBE_AFTER put the variants in two files.
// ctest -R probe_cases_lint checks that torchlint reports every before and no hand-written after
// (runtime_probe/CheckCases.cmake, docs/probe/README.md).
#pragma once
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace probe {

/// Where and how big a case runs.
struct Ctx {
  torch::Device device{torch::kCPU};
  bool quick = false;
  // Spelled with kCUDA on purpose: a case models a program that trains on CUDA, and torchlint's
  // CUDA-only checks (alloc-in-forward, pointwise-fusion, amp, ...) look for a CUDA mention in the
  // translation unit, as the user's program has one where it picks its device.
  bool cuda() const { return device.type() == torch::kCUDA; }
  /// A size: `full` on CUDA, `cpu` on the CPU, `quick` with --quick.
  int64_t size(int64_t full, int64_t cpu, int64_t quick) const {
    return this->quick ? quick : (cuda() ? full : cpu);
  }
  /// Options for tensors created on the probe's device (setup code).
  torch::TensorOptions on() const { return torch::TensorOptions().device(device); }
};

/// Named tensors a variant exposes for the equivalence check (loss, outputs, gradients, ...).
using Outputs = std::vector<std::pair<std::string, torch::Tensor>>;

/// Equivalence: |a - b| <= atol + rtol * |b| elementwise, for every named output.
struct Tolerance {
  double rtol = 1e-5;
  double atol = 1e-6;
  /// What the numbers mean, for the report ("bitwise", "fp32 reduction order", "bf16 autocast").
  const char *why = "fp32 reduction order";
  /// On CUDA, where it differs (cuda_why set): a case that is bitwise on the CPU may round once
  /// differently there (a kernel with atomics, a division by a scalar done as a multiplication).
  double cuda_rtol = 0, cuda_atol = 0;
  const char *cuda_why = nullptr;
  /// The tolerance that applies on the device the probe runs on.
  Tolerance on(bool Cuda) const {
    return Cuda && cuda_why ? Tolerance{cuda_rtol, cuda_atol, cuda_why} : Tolerance{rtol, atol, why};
  }
};

/// One variant of a case. Constructed once (setup, not timed) on ctx.device after the harness
/// seeds the RNGs; step() runs one training or evaluation step and is what is timed.
class Variant {
public:
  virtual ~Variant() = default;
  virtual void step() = 0;
  /// The state after the steps run so far: losses, outputs, parameters, gradients.
  virtual Outputs outputs() = 0;
  /// The autograd graph nodes the variant's long-lived state keeps reachable (graphNodes() of
  /// the tensors it keeps across steps), or -1 when the case does not say. The harness reads it
  /// before and after the counted steps (Counts::graph_nodes_held): torch-autograd-history's
  /// proof, where the cost is what the before keeps, not what it runs.
  virtual int64_t heldGraphNodes() { return -1; }
};

/// The autograd nodes reachable from t's grad_fn (0 for a tensor that records no history).
int64_t graphNodes(const torch::Tensor &t);

using Factory = std::function<std::unique_ptr<Variant>(const Ctx &)>;

struct CaseDef {
  std::string check; // torchlint check the case belongs to
  std::string name;
  std::string what; // one line: what the step does and what the fix changes
  Tolerance tol;
  Factory before, after;
  std::string after_source; // "hand" or "fixit"
};

struct SeedStage {
  std::string label;
  Factory make;
};

struct SeedDef {
  std::string name;
  std::string what;
  Tolerance tol; // every stage is checked against the first
  std::vector<SeedStage> stages;
};

/// Registration (static initialisers in the case files).
void registerCase(const std::string &check, const std::string &name, const std::string &what,
                  Tolerance tol, Factory f, const char *role, const std::string &after_source);
void registerSeed(SeedDef def);
std::vector<CaseDef> &cases();
std::vector<SeedDef> &seeds();

/// Helpers for outputs(): every parameter (and, with grads, every gradient) of a module.
void addParameters(Outputs &out, const torch::nn::Module &m, const std::string &prefix, bool grads = true);

/// Deterministic CPU data, moved to the device once (setup): the same values on every device.
torch::Tensor randn(torch::IntArrayRef shape, const Ctx &ctx, uint64_t seed);
torch::Tensor randint(int64_t low, int64_t high, torch::IntArrayRef shape, const Ctx &ctx, uint64_t seed);

/// Copies every parameter and buffer of `from` into `to` (same architecture): two variants that
/// build their models differently start from identical weights.
void copyState(torch::nn::Module &to, const torch::nn::Module &from);

/// Saves at::globalContext()'s cuDNN settings (benchmark, deterministic) and restores them when
/// it goes out of scope. The probe runs a case's before and after in one process: a variant whose
/// step changes these process-wide settings (the program start-up of torch-cudnn-benchmark) must
/// not leave them to the other. Defined in Registry.cpp, not here, so that the case's translation
/// unit contains no call that configures cuDNN (torch-cudnn-benchmark judges a whole TU).
class CudnnSettingsScope {
public:
  CudnnSettingsScope();
  ~CudnnSettingsScope();
  CudnnSettingsScope(const CudnnSettingsScope &) = delete;
  CudnnSettingsScope &operator=(const CudnnSettingsScope &) = delete;

private:
  bool benchmark_, deterministic_;
};

template <class T> std::unique_ptr<Variant> make(const Ctx &ctx) { return std::make_unique<T>(ctx); }

struct Registrar {
  Registrar(const char *check, const char *name, const char *what, Tolerance tol, Factory f,
            const char *role, const char *after_source) {
    registerCase(check, name, what, tol, std::move(f), role, after_source);
  }
};

} // namespace probe

#define PROBE_CAT2(a, b) a##b
#define PROBE_CAT(a, b) PROBE_CAT2(a, b)

/// A case whose after is hand-written.
#define PROBE_CASE(CHECK, NAME, WHAT, BEFORE, AFTER, TOL)                                        \
  static ::probe::Registrar PROBE_CAT(probe_before_, __LINE__)(CHECK, NAME, WHAT, TOL,            \
                                                               &::probe::make<BEFORE>, "before", \
                                                               "hand");                          \
  static ::probe::Registrar PROBE_CAT(probe_after_, __LINE__)(CHECK, NAME, WHAT, TOL,             \
                                                              &::probe::make<AFTER>, "after",    \
                                                              "hand")

/// A case whose before and after live in two files, <check>.cpp (PROBE_BEFORE) and
/// <check>.after.cpp (PROBE_AFTER, the same check and name), for checks that judge a whole
/// translation unit (torch-amp: "no autocast anywhere in the file"): in one file the after's fix
/// would silence the check for the before too. The before's file gives the description and the
/// tolerance.
#define PROBE_BEFORE(CHECK, NAME, WHAT, BEFORE, TOL)                                             \
  static ::probe::Registrar PROBE_CAT(probe_before_, __LINE__)(CHECK, NAME, WHAT, TOL,            \
                                                               &::probe::make<BEFORE>, "before", \
                                                               "hand")
#define PROBE_AFTER(CHECK, NAME, AFTER)                                                          \
  static ::probe::Registrar PROBE_CAT(probe_after_, __LINE__)(CHECK, NAME, "", ::probe::Tolerance{}, \
                                                              &::probe::make<AFTER>, "after",    \
                                                              "hand")

/// A case whose after is torchlint's fix-it applied to this very file (see above).
#ifdef PROBE_FIXED_SOURCE
#define PROBE_FIXIT_CASE(CHECK, NAME, WHAT, STEP, TOL)                                           \
  static ::probe::Registrar PROBE_CAT(probe_after_, __LINE__)(CHECK, NAME, WHAT, TOL,             \
                                                              &::probe::make<STEP>, "after",     \
                                                              "fixit")
#else
#define PROBE_FIXIT_CASE(CHECK, NAME, WHAT, STEP, TOL)                                           \
  static ::probe::Registrar PROBE_CAT(probe_before_, __LINE__)(CHECK, NAME, WHAT, TOL,            \
                                                               &::probe::make<STEP>, "before",   \
                                                               "fixit")
#endif
