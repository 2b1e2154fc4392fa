// libtorchlint-trace.so: loaded into an unchanged libtorch program with LD_PRELOAD by
// `torchlint trace` (tools/torchlint_trace.py). Its static initializer registers a global
// RecordFunction callback; for every operator that would synchronise the host with a CUDA device
// (runtime_probe/SyncOps.h, the probe's list) it records the call stack (return addresses, as
// module + offset, symbolised later by the driver with llvm-symbolizer-19). Steps are counted as
// backward() calls (torch::autograd::backward, interposed below). The raw counts go to $TORCHLINT_TRACE_OUT as JSON
// at exit, and also when the program dies of a signal ("complete": false: the counts so far).
// With $TORCHLINT_TRACE_MAX_STEPS=N (`torchlint trace --max-steps N`) the run is cut when the
// (N+1)th step begins: the counts of N whole steps are written ("cut": true) and the process ends
// with exit status 0, so that a program that trains for hours can be traced for a few steps.
// It also interposes torch::cuda::synchronize(int64_t) (counted as an explicit sync, then
// forwarded), which the dispatcher never sees.
#include "SyncOps.h"

#include <torch/csrc/autograd/autograd.h> // the declarations interposed below
#include <torch/cuda.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr int kMaxFrames = 48;

struct Site {
  std::string rule, op;
  std::vector<void *> frames;
  bool operator<(const Site &O) const {
    return std::tie(rule, op, frames) < std::tie(O.rule, O.op, O.frames);
  }
};

std::mutex gMutex;
/// Calls of a site, and in how many steps (intervals between backward() calls) it ran: a line in
/// the training step runs in nearly every one, set-up code in a few.
struct Tally {
  int64_t count = 0, steps_seen = 0, last_step = -1;
};
std::map<Site, Tally> *gSites = nullptr; // leaked on purpose: usable until the last exit handler
std::atomic<int64_t> gSteps{0}, gDispatches{0}, gSyncs{0};
std::atomic<bool> gWritten{false};
const char *gOut = nullptr;
int64_t gMaxSteps = 0; // $TORCHLINT_TRACE_MAX_STEPS; 0: no limit
bool gCut = false;     // the run was cut at gMaxSteps steps
bool gDebug = std::getenv("TORCHLINT_TRACE_DEBUG") != nullptr; // prints every top-level operator
thread_local int tDepth = 0, tInsideSync = 0;

struct Ctx : at::ObserverContext {
  bool sync = false, op = false;
};

void record(const char *Rule, const char *Op) {
  void *Frames[kMaxFrames];
  int N = backtrace(Frames, kMaxFrames);
  Site S;
  S.rule = Rule;
  S.op = Op;
  // Drop this library's own frames (record, the callback) and keep the rest, innermost first.
  Dl_info Self{};
  dladdr(reinterpret_cast<void *>(&record), &Self);
  for (int I = 0; I < N; ++I) {
    Dl_info D{};
    if (dladdr(Frames[I], &D) && D.dli_fbase == Self.dli_fbase)
      continue;
    S.frames.push_back(Frames[I]);
  }
  std::lock_guard<std::mutex> L(gMutex);
  Tally &T = (*gSites)[S];
  ++T.count;
  int64_t Step = gSteps.load();
  if (T.last_step != Step) {
    T.last_step = Step;
    ++T.steps_seen;
  }
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  auto C = std::make_unique<Ctx>();
  const bool TopLevel = tDepth == 0;
  if (gDebug && TopLevel && probe::isOperator(Fn))
    std::fprintf(stderr, "torchlint-trace: top-level %s\n", Fn.name());
  if (Fn.scope() == at::RecordScope::FUNCTION) { // operators and the autograd engine's node records
    C->op = true;
    gDispatches += probe::isOperator(Fn);
    ++tDepth;
  }
  probe::OpClass K = probe::classifyOp(Fn, TopLevel);
  if (K.sync && tInsideSync == 0) {
    C->sync = true;
    ++tInsideSync;
    ++gSyncs;
    record(K.rule, Fn.name());
  }
  return C;
}

