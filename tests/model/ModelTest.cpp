// Unit tests of the project model (model/): summaries built from small TUs parsed against
// fuzz/stubs/torch_mini.h, their JSON, the merge across TUs (step loops, hot functions, virtual
// calls, data-loading loops), finding resolution, and bad input (another format, malformed
// summaries, functions defined at several places) on hand-written JSON; the summaries array that shard reports
// and the project index share (core/SummariesJson.h).
#include "core/SummariesJson.h"
#include "model/HotBasis.h"
#include "model/LocalModel.h"
#include "model/ProjectModel.h"
#include "model/TUSummary.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace clang;
using namespace torchlint;
using namespace torchlint::model;

namespace {

/// The summary of Code, parsed as file Name (the stub a user header, or with SystemStub a system
/// header, as the project tests include it: its own `kCUDA` is then not the user's).
TUSummary summarize(const std::string &Code, const std::string &Name, bool SystemStub = false) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "#include \"torch_mini.h\"\n" + Code,
      {"-std=c++17", "-nostdinc", SystemStub ? "-isystem" : "-I", TORCHLINT_MINI_TORCH_DIR, "-fsyntax-only"}, Name);
  EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  return buildTUSummary(AST->getASTContext());
}

const Function *find(const TUSummary &S, const std::string &Name) {
  for (const Function &F : S.Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

/// A header both TUs of a test include (written as code in each).
const char *Metrics = "struct Metrics { at::Tensor loss_sum; void update(const at::Tensor &l); };\n"
                      "struct Net : torch::nn::Module { at::Tensor forward(const at::Tensor &x); };\n";

ProjectModel merged(std::vector<TUSummary> Summaries) {
  ProjectModel M;
  for (TUSummary &S : Summaries) // through JSON, as the cache and the workers hand them over
    M.addJson(toJson(S), S.MainFile);
  M.finish();
  return M;
}

/// main() of /p/a.cpp with a step loop at 2:3 (a backward in it), and a finding's basis: that loop.
Function mainWithStepLoop() {
  return {"c:@F@main#", "main", "/p/a.cpp", 1, false, false, {}, {{"/p/a.cpp", 2, 3, -1, false}},
          {}, {{StepKind::Backward, 0, 3}}};
}
HotBasis inMainLoop() {
  HotBasis Basis;
  Basis.K = HotBasis::Loop;
  Basis.FunctionUSR = "c:@F@main#";
  Basis.File = "/p/a.cpp";
  Basis.Line = 2;
  Basis.Column = 3;
  Basis.Why = "in the loop at line 2 of main()";
  return Basis;
}

std::string usrNamed(const std::vector<TUSummary> &Ss, const std::string &Name) {
  for (const TUSummary &S : Ss)
    if (const Function *F = find(S, Name))
      return F->USR;
  return "";
}

TEST(TUSummary, RecordsFunctionsCallsLoopsAndSteps) {
  TUSummary S = summarize(std::string(Metrics) + "void helper();\n"
                                                 "void train(Net &net, torch::optim::SGD &opt, Metrics &m) {\n"
                                                 "  helper();\n"
                                                 "  for (int i = 0; i < 10; ++i) {\n"
                                                 "    at::Tensor loss = net.forward(at::Tensor());\n"
                                                 "    loss.backward();\n"
                                                 "    opt.step();\n"
                                                 "    if (i % 10 == 0) m.update(loss);\n"
                                                 "  }\n"
                                                 "}\n",
                          "train.cc");
  const Function *T = find(S, "train");
  ASSERT_TRUE(T);
  EXPECT_EQ("train.cc", llvm::sys::path::filename(T->File).str());
  EXPECT_EQ(5u, T->Line);
  ASSERT_EQ(1u, T->Loops.size());
  EXPECT_EQ(7u, T->Loops[0].Line);
  ASSERT_EQ(3u, T->Steps.size()); // forward, backward, step
  for (const Step &St : T->Steps)
    EXPECT_EQ(0, St.Loop);
  const Call *Helper = nullptr, *Update = nullptr;
  for (const Call &C : T->Calls) {
    if (C.Line == 6)
      Helper = &C;
    if (C.Line == 11)
      Update = &C;
  }
  ASSERT_TRUE(Helper && Update);
  EXPECT_EQ(-1, Helper->Loop);
  EXPECT_FALSE(Helper->Conditional);
  EXPECT_EQ(0, Update->Loop);
  EXPECT_TRUE(Update->Conditional) << "under `if (i % 10 == 0)`";
  EXPECT_FALSE(Helper->Callee.empty());
  // JSON round trip.
  std::string Err;
  std::optional<TUSummary> Back = fromJson(toJson(S), Err);
  ASSERT_TRUE(Back) << Err;
  const Function *T2 = find(*Back, "train");
  ASSERT_TRUE(T2);
  EXPECT_EQ(T->USR, T2->USR);
  EXPECT_EQ(T->Calls.size(), T2->Calls.size());
  EXPECT_EQ(T->Steps.size(), T2->Steps.size());
  auto Conditional = [](const Function *F) {
    return std::count_if(F->Calls.begin(), F->Calls.end(), [](const Call &C) { return C.Conditional; });
  };
  EXPECT_EQ(Conditional(T), Conditional(T2));
  EXPECT_LE(1, Conditional(T2));
}

TEST(TUSummary, VirtualCallsOverridesAndLambdas) {
  TUSummary S = summarize("struct Agent { virtual void act(); virtual ~Agent(); };\n"
                          "struct Dqn : Agent { void act() override; };\n"
                          "void Dqn::act() {}\n"
                          "void run(Agent &a) {\n"
                          "  a.act();\n"
                          "  a.Agent::act();\n"
                          "  auto f = [&] { a.act(); };\n"
                          "  for (int i = 0; i < 3; ++i) f();\n"
                          "}\n",
                          "agent.cc");
  const Function *Act = find(S, "Dqn::act");
  ASSERT_TRUE(Act);
  ASSERT_EQ(1u, Act->Overrides.size());
  const Function *Run = find(S, "run");
  ASSERT_TRUE(Run);
  unsigned Virtual = 0, Direct = 0, Lambda = 0;
  for (const Call &C : Run->Calls) {
    if (C.Callee == Act->Overrides[0])
      (C.Virtual ? Virtual : Direct)++;
    if (llvm::StringRef(C.Callee).starts_with("lambda@"))
      ++Lambda;
  }
  EXPECT_EQ(1u, Virtual);
  EXPECT_EQ(1u, Direct) << "a qualified call does not dispatch";
  EXPECT_EQ(2u, Lambda) << "the lambda where it is written and where it is called";
}

TEST(TUSummary, BuildingAModuleThroughItsHolderCallsItsConstructor) {
  // Library templates call NetImpl's constructors (ModuleHolder's `new NetImpl(...)`,
  // std::make_shared) and forward() (ModuleHolder::operator()): the summary records them as calls.
  TUSummary S = summarize("struct NetImpl : torch::nn::Module {\n"
                          "  explicit NetImpl(long channels);\n"
                          "  explicit NetImpl(const char *path);\n"
                          "  at::Tensor forward(const at::Tensor &x);\n"
                          "};\n"
                          "TORCH_MODULE(Net);\n"
                          "void byValue() { Net net(16); }\n"
                          "void byPath() { Net net = Net(\"net.pt\"); }\n"
                          "void empty() { Net net{nullptr}; Net other = net; net = nullptr; }\n"
                          "void shared() { auto p = std::make_shared<NetImpl>(16); Net net(p); }\n"
                          "void call(Net &net) { net(torch::rand({1})); }\n",
                          "net.cc", /*SystemStub=*/true);
  const std::string Long = "c:@S@NetImpl@F@NetImpl#L#", Path = "c:@S@NetImpl@F@NetImpl#*1C#",
                    Forward = "c:@S@NetImpl@F@forward#&1$@N@at@S@Tensor#";
  auto Callees = [&](const char *Name) {
    std::vector<std::string> Out;
    if (const Function *F = find(S, Name))
      for (const Call &C : F->Calls)
        if (llvm::StringRef(C.Callee).starts_with("c:@S@NetImpl@"))
          Out.push_back(C.Callee);
    return Out;
  };
  EXPECT_EQ(std::vector<std::string>{Long}, Callees("byValue")) << "the overload the holder's new-expression calls";
  EXPECT_EQ(std::vector<std::string>{Path}, Callees("byPath"));
  EXPECT_EQ(std::vector<std::string>{}, Callees("empty")) << "an empty holder, a copy: no module is built";
  EXPECT_EQ((std::vector<std::string>{Long, Path}), Callees("shared")) << "make_shared: by the number of arguments";
  EXPECT_EQ(std::vector<std::string>{Forward}, Callees("call"));
}

TEST(ProjectModel, AFunctionInAnotherFileCalledFromTheStepLoopIsHot) {
  std::vector<TUSummary> Ss = {
      summarize(std::string(Metrics) + "void Metrics::update(const at::Tensor &l) { loss_sum = l; }\n", "metrics.cc"),
      summarize(std::string(Metrics) + "void fit(Net &net, torch::optim::SGD &opt, Metrics &m) {\n"
                                       "  for (int i = 0; i < 10; ++i) {\n"
                                       "    at::Tensor loss = net.forward(at::Tensor());\n"
                                       "    loss.backward();\n"
                                       "    opt.step();\n"
                                       "    m.update(loss);\n"
                                       "  }\n"
                                       "}\n",
                "trainer.cc")};
  ProjectModel M = merged(Ss);
  EXPECT_TRUE(M.notes().empty());
  ASSERT_TRUE(M.hasStepLoops());
  std::optional<Hot> H = M.functionHot(usrNamed(Ss, "Metrics::update"));
  ASSERT_TRUE(H);
  EXPECT_EQ("in Metrics::update() (metrics.cc), called on every step of the loop in fit() at trainer.cc:5", H->Why);
  ASSERT_EQ(2u, H->Path.size());
  EXPECT_EQ(9u, H->Path[1].Line);
  EXPECT_FALSE(M.functionHot(usrNamed(Ss, "fit")));

  // A finding in update() that was not hot in metrics.cc is now reported, with the path.
  Finding F;
  F.Message = "item() syncs";
  HotBasis B;
  B.K = HotBasis::Conditional;
  B.FunctionUSR = usrNamed(Ss, "Metrics::update");
  F.Message += encodeBasis(B);
  ASSERT_TRUE(M.resolve(F));
  EXPECT_EQ("item() syncs (" + H->Why + ")", F.Message);
  EXPECT_EQ(2u, F.Notes.size());
  // One in fit() outside the loop is not.
  Finding G;
  B.FunctionUSR = usrNamed(Ss, "fit");
  G.Message = "item() syncs" + encodeBasis(B);
  EXPECT_FALSE(M.resolve(G));
  // A finding without a basis is kept as it is.
  Finding Plain;
  Plain.Message = "plain";
  EXPECT_TRUE(M.resolve(Plain));
  EXPECT_EQ("plain", Plain.Message);
}

TEST(ProjectModel, ADataLoadingLoopIsNotAStepLoopAndAnEpochLoopIsNot) {
  std::vector<TUSummary> Ss = {
      summarize("struct Data { std::vector<at::Tensor> xs; };\n"
                "at::Tensor parse(int i);\n"
                "void load(Data &d) {\n"
                "  for (int i = 0; i < 100; ++i)\n"
                "    d.xs.push_back(parse(i));\n"
                "}\n",
                "loader.cc"),
      summarize(std::string(Metrics) +
                    "void epoch(Net &net, torch::optim::SGD &opt) {\n"
                    "  for (int i = 0; i < 10; ++i) {\n"
                    "    torch::nn::functional::mse_loss(net.forward(at::Tensor()), at::Tensor()).backward();\n"
                    "    opt.step();\n"
                    "  }\n"
                    "}\n"
                    "void fit(Net &net, torch::optim::SGD &opt) {\n"
                    "  for (int e = 0; e < 3; ++e) epoch(net, opt);\n"
                    "}\n",
                "train.cc")};
  ProjectModel M = merged(Ss);
  const TUSummary &Loader = Ss[0];
  const Loop &LoadLoop = find(Loader, "load")->Loops[0];
  EXPECT_EQ(std::optional<bool>(false), M.inStepLoop(LoadLoop.File, LoadLoop.Line, LoadLoop.Column));
  const Function *Epoch = find(Ss[1], "epoch");
  EXPECT_EQ(std::optional<bool>(true), M.inStepLoop(Epoch->File, Epoch->Loops[0].Line, Epoch->Loops[0].Column));
  const Function *Fit = find(Ss[1], "fit");
  EXPECT_EQ(std::optional<bool>(false), M.inStepLoop(Fit->File, Fit->Loops[0].Line, Fit->Loops[0].Column))
      << "the epoch loop calls a function holding the step loop";
  // A finding made hot in loader.cc by its loop is dropped.
  Finding F;
  HotBasis B;
  B.K = HotBasis::Loop;
  B.FunctionUSR = find(Loader, "load")->USR;
  B.File = LoadLoop.File;
  B.Line = LoadLoop.Line;
  B.Column = LoadLoop.Column;
  B.Why = "in the loop at line 5 of load()";
  F.Message = "item() syncs" + encodeBasis(B);
  EXPECT_FALSE(M.resolve(F));
  // With no step loop anywhere, the TU's answer stands (a snippet, an inference tool).
  ProjectModel OnlyLoader = merged({Ss[0]});
  EXPECT_FALSE(OnlyLoader.hasStepLoops());
  Finding G;
  G.Message = "item() syncs" + encodeBasis(B);
  EXPECT_TRUE(OnlyLoader.resolve(G));
  EXPECT_EQ("item() syncs (in the loop at line 5 of load())", G.Message);
}

TEST(LocalModel, OneFileAloneLeavesOutCodeThatRunsOutsideTheStep) {
  TUSummary S = summarize(std::string(Metrics) +
                              "at::Tensor readImage(int i);\n"       // defined in another file
                              "void report(const at::Tensor &t);\n"  // defined in another file
                              "struct Scene {\n"
                              "  std::vector<at::Tensor> images;\n"
                              "  explicit Scene(int n) { for (int i = 0; i < n; ++i) images.push_back(readImage(i)); }\n"
                              "};\n"
                              "void save(Net &net) { for (int i = 0; i < 4; ++i) report(at::Tensor()); }\n"
                              "void helper(const at::Tensor &t) { for (int i = 0; i < 4; ++i) report(t); }\n"
                              "void logStep(const at::Tensor &t) { report(t); }\n"
                              "void epoch(Net &net, torch::optim::SGD &opt) {\n"
                              "  for (int i = 0; i < 10; ++i) {\n"
                              "    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(at::Tensor()), at::Tensor());\n"
                              "    loss.backward();\n"
                              "    opt.step();\n"
                              "    logStep(loss);\n"
                              "  }\n"
                              "  save(net);\n"
                              "}\n"
                              "int main() {\n"
                              "  Scene scene(3);\n"
                              "  Net net; torch::optim::SGD opt({}, 0.1);\n"
                              "  for (int e = 0; e < 3; ++e) epoch(net, opt);\n"
                              "  for (int e = 0; e < 3; ++e) save(net);\n"
                              "  for (int t = 0; t < 1000; ++t) {\n"  // a rollout loop that trains every 100 steps
                              "    net.forward(at::Tensor());\n"
                              "    if (t % 100 == 0) epoch(net, opt);\n"
                              "  }\n"
                              "  return 0;\n"
                              "}\n",
                          "main.cc");
  LocalModel L(S);
  EXPECT_TRUE(L.trains());
  auto Usr = [&](const std::string &Name) { return find(S, Name)->USR; };
  auto LoopPos = [&](const std::string &Name, size_t I = 0) {
    const Loop &Lp = find(S, Name)->Loops.at(I);
    return std::optional<Position>(Position{Lp.File, Lp.Line, Lp.Column});
  };
  // The scene's constructor runs once, from main(), outside its loops: its loading loop is no step.
  EXPECT_TRUE(L.outsideTraining(Usr("Scene::Scene"), LoopPos("Scene::Scene")));
  // save() runs from epoch() after its step loop, and from a loop of main() that runs no step.
  EXPECT_TRUE(L.outsideTraining(Usr("save"), LoopPos("save")));
  // helper() is called from no function here (other files may call it per step): the TU cannot tell.
  EXPECT_FALSE(L.outsideTraining(Usr("helper"), LoopPos("helper")));
  // logStep() is called in the step loop; the step loop itself is the step.
  EXPECT_FALSE(L.outsideTraining(Usr("logStep"), std::nullopt));
  EXPECT_FALSE(L.outsideTraining(Usr("epoch"), LoopPos("epoch")));
  // epoch() itself (holding the step loop) runs once per epoch, outside its step loop.
  EXPECT_TRUE(L.outsideTraining(Usr("epoch"), std::nullopt));
  // main()'s loops: the epoch loop and the saving loop run no step themselves.
  EXPECT_TRUE(L.outsideTraining(Usr("main"), LoopPos("main", 1)));
  // The rollout loop runs forward() on every iteration: an epoch loop to the project model (it
  // calls the training loop), but each of its iterations is a step.
  EXPECT_FALSE(L.outsideTraining(Usr("main"), LoopPos("main", 2)));
  // A file that does not train decides nothing.
  TUSummary NoMain = summarize("at::Tensor readImage(int i);\n"
                               "struct Scene { std::vector<at::Tensor> images;\n"
                               "  explicit Scene(int n) { for (int i = 0; i < n; ++i) images.push_back(readImage(i)); } };\n"
                               "int main() { Scene scene(3); return 0; }\n",
                               "infer.cc");
  LocalModel N(NoMain);
  EXPECT_FALSE(N.trains());
  const Function *Ctor = find(NoMain, "Scene::Scene");
  ASSERT_TRUE(Ctor);
  EXPECT_FALSE(N.outsideTraining(Ctor->USR, Position{Ctor->Loops[0].File, Ctor->Loops[0].Line, Ctor->Loops[0].Column}));
}

// A data set's own file (no step in it): its constructor loads once per data set, wherever the step
// is, and so does what only it calls; its get() and a free function the file leaves to others.
TEST(LocalModel, ADataSetConstructorLoadsOnceInAFileThatDoesNotTrain) {
  TUSummary S = summarize("at::Tensor readImage(int i);\n"
                          "struct ImageDataset {\n"
                          "  std::vector<at::Tensor> images;\n"
                          "  void loadSplit(int n) { for (int i = 0; i < n; ++i) images.push_back(readImage(i)); }\n"
                          "  explicit ImageDataset(int n) {\n"
                          "    for (int i = 0; i < n; ++i) images.push_back(readImage(i));\n"
                          "    loadSplit(n);\n"
                          "  }\n"
                          "  at::Tensor get(int i) { at::Tensor t; for (int k = 0; k < 2; ++k) t = readImage(i); return t; }\n"
                          "};\n"
                          "struct Scene { explicit Scene(int n) { for (int i = 0; i < n; ++i) readImage(i); } };\n",
                          "dataset.cc");
  LocalModel L(S);
  EXPECT_FALSE(L.trains());
  auto At = [&](const std::string &Name) {
    const Function *F = find(S, Name);
    EXPECT_TRUE(F) << Name;
    return std::make_pair(F->USR, std::optional<Position>(Position{F->Loops[0].File, F->Loops[0].Line, F->Loops[0].Column}));
  };
  auto [Ctor, CtorLoop] = At("ImageDataset::ImageDataset");
  EXPECT_TRUE(L.outsideTraining(Ctor, CtorLoop));
  auto [Split, SplitLoop] = At("ImageDataset::loadSplit");
  EXPECT_TRUE(L.outsideTraining(Split, SplitLoop));
  auto [Get, GetLoop] = At("ImageDataset::get");
  EXPECT_FALSE(L.outsideTraining(Get, GetLoop)); // per batch, from the loader
  auto [Scene, SceneLoop] = At("Scene::Scene");
  EXPECT_FALSE(L.outsideTraining(Scene, SceneLoop)); // not named for a data set: the file cannot tell
  EXPECT_TRUE(isDataSetConstructor("data::MnistLoader::MnistLoader"));
  EXPECT_TRUE(isDataSetConstructor("Dataset::Dataset"));
  EXPECT_FALSE(isDataSetConstructor("Dataset::load"));
  EXPECT_FALSE(isDataSetConstructor("Scene::Scene"));
}

TEST(LocalModel, FunctionsReachedOnlyThroughLoggingBranchesAreRare) {
  TUSummary S = summarize(std::string(Metrics) +
                              "void report(const at::Tensor &t);\n" // defined in another file
                              "void renderTiles(Net &net) { for (int i = 0; i < 64; ++i) report(net.forward(at::Tensor())); }\n"
                              "void visualize(Net &net) { renderTiles(net); }\n"
                              "void sample(Net &net) { for (int k = 0; k < 3; ++k) renderTiles(net); }\n"
                              "void perStep(const at::Tensor &t) { report(t); }\n"
                              "void logged(const at::Tensor &t) { report(t); }\n"
                              "void train(Net &net, torch::optim::SGD &opt) {\n"
                              "  for (int it = 0; it < 1000; ++it) {\n"
                              "    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(at::Tensor()), at::Tensor());\n"
                              "    loss.backward();\n"
                              "    opt.step();\n"
                              "    perStep(loss);\n"
                              "    if (it % 100 == 0) visualize(net);\n"
                              "    if (it % 100 == 0) sample(net);\n"
                              "    if (it % 10 == 0) logged(loss);\n"
                              "  }\n"
                              "  for (int i = 0; i < 5; ++i) visualize(net);\n" // after training: once
                              "}\n"
                              "void orphan(Net &net) { net.forward(at::Tensor()); }\n"
                              "int main() {\n"
                              "  Net net; torch::optim::SGD opt({}, 0.1);\n"
                              "  train(net, opt);\n"
                              "  return 0;\n"
                              "}\n",
                          "main.cc");
  LocalModel L(S);
  ASSERT_TRUE(L.trains());
  auto Usr = [&](const std::string &Name) { return find(S, Name)->USR; };
  // visualize(): under the logging branch and after training; at most once per interval.
  const LocalModel::Rare *V = L.rareOnly(Usr("visualize"));
  ASSERT_TRUE(V);
  EXPECT_TRUE(V->OncePerInterval);
  EXPECT_NE(V->Why.find("visualize() is called at main.cc:"), std::string::npos) << V->Why;
  EXPECT_NE(V->Why.find("logging branch"), std::string::npos) << V->Why;
  EXPECT_TRUE(L.rareOnly(Usr("logged")));
  const LocalModel::Rare *Sm = L.rareOnly(Usr("sample"));
  ASSERT_TRUE(Sm);
  EXPECT_TRUE(Sm->OncePerInterval);
  // renderTiles(): only from rare functions (visualize, sample); sample calls it in a loop, so it
  // runs more than once per interval.
  const LocalModel::Rare *R = L.rareOnly(Usr("renderTiles"));
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->OncePerInterval);
  // Called on every step, called by nobody here (orphan() may run per step from another file), or
  // the training function itself: not rare.
  EXPECT_FALSE(L.rareOnly(Usr("perStep")));
  EXPECT_FALSE(L.rareOnly(Usr("orphan")));
  EXPECT_FALSE(L.rareOnly(Usr("train")));
  // A file that does not train decides nothing.
  TUSummary NoTrain = summarize("void report(int);\n"
                                "void show() { report(1); }\n"
                                "int main() { for (int i = 0; i < 9; ++i) if (i % 3 == 0) show(); return 0; }\n",
                                "tool.cc");
  LocalModel N(NoTrain);
  EXPECT_FALSE(N.rareOnly(find(NoTrain, "show")->USR));
}

TEST(ProjectModel, VirtualCallsReachOverridesInOtherFiles) {
  const char *Agent = "struct Agent { virtual void learn(); virtual ~Agent(); };\n";
  std::vector<TUSummary> Ss = {summarize(std::string(Agent) +
                                             "struct Dqn : Agent { torch::optim::SGD *opt; void learn() override; };\n"
                                             "void Dqn::learn() { opt->zero_grad(); opt->step(); }\n",
                                         "dqn.cc"),
                               summarize(std::string(Agent) + "void play(Agent &a) {\n"
                                                              "  for (int i = 0; i < 10; ++i) a.learn();\n"
                                                              "}\n",
                                         "main.cc")};
  ProjectModel M = merged(Ss);
  EXPECT_TRUE(M.doesStep(usrNamed(Ss, "Dqn::learn")));
  const Function *Play = find(Ss[1], "play");
  EXPECT_EQ(std::optional<bool>(true), M.inStepLoop(Play->File, Play->Loops[0].Line, Play->Loops[0].Column));
  std::optional<Hot> H = M.functionHot(usrNamed(Ss, "Dqn::learn"));
  ASSERT_TRUE(H);
  EXPECT_NE(std::string::npos, H->Why.find("called on every step of the loop in play() at main.cc:4")) << H->Why;
}

TEST(ProjectModel, ACustomAutogradFunctionRunsWhereItsApplyIsCalled) {
  // MyFn::apply(x) in a function of the step runs MyFn::forward() (and backward()) on every step,
  // though no code calls them by name: libtorch's apply() does.
  const char *Fn = "struct Scale : torch::autograd::Function<Scale> {\n"
                   "  static at::Tensor forward(torch::autograd::AutogradContext *ctx, const at::Tensor &x);\n"
                   "  static at::Tensor backward(torch::autograd::AutogradContext *ctx, const at::Tensor &g);\n"
                   "};\n";
  std::vector<TUSummary> Ss = {
      summarize(std::string(Fn) +
                    "at::Tensor Scale::forward(torch::autograd::AutogradContext *, const at::Tensor &x) { return x; }\n"
                    "at::Tensor Scale::backward(torch::autograd::AutogradContext *, const at::Tensor &g) { return g; }\n",
                "scale.cc", /*SystemStub=*/true),
      summarize(std::string(Fn) + "void fit(torch::optim::SGD &opt, at::Tensor x) {\n"
                                  "  for (int i = 0; i < 10; ++i) {\n"
                                  "    at::Tensor loss = Scale::apply(x);\n"
                                  "    loss.backward();\n"
                                  "    opt.step();\n"
                                  "  }\n"
                                  "}\n",
                "trainer.cc", /*SystemStub=*/true)};
  ProjectModel M = merged(Ss);
  std::optional<Hot> H = M.functionHot(usrNamed(Ss, "Scale::forward"));
  ASSERT_TRUE(H);
  EXPECT_NE(std::string::npos, H->Why.find("called on every step of the loop in fit() at trainer.cc:7")) << H->Why;
  EXPECT_TRUE(M.functionHot(usrNamed(Ss, "Scale::backward")));
}

TEST(ProjectModel, ForwardAndWhatItCallsAreHot) {
  std::vector<TUSummary> Ss = {summarize(std::string(Metrics) +
                                             "at::Tensor scale(const at::Tensor &x);\n"
                                             "at::Tensor Net::forward(const at::Tensor &x) { return scale(x); }\n"
                                             "at::Tensor scale(const at::Tensor &x) { return x; }\n",
                                         "model.cc")};
  ProjectModel M = merged(Ss);
  std::optional<Hot> H = M.functionHot(usrNamed(Ss, "scale"));
  ASSERT_TRUE(H);
  EXPECT_EQ("in scale() (model.cc), called from Net::forward() (model.cc), which runs on every forward pass", H->Why);
}

TEST(ProjectModel, BadInputGivesNotesAndTheModelIsBuiltFromTheRest) {
  ProjectModel M;
  M.addJson(llvm::json::Object{{"format", 999}, {"torchlint", "0.1"}, {"functions", llvm::json::Array{}}}, "old.cpp");
  M.addJson(llvm::json::Value("not a summary"), "junk.cpp");
  M.addJson(
      llvm::json::Object{{"format", SummaryFormat}, {"functions", llvm::json::Array{llvm::json::Object{{"usr", "x"}}}}},
      "broken.cpp");
  M.addJson(
      llvm::json::Object{{"format", SummaryFormat},
                         {"functions", llvm::json::Array{llvm::json::Object{
                                           {"usr", "c:@F@f"},
                                           {"name", "f"},
                                           {"file", "/a.cpp"},
                                           {"line", 1},
                                           {"loops", llvm::json::Array{llvm::json::Object{
                                                         {"file", "/a.cpp"}, {"line", 2}, {"col", 3}, {"parent", 7}}}},
                                           {"calls", llvm::json::Array{}},
                                           {"steps", llvm::json::Array{}}}}}},
      "badloop.cpp");
  auto Def = [](const std::string &File, int Line) {
    return llvm::json::Object{{"format", SummaryFormat},
                              {"main", File},
                              {"functions", llvm::json::Array{llvm::json::Object{{"usr", "c:@F@main#"},
                                                                                 {"name", "main"},
                                                                                 {"file", File},
                                                                                 {"line", Line},
                                                                                 {"loops", llvm::json::Array{}},
                                                                                 {"calls", llvm::json::Array{}},
                                                                                 {"steps", llvm::json::Array{}}}}}};
  };
  M.addJson(Def("/p/tool_a.cpp", 3), "/p/tool_a.cpp");
  M.addJson(Def("/p/tool_b.cpp", 9), "/p/tool_b.cpp");
  M.finish();
  ASSERT_EQ(5u, M.notes().size());
  EXPECT_NE(std::string::npos, M.notes()[0].find("'old.cpp' is ignored: written by another torchlint version (0.1, "
                                                 "summary format 999"))
      << M.notes()[0];
  EXPECT_NE(std::string::npos, M.notes()[1].find("'junk.cpp' is ignored: malformed summary")) << M.notes()[1];
  EXPECT_NE(std::string::npos, M.notes()[2].find("'broken.cpp' is ignored: malformed summary: no 'name'"))
      << M.notes()[2];
  EXPECT_NE(std::string::npos, M.notes()[3].find("'badloop.cpp' is ignored: malformed summary")) << M.notes()[3];
  EXPECT_EQ("main() is defined at 2 places, /p/tool_a.cpp:3 and /p/tool_b.cpp:9 (several programs in one compile "
            "database?); the project model keeps them apart: a file's calls reach the definition it holds, or else "
            "the first",
            M.notes()[4]);
  EXPECT_EQ(2u, M.functionCount());
}

TEST(ProjectModel, ProgramsOfOneDatabaseKeepTheirOwnDefinitions) {
  // A tutorial collection: each program defines main() and a helper of the same name. Only the
  // second program calls its helper in the step loop; the first calls its own once, after training.
  // Before, the first definition of each USR stood for all of them and the second program's step
  // loop reached the first program's helper.
  const char *Net = "struct Net : torch::nn::Module { at::Tensor forward(const at::Tensor &x); };\n"
                    "torch::optim::SGD *make_opt();\n";
  std::vector<TUSummary> Ss = {
      summarize(std::string(Net) + "void show(Net &n, const at::Tensor &x) { n.forward(x); }\n"
                                   "int main() {\n"
                                   "  Net n; torch::optim::SGD &opt = *make_opt(); at::Tensor x;\n"
                                   "  for (int e = 0; e < 3; ++e) { n.forward(x).backward(); opt.step(); }\n"
                                   "  show(n, x);\n"
                                   "}\n",
                "a_tutorial.cc"),
      summarize(std::string(Net) + "void show(Net &n, const at::Tensor &x) { n.forward(x); }\n"
                                   "int main() {\n"
                                   "  Net n; torch::optim::SGD &opt = *make_opt(); at::Tensor x;\n"
                                   "  for (int e = 0; e < 3; ++e) {\n"
                                   "    show(n, x);\n"
                                   "    n.forward(x).backward(); opt.step();\n"
                                   "  }\n"
                                   "}\n",
                "b_tutorial.cc")};
  ProjectModel M = merged(Ss);
  ASSERT_EQ(1u, M.notes().size());
  EXPECT_NE(std::string::npos, M.notes()[0].find("main() is defined at 2 places, ")) << M.notes()[0];
  EXPECT_NE(std::string::npos, M.notes()[0].find("b_tutorial.cc:5; 3 more functions are too: Net::Net(), "
                                                 "Net::~Net() and show() (several programs in one compile database?)"))
      << M.notes()[0];
  // Each main()'s loop is a step loop, each in its own file.
  for (const TUSummary &S : Ss) {
    const Function *Main = find(S, "main");
    ASSERT_TRUE(Main && !Main->Loops.empty());
    EXPECT_EQ(std::optional<bool>(true), M.inStepLoop(Main->File, Main->Loops[0].Line, Main->Loops[0].Column))
        << S.MainFile;
  }
  // A finding in each show(), as its TU sends it (the plain USR): hot only in the second program.
  auto Resolve = [&](const TUSummary &S) {
    const Function *Show = find(S, "show");
    Finding F;
    F.File = Show->File;
    HotBasis B;
    B.K = HotBasis::Conditional;
    B.FunctionUSR = Show->USR;
    F.Message = "item() syncs" + encodeBasis(B);
    return M.resolve(F) ? F.Message : std::string("dropped");
  };
  EXPECT_EQ("dropped", Resolve(Ss[0]));
  EXPECT_NE(std::string::npos, Resolve(Ss[1]).find("in show() (b_tutorial.cc), called on every step of the loop in "
                                                   "main() at b_tutorial.cc:7"))
      << Resolve(Ss[1]);
}

const FieldFacts *field(const TUSummary &S, const std::string &Name) {
  for (const FieldFacts &F : S.Fields)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

TEST(TUSummary, RecordsWhereTheTensorsStoredInFieldsLive) {
  TUSummary S = summarize(
      "at::Tensor read(int i);\n"
      "void fill(at::Tensor &t);\n"
      "struct Store {\n"
      "  at::Tensor host, gpu, mixed, byref, readonly, self;\n"
      "  std::vector<at::Tensor> list, ranged;\n"
      "  at::Tensor init = torch::zeros({2});\n"
      "  Store() : gpu(torch::zeros({1}).cuda()) {}\n"
      "  void load(int n) {\n"
      "    std::vector<at::Tensor> parts;\n"
      "    for (int i = 0; i < n; ++i) { parts.push_back(read(i).cpu()); list.push_back(torch::ones({1})); }\n"
      "    host = torch::stack(parts, 0).contiguous();\n"
      "    mixed = torch::zeros({1});\n"
      "    mixed = read(0).cuda();\n"
      "    fill(byref);\n"
      "    self = torch::zeros({3});\n"
      "    self = self.contiguous();\n"
      "    for (at::Tensor &t : ranged) t = t.cuda();\n"
      "    float f = readonly.sum().item<float>();\n"
      "  }\n"
      "};\n",
      "store.cpp");
  auto Dev = [&](const char *Name) {
    const FieldFacts *F = field(S, Name);
    return F ? fieldDeviceName(F->Device) : "absent";
  };
  EXPECT_STREQ("host", Dev("Store::host"));   // a stack of a local vector of host tensors
  EXPECT_STREQ("device", Dev("Store::gpu"));  // a constructor initializer
  EXPECT_STREQ("unknown", Dev("Store::mixed"));
  EXPECT_STREQ("unknown", Dev("Store::byref")); // written through a non-const reference
  EXPECT_STREQ("absent", Dev("Store::readonly"));
  EXPECT_STREQ("host", Dev("Store::self"));   // its own old value adds nothing
  EXPECT_STREQ("host", Dev("Store::list"));   // push_back of host tensors
  EXPECT_STREQ("unknown", Dev("Store::ranged")); // written through a non-const range-for
  EXPECT_STREQ("host", Dev("Store::init"));   // in-class initializer
  EXPECT_TRUE(S.UsesCUDA);                      // .cuda()
  // Through JSON and back.
  std::string Err;
  std::optional<TUSummary> Back = fromJson(toJson(S), Err);
  ASSERT_TRUE(Back) << Err;
  ASSERT_EQ(S.Fields.size(), Back->Fields.size());
  for (size_t I = 0; I < S.Fields.size(); ++I) {
    EXPECT_EQ(S.Fields[I].USR, Back->Fields[I].USR);
    EXPECT_EQ(S.Fields[I].Device, Back->Fields[I].Device);
  }
}

TEST(ProjectModel, ASyncOnFieldsTheProjectFillsWithHostTensorsIsDropped) {
  TUSummary A, B;
  A.MainFile = "/p/a.cpp";
  B.MainFile = "/p/b.cpp";
  A.Functions.push_back(mainWithStepLoop());
  A.Fields = {{"c:@S@D@FI@host", "D::host", FieldDevice::Host}, {"c:@S@D@FI@both", "D::both", FieldDevice::Host}};
  B.Fields = {{"c:@S@D@FI@both", "D::both", FieldDevice::Device}};
  ProjectModel M = merged({A, B});
  HotBasis Basis = inMainLoop();
  auto Resolve = [&](std::vector<std::string> Fields) {
    Finding F;
    Basis.HostIfFields = std::move(Fields);
    F.Message = "item() syncs" + encodeBasis(Basis);
    return M.resolve(F);
  };
  EXPECT_FALSE(Resolve({"c:@S@D@FI@host"}));                    // host in every TU that writes it
  EXPECT_TRUE(Resolve({"c:@S@D@FI@both"}));                     // host in one TU, device in another
  EXPECT_TRUE(Resolve({"c:@S@D@FI@host", "c:@S@D@FI@both"}));   // one of them may be on the device
  EXPECT_TRUE(Resolve({"c:@S@D@FI@never"}));                    // written by no TU: not known
  EXPECT_TRUE(Resolve({}));
  // Advice for CUDA programs from a TU that does not name CUDA: kept only if some TU does.
  Basis.IfProjectUsesCUDA = true;
  EXPECT_FALSE(M.usesCUDA());
  EXPECT_FALSE(Resolve({}));
  B.UsesCUDA = true;
  ProjectModel Cuda = merged({A, B});
  EXPECT_TRUE(Cuda.usesCUDA());
  Finding F;
  Basis.HostIfFields.clear();
  F.Message = "a constant rebuilt per call" + encodeBasis(Basis);
  EXPECT_TRUE(Cuda.resolve(F));
}

TEST(ProjectModel, ConstantArgumentsAreDecidedWithEveryFilesCalls) {
  // support.cpp's constructors build tensors from their number parameters; a.cpp's step loop
  // calls them: Support with literals at both calls, Scaled once with a runtime value.
  TUSummary A, B;
  A.MainFile = "/p/a.cpp";
  B.MainFile = "/p/support.cpp";
  Function Main = mainWithStepLoop();
  auto CallOf = [](std::string Callee, std::string Const) {
    Call C;
    C.Callee = std::move(Callee);
    C.File = "/p/a.cpp";
    C.Line = 3;
    C.Loop = 0;
    C.ConstArgs = std::move(Const);
    return C;
  };
  Main.Calls = {CallOf("c:@S@Support@F@Support#", "011"), CallOf("c:@S@Support@F@Support#", "011"),
                CallOf("c:@S@Scaled@F@Scaled#", "01"), CallOf("c:@S@Scaled@F@Scaled#", "00")};
  A.Functions.push_back(Main);
  Function Over{"c:@S@Derived@F@step#", "Derived::step", "/p/support.cpp", 9};
  Over.Overrides = {"c:@S@Base@F@step#"};
  B.Functions.push_back(Over);
  Main.USR = "c:@F@other#";
  Main.Calls = {CallOf("c:@S@Derived@F@step#", "1")};
  B.Functions.push_back(Main);
  ProjectModel M = merged({A, B});
  EXPECT_TRUE(M.constantAtEveryCall("c:@S@Support@F@Support##param1"));
  EXPECT_TRUE(M.constantAtEveryCall("c:@S@Support@F@Support##param2"));
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Support@F@Support##param0")); // the tensor
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Support@F@Support##param3")); // past the arguments
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Scaled@F@Scaled##param1"));   // one call passes a variable
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Derived@F@step##param0"));    // an override: the base's calls too
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Nobody@F@f##param0"));        // no call in the project
  EXPECT_FALSE(M.constantAtEveryCall("c:@S@Support@F@Support#"));        // not a parameter key
  // A finding resting on them: kept only if every key holds; the keys travel in the basis.
  HotBasis Basis = inMainLoop();
  auto Kept = [&](std::vector<std::string> Keys) {
    Finding F;
    Basis.IfConstantArgs = std::move(Keys);
    F.Message = "a constant rebuilt per call" + encodeBasis(Basis);
    return M.resolve(F);
  };
  EXPECT_TRUE(Kept({"c:@S@Support@F@Support##param1", "c:@S@Support@F@Support##param2"}));
  EXPECT_FALSE(Kept({"c:@S@Support@F@Support##param1", "c:@S@Scaled@F@Scaled##param1"}));
  EXPECT_FALSE(Kept({"?"}));
  // ConstArgs travel through the summary's JSON.
  std::string Err;
  std::optional<TUSummary> Back = fromJson(toJson(A), Err);
  ASSERT_TRUE(Back) << Err;
  ASSERT_EQ(4u, Back->Functions[0].Calls.size());
  EXPECT_EQ("011", Back->Functions[0].Calls[0].ConstArgs);
  EXPECT_EQ("00", Back->Functions[0].Calls[3].ConstArgs);
}

TEST(ProjectModel, HostIfChainsAndCyclesAreResolvedAcrossTUs) {
  TUSummary A, B;
  A.MainFile = "/p/a.cpp";
  B.MainFile = "/p/b.cpp";
  A.Functions.push_back(mainWithStepLoop());
  // A chain: get() returns the field `grid`, filled with host tensors in b.cpp.
  A.Fields.push_back({"get#return", "get()", FieldDevice::Host, {"grid"}});
  B.Fields.push_back({"grid", "grid", FieldDevice::Host, {}});
  // A cycle with a host source: `outlines` holds host tensors and what its constructor's parameter
  // is given, which every caller builds from `outlines` itself.
  B.Fields.push_back({"outlines", "outlines", FieldDevice::Host, {}});
  B.Fields.push_back({"outlines", "outlines", FieldDevice::Host, {"ctor#param0"}});
  A.Fields.push_back({"ctor#param0", "ctor(p)", FieldDevice::Host, {"outlines"}});
  // The same cycle with one device source in it: nothing in it is host.
  B.Fields.push_back({"points", "points", FieldDevice::Host, {"tracks#param0"}});
  A.Fields.push_back({"tracks#param0", "tracks(p)", FieldDevice::Host, {"points"}});
  B.Fields.push_back({"tracks#param0", "tracks(p)", FieldDevice::Device, {}});
  // Resting on a key no TU writes, or on one that cannot be named.
  A.Fields.push_back({"orphan", "orphan", FieldDevice::Host, {"never"}});
  A.Fields.push_back({"nameless", "nameless", FieldDevice::Host, {"?"}});
  ProjectModel M = merged({A, B});
  HotBasis Basis = inMainLoop();
  auto Kept = [&](std::vector<std::string> Keys) {
    Finding F;
    Basis.HostIfFields = std::move(Keys);
    F.Message = "item() syncs" + encodeBasis(Basis);
    return M.resolve(F);
  };
  EXPECT_FALSE(Kept({"get#return"}));
  EXPECT_FALSE(Kept({"outlines"}));
  EXPECT_FALSE(Kept({"ctor#param0"}));
  EXPECT_TRUE(Kept({"points"}));
  EXPECT_TRUE(Kept({"tracks#param0"}));
  EXPECT_TRUE(Kept({"orphan"}));
  EXPECT_TRUE(Kept({"nameless"}));
  // The conditions travel through the summary's JSON.
  std::string Err;
  std::optional<TUSummary> Back = fromJson(toJson(A), Err);
  ASSERT_TRUE(Back) << Err;
  ASSERT_EQ(A.Fields.size(), Back->Fields.size());
  for (size_t I = 0; I < A.Fields.size(); ++I)
    EXPECT_EQ(A.Fields[I].IfHost, Back->Fields[I].IfHost) << A.Fields[I].USR;
}

TEST(HotBasis, RoundTripsAndLeavesOtherMessagesAlone) {
  HotBasis B;
  B.K = HotBasis::Loop;
  B.FunctionUSR = "c:@F@train#";
  B.File = "/src/train.cpp";
  B.Line = 12;
  B.Column = 3;
  B.Why = "in the loop at line 12 of train()";
  std::string M = "msg" + encodeBasis(B);
  std::optional<HotBasis> Back = takeBasis(M);
  ASSERT_TRUE(Back);
  EXPECT_EQ("msg", M);
  EXPECT_EQ(HotBasis::Loop, Back->K);
  EXPECT_EQ(B.FunctionUSR, Back->FunctionUSR);
  EXPECT_EQ(B.File, Back->File);
  EXPECT_EQ(12u, Back->Line);
  EXPECT_EQ(3u, Back->Column);
  EXPECT_EQ(B.Why, Back->Why);
  EXPECT_TRUE(Back->HostIfFields.empty());
  EXPECT_FALSE(Back->IfProjectUsesCUDA);
  B.HostIfFields = {"c:@S@Scene@FI@images", "c:@S@Scene@FI@poses"};
  B.IfProjectUsesCUDA = true;
  M = "msg" + encodeBasis(B);
  Back = takeBasis(M);
  ASSERT_TRUE(Back);
  EXPECT_EQ(B.HostIfFields, Back->HostIfFields);
  EXPECT_TRUE(Back->IfProjectUsesCUDA);
  EXPECT_TRUE(Back->IfWidenedHost.empty());
  B.IfWidenedHost = {"c:@S@Camera@F@getImage#I#", "c:@S@Camera@FI@image"};
  M = "msg" + encodeBasis(B);
  Back = takeBasis(M);
  ASSERT_TRUE(Back);
  EXPECT_EQ("msg", M);
  EXPECT_EQ(B.IfWidenedHost, Back->IfWidenedHost);
  EXPECT_EQ(B.HostIfFields, Back->HostIfFields);
  B.K = HotBasis::Project;
  B.ProgramNeeds = {"conv", "cuda", "trains", "!cudnn"};
  B.IfNoGradients = {"c:@S@Net@F@forward#&1$@N@at@S@Tensor#"};
  M = "msg" + encodeBasis(B);
  Back = takeBasis(M);
  ASSERT_TRUE(Back);
  EXPECT_EQ(HotBasis::Project, Back->K);
  EXPECT_EQ(B.ProgramNeeds, Back->ProgramNeeds);
  EXPECT_EQ(B.IfNoGradients, Back->IfNoGradients);
  EXPECT_FALSE(Back->IfProgramUsesCUDA);
  B.IfProgramUsesCUDA = true;
  M = "msg" + encodeBasis(B);
  Back = takeBasis(M);
  ASSERT_TRUE(Back);
  EXPECT_TRUE(Back->IfProgramUsesCUDA);
  EXPECT_EQ(B.IfNoGradients, Back->IfNoGradients);
  std::string Plain = "no basis here";
  EXPECT_FALSE(takeBasis(Plain));
  EXPECT_EQ("no basis here", Plain);
}

const TensorFlow *flow(const TUSummary &S, const std::string &Name) {
  for (const TensorFlow &F : S.Flows)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

std::vector<TensorSource::Kind> kinds(const TensorFlow *F) {
  std::vector<TensorSource::Kind> K;
  if (F)
    for (const TensorSource &S : F->Sources)
      K.push_back(S.K);
  return K;
}

TEST(TUSummary, RecordsWhereReturnedAndStoredTensorsComeFrom) {
  TUSummary S = summarize(R"(
at::Tensor widen(unsigned char *p) {
  at::Tensor t = torch::from_blob(p, {4, 4}, torch::kU8);
  return (t.toType(torch::kFloat32) / 255.0);
}
at::Tensor other(int i);
struct Cam {
  at::Tensor image, raw;
  std::unordered_map<int, at::Tensor> pyr;
  virtual at::Tensor v();
  void load(unsigned char *p) { image = widen(p); image = image.index({0}); raw = torch::rand({2}); }
  at::Tensor get(int k) {
    if (k < 1) return image;
    if (pyr.find(k) != pyr.end()) return pyr[k];
    at::Tensor t = widen(nullptr);
    pyr[k] = t;
    return t;
  }
  at::Tensor maybe(int i) { return i ? other(i) : v(); }
};
)", "/p/loader.cpp");
  using K = TensorSource::Kind;
  const TensorFlow *W = flow(S, "widen");
  ASSERT_TRUE(W);
  EXPECT_FALSE(W->IsField);
  ASSERT_EQ(1u, W->Sources.size());
  EXPECT_EQ(K::Widened, W->Sources[0].K);
  EXPECT_EQ("Byte", W->Sources[0].From);
  EXPECT_EQ("Float", W->Sources[0].To);
  EXPECT_EQ("widen", W->Sources[0].In);
  EXPECT_EQ(5u, W->Sources[0].Line); // the conversion (line 1 is the stub's include)
  // The field: the call, and a view of itself; the map: what `pyr[k] = t` stores (t's value).
  EXPECT_EQ((std::vector<K>{K::Call, K::Field}), kinds(flow(S, "Cam::image")));
  EXPECT_TRUE(flow(S, "Cam::image")->IsField);
  EXPECT_EQ((std::vector<K>{K::Call}), kinds(flow(S, "Cam::pyr")));
  EXPECT_EQ((std::vector<K>{K::Unknown}), kinds(flow(S, "Cam::raw")));
  EXPECT_EQ((std::vector<K>{K::Field, K::Field, K::Call}), kinds(flow(S, "Cam::get")));
  EXPECT_EQ(flow(S, "Cam::image")->USR, flow(S, "Cam::get")->Sources[0].USR);
  EXPECT_EQ(flow(S, "Cam::pyr")->USR, flow(S, "Cam::get")->Sources[1].USR);
  EXPECT_EQ(W->USR, flow(S, "Cam::get")->Sources[2].USR);
  // A call of a function defined nowhere here is still a call; a virtual call is unknown.
  EXPECT_EQ((std::vector<K>{K::Call, K::Unknown}), kinds(flow(S, "Cam::maybe")));
  // Through JSON and back.
  std::string Err;
  std::optional<TUSummary> Back = fromJson(toJson(S), Err);
  ASSERT_TRUE(Back) << Err;
  ASSERT_EQ(S.Flows.size(), Back->Flows.size());
  for (size_t I = 0; I < S.Flows.size(); ++I) {
    EXPECT_EQ(S.Flows[I].USR, Back->Flows[I].USR);
    EXPECT_EQ(S.Flows[I].Name, Back->Flows[I].Name);
    EXPECT_EQ(S.Flows[I].IsField, Back->Flows[I].IsField);
    EXPECT_EQ(S.Flows[I].File, Back->Flows[I].File);
    EXPECT_EQ(S.Flows[I].Line, Back->Flows[I].Line);
    EXPECT_EQ(S.Flows[I].Sources, Back->Flows[I].Sources);
  }
}

TensorSource widened(std::string From, std::string To, std::string In, unsigned Line) {
  TensorSource S;
  S.K = TensorSource::Kind::Widened;
  S.From = std::move(From);
  S.To = std::move(To);
  S.In = std::move(In);
  S.File = "/p/cv.cpp";
  S.Line = Line;
  return S;
}
TensorSource ref(TensorSource::Kind K, std::string USR) {
  TensorSource S;
  S.K = K;
  S.USR = std::move(USR);
  return S;
}
TensorFlow flowOf(std::string USR, bool Field, std::vector<TensorSource> Sources) {
  TensorFlow F;
  F.USR = USR;
  F.Name = USR;
  F.IsField = Field;
  F.File = "/p/data.cpp";
  F.Line = 1;
  F.Sources = std::move(Sources);
  return F;
}

TEST(ProjectModel, WidenedHostTensorsAcrossFunctionsAndFieldsIsAFixpoint) {
  using K = TensorSource::Kind;
  TUSummary A, B;
  A.MainFile = "/p/a.cpp";
  B.MainFile = "/p/b.cpp";
  A.Flows = {
      flowOf("toTensor", false, {widened("Byte", "Float", "toTensor", 48)}),
      flowOf("toHalf", false, {widened("Byte", "Half", "toHalf", 9)}),
      // The field: a widened image, or a view of itself (a cycle grounded in the call).
      flowOf("image", true, {ref(K::Call, "toTensor"), ref(K::Field, "image")}),
      flowOf("get", false, {ref(K::Field, "image"), ref(K::Field, "pyr"), ref(K::Call, "toTensor")}),
      flowOf("pyr", true, {ref(K::Call, "toTensor")}),
      // Unknown anywhere: not widened, nor what reads it.
      flowOf("maybe", false, {ref(K::Call, "toTensor"), TensorSource{}}),
      flowOf("viaMaybe", false, {ref(K::Call, "maybe")}),
      // Calls a function defined in no TU.
      flowOf("external", false, {ref(K::Call, "nowhere")}),
      // Two wide dtypes: not one conversion.
      flowOf("both", false, {ref(K::Call, "toTensor"), ref(K::Call, "toHalf")}),
      // A cycle with no widening in it holds no tensor of its own.
      flowOf("ping", false, {ref(K::Call, "pong")}),
      flowOf("pong", false, {ref(K::Call, "ping")}),
      // Widened in this TU, written with something else in another.
      flowOf("mixed", true, {ref(K::Call, "toTensor")}),
  };
  B.Flows = {flowOf("mixed", true, {TensorSource{}}), flowOf("pyr", true, {ref(K::Call, "get")})};
  ProjectModel M = merged({A, B});
  for (const char *U : {"toTensor", "image", "get", "pyr"}) {
    std::optional<Widening> W = M.widenedHost(U);
    ASSERT_TRUE(W) << U;
    EXPECT_EQ("Byte", W->From);
    EXPECT_EQ("Float", W->To);
    EXPECT_EQ("toTensor", W->In);
    EXPECT_EQ(48u, W->Line);
  }
  EXPECT_TRUE(M.widenedHost("toHalf"));
  for (const char *U : {"maybe", "viaMaybe", "external", "nowhere", "both", "ping", "pong", "mixed"})
    EXPECT_FALSE(M.widenedHost(U)) << U;
  EXPECT_EQ("the field image (data.cpp)", M.flowName("image"));
  EXPECT_EQ("get() (data.cpp)", M.flowName("get"));

  // A copy conditional on them: kept with the placeholders filled in, or dropped.
  HotBasis Basis = inMainLoop();
  auto Resolve = [&](std::vector<std::string> USRs, std::string *Message = nullptr) {
    Finding F;
    Basis.IfWidenedHost = std::move(USRs);
    F.Message = std::string(WidenedWhat) + " and is copied here: " + WidenedFactor + " times; copy the " +
                WidenedFrom + " tensor" + encodeBasis(Basis);
    bool Keep = M.resolve(F);
    if (Message)
      *Message = F.Message;
    return Keep;
  };
  std::string Msg;
  EXPECT_TRUE(Resolve({"get"}, &Msg));
  EXPECT_EQ("the float32 tensor from get() (data.cpp) was converted from uint8 on the host (in toTensor(), "
            "cv.cpp:48) and is copied here: 4 times; copy the uint8 tensor (in the loop at line 2 of main())",
            Msg);
  EXPECT_TRUE(Resolve({"image", "pyr"}, &Msg));
  EXPECT_NE(std::string::npos, Msg.find("from the field image (data.cpp) and the field pyr (data.cpp) was"));
  EXPECT_TRUE(Resolve({"toHalf"}, &Msg));
  EXPECT_NE(std::string::npos, Msg.find("2 times"));
  EXPECT_FALSE(Resolve({"get", "maybe"}));
  EXPECT_FALSE(Resolve({"mixed"}));
  EXPECT_FALSE(Resolve({"get", "toHalf"})); // two wide dtypes
  EXPECT_FALSE(Resolve({"nowhere"}));
  // Decided by the flows even where nothing in the project trains (as IfProjectUsesCUDA is).
  EXPECT_FALSE(M.hasStepLoops());
}

TEST(SummariesJson, OneArrayForReportsAndTheIndexLeavingMalformedSummariesOut) {
  // The CLI's map (the project index) and RunResult::Summaries (shard reports) give the same bytes.
  std::map<std::string, std::string> Map{
      {"/p/a.cpp", R"({"format": 2, "functions": []})"}, {"/p/b.cpp", "not json"}, {"/p/c.cpp", "{}"}};
  std::vector<std::pair<std::string, std::string>> Vec(Map.begin(), Map.end());
  auto Text = [](llvm::json::Array A) {
    std::string S;
    llvm::raw_string_ostream(S) << llvm::json::Value(std::move(A));
    return S;
  };
  std::string Expected = R"([{"file":"/p/a.cpp","summary":{"format":2,"functions":[]}},)"
                         R"({"file":"/p/c.cpp","summary":{}}])";
  EXPECT_EQ(Expected, Text(summariesJson(Map)));
  EXPECT_EQ(Expected, Text(summariesJson(Vec)));
}

} // namespace

namespace {
/// A finding of torch-cudnn-benchmark at the main() of Main, as the check writes it in project mode.
Finding cudnnFinding(const TUSummary &Main) {
  HotBasis B;
  B.K = HotBasis::Project;
  B.File = Main.Program.Main.File;
  B.Line = Main.Program.Main.Line;
  B.ProgramNeeds = {"conv", "cuda", "trains", "!cudnn"};
  Finding F;
  F.Check = "torch-cudnn-benchmark";
  F.Level = "warning";
  F.Message = std::string("convolutions (") + ProgramConvName + " at " + ProgramConvAt + ") on CUDA (from " +
              ProgramCudaAt + ") and trains (" + ProgramTrainsAt + ")" + encodeBasis(B);
  return F;
}
} // namespace

TEST(ProjectModel, AProgramsFactsComeFromItsOwnFileAndTheFilesWithoutMain) {
  const char *Header = "struct Net : torch::nn::Module { Net(); at::Tensor forward(const at::Tensor &x);\n"
                       "  torch::nn::Conv2d conv{nullptr}; };\n"
                       "void train(Net &net, at::Device d);\n";
  TUSummary Model = summarize(std::string(Header) +
                                  "Net::Net() { conv = register_module(\"conv\", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3))); }\n"
                                  "at::Tensor Net::forward(const at::Tensor &x) { return conv->forward(x); }\n",
                              "/p/model.cc", true);
  TUSummary Train = summarize(std::string(Header) + "void train(Net &net, at::Device d) {\n"
                                                    "  for (int i = 0; i < 9; ++i) net.forward(torch::rand({1}, at::TensorOptions(d))).backward();\n"
                                                    "}\n",
                              "/p/train.cc", true);
  TUSummary Main = summarize(std::string(Header) + "int main() { Net net; train(net, at::Device(at::kCUDA)); }\n",
                             "/p/main.cc", true);
  TUSummary Tool = summarize(std::string(Header) + "int main() { Net net; at::globalContext().setBenchmarkCuDNN(true); }\n",
                             "/p/tool.cc", true);
  EXPECT_TRUE(Model.Program.Conv);
  EXPECT_EQ("Conv2d", Model.Program.Conv.What);
  EXPECT_FALSE(Model.Program.Main);
  EXPECT_TRUE(Train.Program.Trains);
  EXPECT_TRUE(Main.Program.Main);
  EXPECT_TRUE(Main.Program.CUDA);
  EXPECT_FALSE(Main.Program.Conv);
  EXPECT_TRUE(Tool.Program.Cudnn);
  EXPECT_FALSE(Tool.Program.CUDA);
  // Another tutorial's model file in the same database: main() never calls into it.
  TUSummary Other = summarize("struct Encoder : torch::nn::Module { Encoder(); torch::nn::Conv2d conv{nullptr}; };\n"
                              "Encoder::Encoder() { conv = register_module(\"conv\", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3))); }\n",
                              "/p/other/encoder.cc", true);
  EXPECT_TRUE(Other.Program.Conv);
  ProjectModel M = merged({Model, Train, Main, Tool, Other});
  std::optional<ProgramSites> P = M.programFacts(Main.Program.Main.File, Main.Program.Main.Line);
  ASSERT_TRUE(P);
  EXPECT_EQ("model.cc", baseName(P->Conv.File));
  EXPECT_EQ("train.cc", baseName(P->Trains.File));
  EXPECT_EQ("main.cc", baseName(P->CUDA.File));
  EXPECT_FALSE(P->Cudnn) << "tool.cc's set-up is another program's";
  EXPECT_FALSE(M.programFacts("/p/nowhere.cc", 1));

  Finding F = cudnnFinding(Main);
  ASSERT_TRUE(M.resolve(F));
  EXPECT_EQ("convolutions (Conv2d at model.cc:5) on CUDA (from line 5) and trains (train.cc:6)", F.Message);
  ASSERT_EQ(2u, F.Notes.size()); // where the facts of other files are
  EXPECT_EQ("builds Conv2d here", F.Notes[0].Message);
  EXPECT_EQ("trains here", F.Notes[1].Message);
  Finding G = cudnnFinding(Tool);
  EXPECT_FALSE(M.resolve(G)) << "the tool configures cuDNN itself (and uses no CUDA)";
  // A program without the file that trains: not reported.
  ProjectModel N = merged({Model, Main});
  // A program that calls into no file with a convolution: not reported, whatever other programs of
  // the database build (a tutorial collection).
  TUSummary Plain = summarize(std::string(Header) + "int main() { train(*(Net *)nullptr, at::Device(at::kCUDA)); }\n",
                              "/p/plain.cc", true);
  TUSummary TrainOnly = summarize(std::string(Header) + "void train(Net &net, at::Device d) {\n"
                                                        "  for (int i = 0; i < 9; ++i) net.forward(torch::rand({1}, at::TensorOptions(d))).backward();\n"
                                                        "}\n",
                                  "/p/train.cc", true);
  ProjectModel O = merged({Other, TrainOnly, Plain});
  std::optional<ProgramSites> Q = O.programFacts(Plain.Program.Main.File, Plain.Program.Main.Line);
  ASSERT_TRUE(Q);
  EXPECT_TRUE(Q->Trains);
  EXPECT_FALSE(Q->Conv) << "encoder.cc is another program's";
  Finding H = cudnnFinding(Main);
  EXPECT_FALSE(N.resolve(H));
}

TEST(ProjectModel, AFunctionNeedsGradientsThroughWhatItCallsInOtherFiles) {
  const char *Header = "struct Net : torch::nn::Module { at::Tensor forward(const at::Tensor &x); };\n"
                       "struct Critic : torch::nn::Module { at::Tensor forward(const at::Tensor &x); };\n"
                       "at::Tensor helper(const at::Tensor &x);\n"
                       "float external(const at::Tensor &x);\n";
  TUSummary Net = summarize(std::string(Header) + "at::Tensor Net::forward(const at::Tensor &x) { return x.sum(); }\n"
                                                  "at::Tensor Critic::forward(const at::Tensor &x) { return helper(x); }\n",
                            "/p/net.cc");
  TUSummary Helper = summarize(std::string(Header) + "at::Tensor helper(const at::Tensor &x) {\n"
                                                     "  at::Tensor y = x.detach(); y.requires_grad_(); return y; }\n",
                               "/p/helper.cc");
  TUSummary Main = summarize(std::string(Header) + "float evaluate(Net &n) { return n.forward(at::Tensor()).item<float>(); }\n"
                                                   "float score(Net &n) { return external(n.forward(at::Tensor())); }\n",
                             "/p/main.cc");
  const Function *Eval = find(Main, "evaluate");
  ASSERT_TRUE(Eval);
  EXPECT_FALSE(Eval->NeedsGradients);
  ASSERT_EQ(1u, Eval->GradientsElsewhere.size());
  const Function *Crit = find(Net, "Critic::forward");
  ASSERT_TRUE(Crit);
  EXPECT_FALSE(Crit->NeedsGradients);
  EXPECT_EQ(std::vector<std::string>{usrNamed({Helper}, "helper")}, Crit->GradientsElsewhere);
  EXPECT_TRUE(find(Helper, "helper")->NeedsGradients);
  ProjectModel M = merged({Net, Helper, Main});
  EXPECT_FALSE(M.needsGradients(usrNamed({Net}, "Net::forward")));
  EXPECT_TRUE(M.needsGradients(usrNamed({Net}, "Critic::forward"))) << "through helper() in helper.cc";
  EXPECT_FALSE(M.needsGradients(usrNamed({Main}, "evaluate")));
  EXPECT_TRUE(M.needsGradients(usrNamed({Main}, "score"))) << "external() is defined in no file";
  EXPECT_TRUE(M.needsGradients("c:@F@nowhere#"));
}

TEST(ProjectModel, VirtualMethodsJoinTheirOverridesParametersAndReturns) {
  TUSummary A, B;
  A.MainFile = "/p/a.cpp";
  B.MainFile = "/p/b.cpp";
  A.Functions.push_back(mainWithStepLoop());
  auto Override = [](std::string USR, std::string Base) {
    Function F;
    F.USR = USR;
    F.Name = USR;
    F.File = "/p/b.cpp";
    F.Line = 1;
    F.Overrides = {Base};
    return F;
  };
  B.Functions = {Override("d_step", "b_step"), Override("o_step", "b_step"), Override("d_f", "b_f"),
                 Override("o_f", "b_f")};
  // A call through the base passes a host tensor: each override's parameter holds it, joined with
  // what the calls of that override itself pass.
  A.Fields.push_back({"b_step#param0", "Base::step(a)", FieldDevice::Host, {}});
  B.Fields.push_back({"o_step#param0", "Other::step(a)", FieldDevice::Device, {}});
  // The base's return values are those of every override.
  B.Fields.push_back({"d_f#return", "Derived::f()", FieldDevice::Host, {}});
  B.Fields.push_back({"o_f#return", "Other::f()", FieldDevice::Device, {}});
  ProjectModel M = merged({A, B});
  EXPECT_EQ(FieldDevice::Host, M.deviceOfKey("d_step#param0"));
  EXPECT_EQ(FieldDevice::Unknown, M.deviceOfKey("o_step#param0"));
  EXPECT_EQ(FieldDevice::Host, M.deviceOfKey("d_f#return"));
  EXPECT_EQ(FieldDevice::Unknown, M.deviceOfKey("b_f#return"));
}

TEST(ProjectModel, FieldDevicesAreDecidedForEachProgramToo) {
  // Two programs share lib.cpp's Box; program a moves its boxes to the GPU, program b never does.
  auto Tu = [](std::string File) {
    TUSummary S;
    S.MainFile = File;
    return S;
  };
  TUSummary MainA = Tu("/p/main_a.cpp"), MainB = Tu("/p/main_b.cpp"), TrainA = Tu("/p/ta.cpp"),
            TrainB = Tu("/p/tb.cpp"), Lib = Tu("/p/lib.cpp");
  auto Main = [](std::string File, std::string Callee) {
    Function F{"main@" + File, "main", File, 1, false, false, {}, {}, {}, {}};
    F.Calls.push_back({Callee, File, 2, 3, -1, false, false, "", false});
    return F;
  };
  MainA.Functions.push_back(Main("/p/main_a.cpp", "train_a"));
  MainA.Program.Main = Site{"/p/main_a.cpp", 1, 5, ""};
  MainB.Functions.push_back(Main("/p/main_b.cpp", "train_b"));
  MainB.Program.Main = Site{"/p/main_b.cpp", 1, 5, ""};
  auto Train = [](std::string USR, std::string File) {
    Function F{USR, USR, File, 1, false, false, {}, {{File, 2, 3, -1, false}}, {}, {{StepKind::Backward, 0, 3}}};
    F.Calls.push_back({"box_ctor", File, 1, 9, -1, false, false, "", false});
    return F;
  };
  TrainA.Functions.push_back(Train("train_a", "/p/ta.cpp"));
  TrainB.Functions.push_back(Train("train_b", "/p/tb.cpp"));
  Lib.Functions.push_back({"box_ctor", "Box::Box", "/p/lib.cpp", 1, false, false, {}, {}, {}, {}});
  Lib.Fields.push_back({"Box::low_", "Box::low_", FieldDevice::Host, {"Box#moved"}});
  Lib.Fields.push_back({"Box#moved", "Box (moved)", FieldDevice::Host, {}});
  TrainA.Fields.push_back({"Box#moved", "Box (moved)", FieldDevice::Device, {}});
  ProjectModel M = merged({MainA, MainB, TrainA, TrainB, Lib});
  EXPECT_EQ(FieldDevice::Unknown, M.deviceOfKey("Box::low_")); // the whole project: moved in a
  auto Kept = [&](std::string Fn, std::string File) {
    HotBasis Basis = inMainLoop();
    Basis.FunctionUSR = Fn;
    Basis.File = File;
    Basis.HostIfFields = {"Box::low_"};
    Finding F;
    F.Message = "item() syncs" + encodeBasis(Basis);
    return M.resolve(F);
  };
  EXPECT_TRUE(Kept("train_a", "/p/ta.cpp"));
  EXPECT_FALSE(Kept("train_b", "/p/tb.cpp")); // program b never moves a Box
}
