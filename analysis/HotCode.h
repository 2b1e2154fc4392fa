// Hot code: what runs on every training step. Computed once per translation unit and shared by
// every check (HotCodeAnalysis::get). A statement is hot when it sits in a loop (condition,
// increment or body; not a for-init), in a function reachable from a loop body through the TU's
// call graph, or in forward() of a torch::nn::Module subclass and what forward() calls.
// The body of a unit test (GoogleTest TEST/TEST_F/TEST_P, Catch2 TEST_CASE, doctest, Boost.Test)
// is never hot, nor is anything written in it: a test runs once per test run, it is not a
// training step, even when it loops. Its loops make no callee hot either; a function it calls
// stays hot when real code calls it from a loop.
#pragma once
#include "analysis/DeviceProvenance.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>
#include <vector>

namespace torchlint {

struct HotContext {
  /// Why the code is hot, ready to append to a message: "in the loop at line 12 of main()" or
  /// "in train(), called on every iteration of the loop in main() at line 70".
  std::string Why;
  /// The loop that makes it hot (invalid for forward()).
  clang::SourceLocation LoopLoc;
  /// The function that contains the statement.
  const clang::FunctionDecl *Function = nullptr;
  /// Set by a check whose finding holds only if the tensor can live on a device where its TU
  /// cannot tell (a sync on `data_.images[i]`, on a parameter no call here tells about, on what a
  /// function of another file returns): the project model drops the finding when the project
  /// yields only host tensors for each of these (analysis/DeviceProvenance.h deviceIfHost,
  /// checkbase/TorchCheck.cpp report(), model/HotBasis.h).
  HostAssumptions HostIf;
  /// Set by a check whose finding matters only for a program that runs on CUDA, in a TU that does
  /// not use CUDA itself (a model's .cpp; main() picks the device): the project model keeps the
  /// finding only if some TU of the project uses CUDA.
  bool IfProjectUsesCUDA = false;
  /// Set by a check whose finding matters only if the code runs on CUDA, in a TU that neither uses
  /// CUDA nor sees where its devices come from (an agent library driven by examples): the project
  /// model drops the finding when the programs that run the function (main() and the TUs it calls
  /// into) exist and none of them uses CUDA or a device it cannot see.
  bool IfProgramUsesCUDA = false;
  /// Set by a check whose finding holds only if the user functions and fields listed (their
  /// return values, what is written into them) yield only tensors widened on the host
  /// (analysis/HostWidening.h): the project model keeps the finding only if every one does, in
  /// every TU (model/ProjectModel.h widenedHost), and fills in the message's placeholders
  /// (model/HotBasis.h WidenedWhat).
  std::vector<const clang::NamedDecl *> IfWidenedHost;
  /// As IfWidenedHost, for an element of the Examples a data set's get() returns, defined in
  /// another TU (0 the data, 1 the target: model/TUSummary.h exampleKey).
  std::vector<std::pair<const clang::FunctionDecl *, unsigned>> IfWidenedExample;
  /// Set by a check whose finding holds only if every call in the project passes a constant to
  /// each of these parameters (analysis/ConstantData.h, deferred to the model: a constructor built
  /// with literals by std::make_unique in another file; model/ProjectModel.h constantAtEveryCall).
  std::vector<const clang::ParmVarDecl *> IfConstantArgs;
  /// Set by TorchCheck::hotContext in project mode: pointer parameters that the statement's
  /// branch needs non-null (analysis/RarePath.h nonNullGuards); the project model drops the
  /// finding when every call in the project passes null to one of them (model/ProjectModel.h
  /// nullAtEveryCall).
  std::vector<const clang::ParmVarDecl *> UnlessNullArgs;
  /// The statement is inside a loop of its own function (set by TorchCheck::hotContext for the
  /// project model: code reached once per logging interval runs more often when it sits in one).
  bool InLoop = false;
};

/// The body of a unit test: TestBody() of a GoogleTest test (a class deriving from
/// ::testing::Test, or, when gtest's headers are missing, a class named `*_Test`), a Catch2 or
/// doctest test function (the names their macros generate), a Boost.Test test_method(), or any
/// function declared by a TEST / TEST_F / TEST_P / TYPED_TEST / TEST_CASE / SCENARIO /
/// BOOST_AUTO_TEST_CASE macro.
bool isTestBody(const clang::FunctionDecl *FD);

/// A loop statement (for, while, range-for, do) other than `do { ... } while (0)`, the once-only
/// statement wrapper of macros such as AT_ASSERT and TORCH_CHECK.
bool isLoopStatement(const clang::Stmt *S);

/// A loop over a bounded, per-model collection rather than over steps: a range-for over the
/// model's parameters, buffers or submodules, an optimizer's parameter groups, or a braced list
/// of at most 16 elements (`for (double t : {0.5, 1.0, 2.0})`), or a local container initialised
/// from such a list and only read in its function, iterated or indexed up to its size()
/// (`for (size_t i = 0; i < prompts.size(); ++i)` over four demo sentences). Such a loop makes nothing hot by
/// itself: its body is hot when the loop is (a gradient-norm loop called on every step), not when
/// it runs once (saving the weights after training).
bool isBoundedLoop(const clang::Stmt *S);

/// A call of a virtual method through the object (`agent->step(obs)`), which dispatches to the
/// dynamic type's override; not `Base::step(obs)`, which names its method.
bool isVirtualDispatch(const clang::CallExpr *C);

/// `MyFn::apply(x, w)` of a custom autograd function (a class deriving from
/// torch::autograd::Function<MyFn>): libtorch's apply() calls MyFn::forward(ctx, ...) there and
/// MyFn::backward(ctx, grads) in the backward pass of the same step. Those static methods of
/// MyFn that the class declares, or nothing for any other call.
std::vector<const clang::CXXMethodDecl *> autogradFunctionMethodsBehind(const clang::CallExpr *C);

class HotCodeAnalysis {
public:
  /// The analysis of the TU that owns Ctx, built on first use and cached for this thread.
  static const HotCodeAnalysis &get(clang::ASTContext &Ctx);