void onEnd(const at::RecordFunction &, at::ObserverContext *P) {
  auto *C = static_cast<Ctx *>(P);
  if (!C)
    return;
  if (C->sync)
    --tInsideSync;
  if (C->op)
    --tDepth;
}

std::string moduleOf(void *Addr, uintptr_t &Offset) {
  Dl_info D{};
  if (!dladdr(Addr, &D) || !D.dli_fbase) {
    Offset = reinterpret_cast<uintptr_t>(Addr);
    return "?";
  }
  Offset = reinterpret_cast<uintptr_t>(Addr) - reinterpret_cast<uintptr_t>(D.dli_fbase);
  std::string Name = D.dli_fname ? D.dli_fname : "";
  // The main program: dladdr reports argv[0] (or nothing); name the file itself.
  Dl_info Main{};
  static char Exe[4096];
  static ssize_t ExeLen = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  if (Name.empty() || Name.find('/') == std::string::npos || Name == program_invocation_name) {
    if (ExeLen > 0) {
      Exe[ExeLen] = 0;
      Name = Exe;
    }
  }
  (void)Main;
  return Name;
}

void jsonStr(FILE *F, const std::string &S) {
  std::fputc('"', F);
  for (char C : S) {
    if (C == '"' || C == '\\')
      std::fputc('\\', F);
    if ((unsigned char)C >= 0x20)
      std::fputc(C, F);
  }
  std::fputc('"', F);
}

void write(const char *Signal) {
  if (!gOut || gWritten.exchange(true))
    return;
  // In a signal handler the lock may be held by the thread that crashed: try, then go on.
  bool Locked = gMutex.try_lock();
  FILE *F = std::fopen(gOut, "w");
  if (F) {
    std::fprintf(F, "{\"tool\": \"torchlint-trace\", \"torch_version\": \"%s\", \"complete\": %s, \"signal\": ",
                 TORCH_VERSION, Signal ? "false" : "true");
    if (Signal)
      jsonStr(F, Signal);
    else
      std::fputs("null", F);
    std::fprintf(F, ", \"cut\": %s, \"max_steps\": %lld", gCut ? "true" : "false", (long long)gMaxSteps);
    std::fprintf(F, ",\n \"steps\": %lld, \"step\": \"backward() call (torch::autograd::backward)\", \"dispatches\": %lld, "
                    "\"syncs\": %lld,\n \"sites\": [",
                 (long long)gSteps.load(), (long long)gDispatches.load(), (long long)gSyncs.load());
    bool First = true;
    for (const auto &[S, N] : *gSites) {
      std::fprintf(F, "%s\n  {\"rule\": ", First ? "" : ",");
      First = false;
      jsonStr(F, S.rule);
      std::fputs(", \"op\": ", F);
      jsonStr(F, S.op);
      std::fprintf(F, ", \"count\": %lld, \"steps_seen\": %lld, \"frames\": [", (long long)N.count,
                   (long long)N.steps_seen);
      for (size_t I = 0; I < S.frames.size(); ++I) {
        uintptr_t Off = 0;
        std::string M = moduleOf(S.frames[I], Off);
        std::fputs(I ? ", [" : "[", F);
        jsonStr(F, M);
        std::fprintf(F, ", \"0x%lx\"]", (unsigned long)Off);
      }
      std::fputs("]}", F);
    }
    std::fputs("\n ]}\n", F);
    std::fclose(F);
  }
  if (Locked)
    gMutex.unlock();
}

void onExit() { write(nullptr); }

/// The step limit is reached: write the counts and end the process (exit status 0) without
/// running the program's exit handlers or destructors (a data loader's worker threads, a file
/// being written: the program did not finish, and need not pretend it did).
[[noreturn]] void cutRun() {
  gCut = true;
  std::fflush(nullptr);
  write(nullptr);
  std::fprintf(stderr, "torchlint-trace: cut at %lld steps (TORCHLINT_TRACE_MAX_STEPS)\n", (long long)gMaxSteps);
  std::fflush(nullptr);
  std::_Exit(0);
}

