// Case and seed registration, and the helpers cases share.
#include "probe/Probe.h"

#include <stdexcept>
#include <unordered_set>

namespace probe {

std::vector<CaseDef> &cases() {
  static std::vector<CaseDef> All;
  return All;
}

std::vector<SeedDef> &seeds() {
  static std::vector<SeedDef> All;
  return All;
}

void registerCase(const std::string &check, const std::string &name, const std::string &what,
                  Tolerance tol, Factory f, const char *role, const std::string &after_source) {
  CaseDef *C = nullptr;
  for (CaseDef &D : cases())
    if (D.check == check && D.name == name)
      C = &D;
  if (!C) {
    cases().push_back(CaseDef{check, name, what, tol, nullptr, nullptr, after_source});
    C = &cases().back();
  }
  // The before's registration describes the case (PROBE_AFTER, in another file, passes no
  // description; the registration order of two files is unspecified).
  if (std::string(role) == "before") {
    C->before = std::move(f);
    C->what = what;
    C->tol = tol;
  } else {
    C->after = std::move(f);
  }
  C->after_source = after_source;
}

void registerSeed(SeedDef def) { seeds().push_back(std::move(def)); }

void addParameters(Outputs &out, const torch::nn::Module &m, const std::string &prefix, bool grads) {
  for (const auto &P : m.named_parameters()) {
    out.emplace_back(prefix + P.key(), P.value().detach());
    if (grads && P.value().grad().defined())
      out.emplace_back(prefix + P.key() + ".grad", P.value().grad().detach());
  }
}

int64_t graphNodes(const torch::Tensor &t) {
  if (!t.defined() || !t.grad_fn())
    return 0;
  std::vector<torch::autograd::Node *> Todo{t.grad_fn().get()};
  std::unordered_set<torch::autograd::Node *> Seen{Todo.back()};
  while (!Todo.empty()) {
    torch::autograd::Node *N = Todo.back();
    Todo.pop_back();
    for (const torch::autograd::Edge &E : N->next_edges())
      if (E.function && Seen.insert(E.function.get()).second)
        Todo.push_back(E.function.get());
  }
  return int64_t(Seen.size());
}

torch::Tensor randn(torch::IntArrayRef shape, const Ctx &ctx, uint64_t seed) {
  torch::manual_seed(seed);
  return torch::randn(shape).to(ctx.device);
}

torch::Tensor randint(int64_t low, int64_t high, torch::IntArrayRef shape, const Ctx &ctx, uint64_t seed) {
  torch::manual_seed(seed);
  return torch::randint(low, high, shape, torch::kLong).to(ctx.device);
}

void copyState(torch::nn::Module &to, const torch::nn::Module &from) {
  torch::NoGradGuard NoGrad;
  auto Src = from.named_parameters();
  for (auto &P : to.named_parameters()) {
    const torch::Tensor *S = Src.find(P.key());
    if (!S)
      throw std::runtime_error("copyState: no parameter " + P.key());
    P.value().copy_(*S);
  }
  auto SrcB = from.named_buffers();
  for (auto &B : to.named_buffers())
    if (const torch::Tensor *S = SrcB.find(B.key()))
      B.value().copy_(*S);
}

CudnnSettingsScope::CudnnSettingsScope()
    : benchmark_(at::globalContext().benchmarkCuDNN()), deterministic_(at::globalContext().deterministicCuDNN()) {}

CudnnSettingsScope::~CudnnSettingsScope() {
  at::globalContext().setBenchmarkCuDNN(benchmark_);
  at::globalContext().setDeterministicCuDNN(deterministic_);
}

} // namespace probe