  explicit HotCodeAnalysis(clang::ASTContext &Ctx);

  /// nullopt when S runs once (setup code), otherwise why it is hot.
  std::optional<HotContext> whyHot(const clang::Stmt *S) const;
  /// Why function FD runs on every step (reached from a loop or forward()).
  std::optional<HotContext> whyHot(const clang::FunctionDecl *FD) const;
  /// The innermost loop around S within its function, or null.
  const clang::Stmt *enclosingLoop(const clang::Stmt *S) const;
  /// True when S is written in the body of a unit test (isTestBody), lambdas in it included.
  bool inTestBody(const clang::Stmt *S) const;

  /// The parent of S in user code (statements only; a function body's parent is null), built
  /// during the analysis' own traversal of user code. Checks use this instead of
  /// ASTContext::getParents / hasAncestor, which would build a parent map of all of libtorch.
  const clang::Stmt *parentOf(const clang::Stmt *S) const { return Parents.lookup(S); }
  /// The expression that uses E: its nearest parent (parentOf) past implicit casts, temporaries,
  /// parentheses, cleanups and one-argument constructions, or null when that is not an expression
  /// or lies more than 8 levels up. A one-argument construction written as a temporary object
  /// (`W{e}`) is passed over when SkipTemporaryObjects, else it is the user.
  const clang::Expr *userOf(const clang::Expr *E, bool SkipTemporaryObjects) const;
  /// The function (or lambda call operator) whose body contains S, or null outside user code.
  const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S) const;
  /// The user functions FD calls directly, from the TU's call graph (canonical declarations; a
  /// call to a template specialization also lists the template's pattern).
  std::vector<const clang::FunctionDecl *> callees(const clang::FunctionDecl *FD) const;
  /// Every call of FD in user code of this TU (calls and constructions; a template's pattern
  /// also gets its specializations' calls), in no particular order.
  std::vector<const clang::Expr *> callsOf(const clang::FunctionDecl *FD) const;
  /// True when user code of this TU names FD other than as the callee of a call (its address
  /// taken, passed as a callback): then its calls in this TU are not all its callers.
  bool referencedOtherThanCalled(const clang::FunctionDecl *FD) const {
    return Referenced.count(FD->getCanonicalDecl());
  }
  /// The argument passed to parameter PV at every call of its function in this TU, when that is
  /// all its function ever receives there: the function is called at least once and never named
  /// otherwise, PV is a const reference or a copy that is never written, and no call leaves it
  /// to its default. Else nullopt. (Callers in other TUs are not seen.)
  /// With AllowNonConstReference, a non-const reference parameter counts too (it still names the
  /// caller's object, which the function may change). With Defaults, a call that leaves PV to its
  /// default passes the default as written in the declaration (what a constant needs; a device
  /// or a dtype default is not followed).
  std::optional<std::vector<const clang::Expr *>> argumentsAtEveryCall(const clang::ParmVarDecl *PV,
                                                                       bool AllowNonConstReference = false,
                                                                       bool Defaults = false) const;