void onSignal(int Sig) {
  write(strsignal(Sig));
  signal(Sig, SIG_DFL);
  raise(Sig);
}

struct Init {
  Init() {
    gOut = std::getenv("TORCHLINT_TRACE_OUT");
    if (!gOut) {
      std::fprintf(stderr, "torchlint-trace: TORCHLINT_TRACE_OUT is not set; run the program with `torchlint trace`\n");
      return;
    }
    gSites = new std::map<Site, Tally>();
    if (const char *Max = std::getenv("TORCHLINT_TRACE_MAX_STEPS")) {
      char *End = nullptr;
      long long N = std::strtoll(Max, &End, 10);
      if (End == Max || *End || N < 1) {
        std::fprintf(stderr, "torchlint-trace: TORCHLINT_TRACE_MAX_STEPS=%s: expected a positive number\n", Max);
        std::_Exit(2);
      }
      gMaxSteps = N;
    }
    at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd)
                              .needsInputs(true)
                              .scopes({at::RecordScope::FUNCTION, at::RecordScope::USER_SCOPE}));
    std::atexit(&onExit);
    for (int Sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL})
      signal(Sig, &onSignal);
  }
} gInit;

} // namespace

/// The next definition of the interposed function `Self` (libtorch's), looked up by Self's own
/// mangled name, so that the name follows the libtorch headers this library is built against.
void *nextDefinition(void *Self) {
  Dl_info D{};
  void *Next = dladdr(Self, &D) && D.dli_sname ? dlsym(RTLD_NEXT, D.dli_sname) : nullptr;
  if (!Next) {
    std::fprintf(stderr, "torchlint-trace: cannot find libtorch's %s (ABI mismatch?)\n",
                 D.dli_sname ? D.dli_sname : "interposed function");
    std::abort();
  }
  return Next;
}

// torch::autograd::backward(...): Tensor::backward() and torch::autograd::backward() end here in
// libtorch 1.13 and 2.x (VariableTypeManual's _backward); one call from outside another is one
// step. Counted, then forwarded to libtorch's own definition.
namespace torch::autograd {
void backward(const std::vector<at::Tensor> &tensors, const std::vector<at::Tensor> &grad_tensors,
              c10::optional<bool> retain_graph, bool create_graph, const std::vector<at::Tensor> &inputs) {
  static thread_local int Nested = 0;
  if (Nested == 0 && gMaxSteps > 0 && gSteps.load() >= gMaxSteps)
    cutRun(); // the (N+1)th step begins: N whole steps are counted
  if (Nested++ == 0)
    ++gSteps;
  using Fn = void (*)(const std::vector<at::Tensor> &, const std::vector<at::Tensor> &, c10::optional<bool>, bool,
                      const std::vector<at::Tensor> &);
  static Fn Real = reinterpret_cast<Fn>(nextDefinition(reinterpret_cast<void *>(static_cast<Fn>(&backward))));
  struct Done {
    ~Done() { --Nested; }
  } D;
  Real(tensors, grad_tensors, retain_graph, create_graph, inputs);
}
} // namespace torch::autograd

// torch::cuda::synchronize(int64_t): an explicit sync the dispatcher does not see. Counted, then
// forwarded to libtorch's own definition (a CPU-only libtorch throws there, as it would untraced).
namespace torch::cuda {
void synchronize(int64_t device_index) {
  if (gSites) {
    ++gSyncs;
    record("explicit synchronize", "torch::cuda::synchronize");
  }
  using Fn = void (*)(int64_t);
  static Fn Real = reinterpret_cast<Fn>(nextDefinition(reinterpret_cast<void *>(&synchronize)));
  Real(device_index);
}
} // namespace torch::cuda