  /// The methods defined in this TU that override M (directly or through other overrides): what
  /// a call of M dispatched through the object may run here.
  std::vector<const clang::CXXMethodDecl *> overridersOf(const clang::CXXMethodDecl *M) const;

  /// "main()", "Net::forward()", "the lambda at line 12".
  std::string describe(const clang::FunctionDecl *FD) const;
  unsigned line(clang::SourceLocation Loc) const;
  /// "line 70" when Loc is in the file of From, else "train.cpp:70" (a loop of the main file that
  /// calls a function of a header).
  std::string placeFrom(clang::SourceLocation Loc, clang::SourceLocation From) const;

  struct CallSite {
    const clang::FunctionDecl *Caller; // canonical
    const clang::Expr *Call;
    std::vector<const clang::Stmt *> Loops; // loops in Caller around the call, outermost first
  };

  /// A loop whose body runs a whole training pass per iteration (it contains a loop that runs
  /// a training step: a data-loader loop, or one calling backward() or an optimizer's step(),
  /// directly or through helpers). Code in such a loop, outside the inner loop, runs once per
  /// epoch: it is not hot. A loop that reaches the training pass only under a periodic condition
  /// (`if (t % n_steps == 0) update();`: a rollout loop) is not an epoch loop.
  bool isEpochLoop(const clang::Stmt *Loop) const { return EpochLoops.count(Loop); }

private:
  void build();
  /// Gives each override defined here the call sites that dispatch through what it overrides.
  void addDispatchedCalls(const std::vector<const clang::CXXMethodDecl *> &Overriders,
                          const llvm::DenseSet<const clang::Expr *> &VirtualCalls);
  void classifyLoops(const std::vector<CallSite> &StepCalls,
                     const std::vector<std::pair<const clang::Stmt *, CallSite>> &Loops,
                     const llvm::DenseSet<const clang::Stmt *> &LoaderLoops);
  std::optional<HotContext> hotAt(const clang::Stmt *S, const clang::Stmt *&Loop, const clang::FunctionDecl *&FD) const;

  clang::ASTContext &Ctx;
  // callee (canonical) -> call sites
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CallSite>> Callers;
  // canonical function -> why it is hot (only hot functions are present)
  llvm::DenseMap<const clang::FunctionDecl *, std::string> HotFunctions;
  llvm::DenseSet<const clang::Stmt *> EpochLoops;
  llvm::DenseSet<const clang::Stmt *> BoundedLoops; // isBoundedLoop

  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parents;
  llvm::DenseMap<const clang::Stmt *, const clang::FunctionDecl *> BodyOf; // body -> function
  llvm::DenseSet<const clang::FunctionDecl *> TestBodies;                  // canonical, isTestBody
  llvm::DenseSet<const clang::FunctionDecl *> Referenced;                  // canonical, named other than as a callee
  std::vector<const clang::CXXMethodDecl *> Overrides;                     // methods defined here that override another
  /// True when S runs in Loop only under a periodic condition written between them (`if (t % n ==
  /// 0)`, `if (memory.size() >= batch)`).
  bool periodicWithin(const clang::Stmt *S, const clang::Stmt *Loop) const;
  /// The innermost loop of Loops that is not an epoch loop, or null.
  const clang::Stmt *hotLoop(const std::vector<const clang::Stmt *> &Loops) const;
};

} // namespace torchlint
