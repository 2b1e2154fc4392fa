// Bad input and --fix safety, end to end: torchlint runs as a subprocess on small inputs that
// need no real libtorch headers (the stub <torch/torch.h> of the fuzzer), so the suite takes
// seconds. Each row of the tables states the exit code and the one line that must name the file.
#include "TestUtil.h"
#include "llvm/Support/JSON.h"
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/types.h>

using namespace torchlint::test;

namespace {

// A training loop with one torch-sync-item finding (line 6) and one fixable
// torch-create-then-move finding (line 5) under the stub headers (ones(): a random factory gets no fix).
const char TrainLoop[] = R"cpp(#include <torch/torch.h>
int main() {
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto x = torch::ones({4}).cuda();
    total += x.sum().item<float>();
  }
  return total > 0;
}
)cpp";

// The loop of TrainLoop in a file whose logging and option-parsing headers are not installed:
// the sync on a typed tensor (line 9) is reported; those on the unknown types (lines 10, 11) are
// not.
const char MissingHeaderLoop[] = R"cpp(#include <torch/torch.h>
#include "spdlog/spdlog.h"
#include <clopts.hpp>
int main(int argc, char **argv) {
  auto opts = clopts::Options("train").parse(argc, argv);
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto x = torch::rand({4}).cuda();
    total += x.sum().item<float>();
    spdlog::info("{}", opts["t"].as<torch::Tensor>().item<float>());
    total += opts["u"].as<torch::Tensor>().item<float>();
  }
  return total > 0;
}
)cpp";

// A file whose missing header's value cannot be typed by synthesised declarations (a structured
// binding of an unknown value): train() stays unjudged.
const char UntypableLoop[] = R"cpp(#include <torch/torch.h>
#include <cfg/cfg.h>
void train(int n) { for (int i = 0; i < n; ++i) { auto [a, b] = cfg::pair(i); (void)a; (void)b; } }
int main() { train(3); }
)cpp";

// A missing thread pool library used only through its type name.
const char BarePoolLoop[] = R"cpp(#include <torch/torch.h>
#include <thread_pool.hpp>
void run(thread_pool &pool, torch::Tensor t) { pool.push_task(t); pool.wait_for_tasks(); }
int main() {
  thread_pool pool(4);
  torch::Tensor t = torch::zeros({4});
  for (int i = 0; i < 10; ++i)
    run(pool, t);
}
)cpp";

// A simulator library missing, used as MuJoCo programs use theirs: each parse reveals the next
// layer of what to declare (the namespace, then its types, then the members of those types, then
// the copy function whose arguments named them: clang says nothing of a call's callee while its
// arguments have errors), so typing main() takes a fourth synthesised parse.
const char LayeredSimLoop[] = R"cpp(#include <torch/torch.h>
#include <sim/sim.h>
sim::Model *m = nullptr;
sim::Data *d[4];
int main() {
  m = sim::load("cartpole.xml");
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    sim_copy(d[i % 4]->qpos, m->key_qpos + i * m->nq, m->nq);
    auto x = torch::rand({4}).cuda();
    total += x.sum().item<float>();
  }
  return total > 0;
}
)cpp";

// C++20/23 logging code on a standard library without <format> / <print> (libstdc++ 12): the
// stand-ins type it whole (a notice, exit 0); without them it is analysed partially (exit 2). Where
// the real headers exist they win, and the file is clean as well.
const char StdFormatLogging[] = R"cpp(#include <format>
#include <print>
#include <string>
struct P { int x; };
template <> struct std::formatter<P> : std::formatter<std::string> {
  auto format(const P &p, std::format_context &ctx) const { return std::format_to(ctx.out(), "{}", p.x); }
};
int main() {
  std::println("{} {}", std::format("{:>4}", 3), P{1});
  int two = 2;
  std::print(stderr, "{}\n", std::vformat("{}", std::make_format_args(two)));
  return std::formatted_size("{}", 1) > 0 ? 0 : 1;
}
)cpp";

// An installed header wins over torchlint's stand-in of the same name (stand-ins/README.md): this
// cxxopts.hpp's parse() returns an int, the stand-in's a ParseResult.
const char InstalledCxxoptsLoop[] = R"cpp(#include <torch/torch.h>
#include "cxxopts.hpp"
int main(int argc, char **argv) {
  int epochs = cxxopts::Options("train").parse(argc, argv);
  float total = 0;
  for (int i = 0; i < epochs; ++i) {
    auto x = torch::rand({4}).cuda();
    total += x.sum().item<float>();
  }
  return total > 0;
}
)cpp";

struct BadInput {
  const char *Name;
  /// Files to create: name, content ("<dir>" makes a directory, "<fifo>" a named pipe).
  std::vector<std::pair<const char *, std::string>> Files;
  const char *Args; // after torchlint; $F stands for the stub flags
  int RC;
  const char *Line;             // a line of the output must contain this ...
  unsigned LineCount;           // ... exactly this many times (0: don't count)
  const char *Absent = nullptr; // must not appear
};

std::string expand(std::string Args, const Scratch &S) {
  size_t P;
  while ((P = Args.find("$F")) != std::string::npos)
    Args.replace(P, 2, S.flags());
  return Args;
}

/// $D in a file's content stands for the scratch directory.
std::string expandDir(std::string Text, const Scratch &S) {
  size_t P;
  while ((P = Text.find("$D")) != std::string::npos)
    Text.replace(P, 2, S.path(""));
  return Text;
}

std::string binaryBytes() {
  std::string B = "\x7f"
                  "ELF\x02\x01\x01";
  B += std::string(64, '\0');
  for (int I = 0; I < 2000; ++I)
    B += char(I * 37);
  return B;
}

std::string manyErrors() {
  std::string S;
  for (int I = 0; I < 50; ++I)
    S += "int f" + std::to_string(I) + "() { return }\n";
  return S;
}

const BadInput BadInputs[] = {
    {"EmptyFileIsClean", {{"empty.cpp", ""}}, "empty.cpp -- $F", 0, nullptr, 0, "error"},
    {"MissingFile", {}, "nope.cpp -- $F", 2, "torchlint: error: 'nope.cpp': no such file", 1},
    {"Directory", {{"dir", "<dir>"}}, "dir -- $F", 2, "'dir': is a directory", 1},
    {"BinaryFile", {{"bin.cpp", binaryBytes()}}, "bin.cpp -- $F", 2, "'bin.cpp': binary file", 1},
    {"Fifo", {{"pipe.cpp", "<fifo>"}}, "pipe.cpp -- $F", 2, "'pipe.cpp': not a regular file", 1},
    {"SyntaxError",
     {{"syntax.cpp", "int main() { return 0 }\n"}},
     "syntax.cpp -- $F",
     2,
     "syntax.cpp:1:22: error: expected ';' after return statement",
     1},
    {"ManySyntaxErrorsAreOneLine",
     {{"many.cpp", manyErrors()}},
     "many.cpp -- $F",
     2,
     "(and 18 or more errors in this file)",
     1},
    // A missing header that is not libtorch's: the rest of the file is analysed (docs/reliability.md).
    // No code uses it: nothing is left unjudged, a notice (issue 24's policy).
    {"MissingHeader",
     {{"hdr.cpp", "#include \"nothere.h\"\nint x;\n"}},
     "hdr.cpp -- $F",
     0,
     "torchlint: note: '",
     1,
     "file not found"},
    {"MissingHeaderNoticeNamesIt",
     {{"hdr.cpp", "#include \"nothere.h\"\nint x;\n"}},
     "hdr.cpp -- $F",
     0,
     "hdr.cpp': header not found: 'nothere.h' (hdr.cpp:1); no code depends on it: every statement was judged",
     1,
     "error"},
    {"MissingHeaderStrict",
     {{"hdr.cpp", "#include \"nothere.h\"\nint x;\n"}},
     "--strict-includes hdr.cpp -- $F",
     2,
     "hdr.cpp:1:10: error: 'nothere.h' file not found",
     1,
     "analysed partially"},
    // Without synthesised declarations the code that uses the missing headers is not judged: an
    // input error that names the function, unless --allow-partial.
    {"MissingHeaderAndFindingsIsThree",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis train.cpp -- $F",
     3,
     "train.cpp': analysed partially: headers not found: 'spdlog/spdlog.h' (train.cpp:2), 'clopts.hpp' "
     "(train.cpp:3); code not judged in main() (line 4) (",
     1,
     "file not found"},
    {"AllowPartialIsNotAnInputError",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis --allow-partial train.cpp -- $F",
     1,
     "(--allow-partial: not an input error)",
     1,
     "torchlint: error"},
    {"MissingHeaderFindsTheTypedSync",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis train.cpp -- $F",
     3,
     "train.cpp:9:22: warning: Tensor::item()",
     1},
    {"MissingHeaderNoFindingOnUnknownTypes",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis train.cpp -- $F",
     3,
     "[torch-sync-item]",
     1},
    // Synthesised declarations (issue 24) type every statement: a notice, not an input error; the
    // finding on the typed tensor stays, none rests on the synthesised values.
    {"SynthesisTypesEveryStatement",
     {{"train.cpp", MissingHeaderLoop}},
     "train.cpp -- $F",
     1,
     "train.cpp': headers not found: 'spdlog/spdlog.h' (train.cpp:2, declarations were synthesised), ",
     1,
     "torchlint: error"},
    {"SynthesisNamesWhatItDeclared",
     {{"train.cpp", MissingHeaderLoop}},
     "train.cpp -- $F",
     1,
     "(train.cpp:2, declarations were synthesised), 'clopts.hpp' (train.cpp:3, declarations were "
     "synthesised); names synthesised: clopts::Options, spdlog::info, .as, .item, .parse; every statement "
     "was typed through "
     "torchlint's synthesised declarations and judged; no finding rests on them",
     1},
    // The project's own header included with angle brackets from an -I folder (`#include
    // <mylib/config.hpp>`) includes the missing library: synthesis follows it as it follows a
    // quoted include, so main() is typed (a diffusion trainer's headers include picojson and
    // spdlog that way; before, nothing was synthesised and the whole trainer was unjudged).
    {"SynthesisFollowsAngledProjectHeaders",
     {{"inc/mylib/config.hpp", "#pragma once\n#include <cfglib/cfglib.hpp>\n"
                              "inline int epochs(const cfglib::value &v) { return v.get<int>(); }\n"},
      {"train.cpp", "#include <torch/torch.h>\n#include <mylib/config.hpp>\n"
                    "int main() {\n  cfglib::value v = cfglib::parse(\"cfg.json\");\n  float total = 0;\n"
                    "  for (int i = 0; i < epochs(v); ++i)\n    total += torch::ones({4}).cuda().sum().item<float>();\n"
                    "  return total > 0;\n}\n"}},
     "train.cpp -- $F -I inc",
     1,
     "(config.hpp:2, declarations were synthesised)",
     1,
     "code not judged"},
    {"SynthesisFindsTheTypedSync",
     {{"train.cpp", MissingHeaderLoop}},
     "train.cpp -- $F",
     1,
     "train.cpp:9:22: warning: Tensor::item()",
     1},
    {"SynthesisNoFindingOnUnknownValues",
     {{"train.cpp", MissingHeaderLoop}},
     "train.cpp -- $F",
     1,
     "[torch-sync-item]",
     1},
    {"SynthesisTypesLayeredUsesInFourParses",
     {{"sim.cpp", LayeredSimLoop}},
     "sim.cpp -- $F",
     1,
     "sim.cpp': header not found: 'sim/sim.h' (sim.cpp:2, declarations were synthesised); names synthesised: ",
     1,
     "code not judged"},
    // A missing library whose only names are bare type names (`thread_pool &pool`, `thread_pool
    // pool(4)`): nothing else to learn in the first parse, so the names that wait for the next one
    // are declared at once (the next parse would be the same). `thread_pool` is also what clang's
    // typo correction reads as the keyword `thread_local`.
    {"SynthesisDeclaresBareTypeNames",
     {{"pool.cpp", BarePoolLoop}},
     "--no-cache pool.cpp -- $F",
     0,
     "pool.cpp': header not found: 'thread_pool.hpp' (pool.cpp:2, declarations were synthesised); names "
     "synthesised: thread_pool, .push_task, .wait_for_tasks; every statement was typed",
     1,
     "code not judged"},
    {"SynthesisLeavesUntypableCodeUnjudged",
     {{"pairs.cpp", UntypableLoop}},
     "pairs.cpp -- $F",
     2,
     "pairs.cpp': analysed partially: header not found: 'cfg/cfg.h' (pairs.cpp:2, declarations were "
     "synthesised); names synthesised: cfg::pair; code not judged in train() (line 3)",
     1},
    {"SynthesisUntypableAllowPartial",
     {{"pairs.cpp", UntypableLoop}},
     "--allow-partial pairs.cpp -- $F",
     0,
     "(--allow-partial: not an input error)",
     1,
     "torchlint: error"},
    {"SynthesisOffWhenStrict",
     {{"train.cpp", MissingHeaderLoop}},
     "--strict-includes train.cpp -- $F",
     2,
     "train.cpp:2:10: error: 'spdlog/spdlog.h' file not found",
     1,
     "synthesised"},
    // Compiler errors are never SARIF results, only notifications (with their place).
    {"SarifCompilerErrorIsANotification",
     {{"syntax.cpp", "int main() { return 0 }\n"}},
     "--format=sarif syntax.cpp -- $F",
     2,
     "\"id\": \"clang-diagnostic-error\"",
     1,
     "\"ruleId\": \"clang-diagnostic-error\""},
    {"MissingHeaderStrictHasNoFinding",
     {{"train.cpp", MissingHeaderLoop}},
     "--strict-includes train.cpp -- $F",
     2,
     "train.cpp:2:10: error: 'spdlog/spdlog.h' file not found",
     1,
     "[torch-sync-item]"},
    {"MissingHeaderJson",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis --format=json train.cpp -- $F",
     3,
     "analysed partially: headers not found: 'spdlog/spdlog.h'",
     2}, // in "errors", and on stderr
    {"MissingHeaderSarif",
     {{"train.cpp", MissingHeaderLoop}},
     "--no-synthesis --format=sarif train.cpp -- $F",
     3,
     "analysed partially: headers not found: 'spdlog/spdlog.h'",
     2}, // a toolExecutionNotification, and stderr
    {"SynthesisNoticeJson",
     {{"train.cpp", MissingHeaderLoop}},
     "--format=json train.cpp -- $F",
     1,
     "every statement was typed through torchlint's synthesised declarations",
     2}, // in "notices", and on stderr
    {"SynthesisNoticeSarif",
     {{"train.cpp", MissingHeaderLoop}},
     "--format=sarif train.cpp -- $F",
     1,
     "\"level\": \"note\"",
     1}, // a toolExecutionNotification of level note
    {"MissingHeaderInWorkers",
     {{"train.cpp", MissingHeaderLoop}, {"c.cpp", "#include <nothere.h>\nint c;\n"}},
     "--no-synthesis -j 2 train.cpp c.cpp -- $F",
     3,
     "not found: ",
     2},
    {"SynthesisInWorkers",
     {{"train.cpp", MissingHeaderLoop}, {"c.cpp", "#include <nothere.h>\nint c;\n"}},
     "-j 2 train.cpp c.cpp -- $F",
     1,
     "torchlint: note: '",
     2},
    // Stand-in headers: an installed one wins; --strict-includes uses none.
    {"InstalledHeaderWinsOverStandIn",
     {{"train.cpp", InstalledCxxoptsLoop},
      {"cxxopts.hpp",
       "namespace cxxopts { struct Options { explicit Options(const char *); int parse(int, char **); }; }\n"}},
     "train.cpp -- $F",
     1,
     "train.cpp:8:22: warning: Tensor::item()",
     1,
     "analysed partially"},
    {"StandardFormatAndPrintStandIns",
     {{"log.cpp", StdFormatLogging}},
     "log.cpp -- -std=c++23",
     0,
     nullptr,
     0,
     "analysed partially"},
    {"StandInHeaderNotUsedWhenStrict",
     {{"opts.cpp", "#include <cxxopts.hpp>\ncxxopts::Options o(\"x\");\n"}},
     "--strict-includes opts.cpp -- $F",
     2,
     "opts.cpp:1:10: error: 'cxxopts.hpp' file not found",
     1,
     "stand-in"},
    // libtorch itself missing: a hard error that says how to point torchlint at it.
    {"LibtorchMissing",
     {{"train.cpp", TrainLoop}},
     "train.cpp -- -std=c++17 -nostdinc",
     2,
     "train.cpp': libtorch's header 'torch/torch.h' not found: torchlint needs libtorch's headers. Pass",
     1,
     "[torch-sync-item]"},
    // A libtorch header that this libtorch lacks while its other headers are here (torch/linalg.h
    // is not in the 2.x wheels): a missing header like any other, the rest of the file judged.
    {"LibtorchHeaderOfAnotherVersion",
     {{"train.cpp", std::string("#include <torch/linalg_of_another_version.h>\n") + TrainLoop}},
     "train.cpp -- $F",
     1,
     "'torch/linalg_of_another_version.h' (train.cpp:1, not in this libtorch version)",
     1,
     "torchlint needs libtorch's headers"},
    {"NonUtf8IsClean",
     {{"latin.cpp", "// caf\xe9 \xff\xfe\nint f() { return 1; }\nconst char *s = \"\xe9\xff\";\n"}},
     "latin.cpp -- $F",
     0,
     nullptr,
     0,
     "error"},
    {"NonUtf8Json",
     {{"latin.cpp", "// caf\xe9\n#include <torch/torch.h>\nvoid g(torch::Tensor t) {\n"
                    "  for (int i = 0; i < 2; ++i) { float v = t.item<float>(); (void)v; } }\n"}},
     "latin.cpp --format=json -- $F",
     1,
     "\"torch-sync-item\"",
     0},
    {"EmptyDatabase",
     {{"a.cpp", "int a;\n"}, {"db/compile_commands.json", "[]\n"}},
     "-p db a.cpp",
     2,
     "'db/compile_commands.json': the compilation database has no entries",
     1},
    {"MalformedDatabase",
     {{"a.cpp", "int a;\n"}, {"db/compile_commands.json", "[{\"directory\": \"/tmp\", \"file\": \n"}},
     "-p db a.cpp",
     2,
     "'db/compile_commands.json': cannot read the compilation database",
     1},
    {"MalformedDatabaseNextToSource",
     {{"src/a.cpp", "int a;\n"}, {"src/compile_commands.json", "{ not json"}},
     "src/a.cpp",
     2,
     "compile_commands.json': cannot read the compilation database",
     1},
    {"FileMissingFromDatabase",
     {{"a.cpp", "int a;\n"},
      {"b.cpp", "int b;\n"},
      {"db/compile_commands.json", "[{\"directory\": \"$D\", \"file\": \"a.cpp\", \"command\": \"c++ -c a.cpp\"}]\n"}},
     "-p db a.cpp b.cpp",
     2,
     "'b.cpp': not in the compilation database",
     1,
     "'a.cpp'"},
    {"NoSuchBuildDirectory", {{"a.cpp", "int a;\n"}}, "-p nodir a.cpp", 2, "'nodir': no such build directory", 1},
    {"BuildDirectoryWithoutDatabase",
     {{"a.cpp", "int a;\n"}, {"bdir", "<dir>"}},
     "-p bdir a.cpp",
     2,
     "'bdir': no compile_commands.json or compile_flags.txt",
     1},
    {"UnknownCheckInFlagIsAWarning",
     {{"a.cpp", "int a;\n"}},
     "a.cpp --checks=-*,torch-sync-itme -- $F",
     0,
     "warning: unknown check 'torch-sync-itme' in --checks",
     1},
    {"UnknownCheckInClangTidyIsAWarning",
     {{"src/a.cpp", "int a;\n"}, {"src/.clang-tidy", "Checks: '-*,torch-sync-itme,readability-foo'\n"}},
     "src/a.cpp -- $F",
     0,
     "warning: unknown check 'torch-sync-itme' in ",
     1,
     "readability-foo"},
    {"UnknownCheckInConfigIsAWarning",
     {{"a.cpp", "int a;\n"}},
     "a.cpp --config='{Checks: \"-*,torch-nope\"}' -- $F",
     0,
     "warning: unknown check 'torch-nope' in --config",
     1},
    {"FindingsAndBadInputIsThree",
     {{"train.cpp", TrainLoop}},
     "train.cpp nope.cpp -- $F",
     3,
     "'nope.cpp': no such file",
     1},
    {"FindingsAndBadInputInWorkersIsThree",
     {{"train.cpp", TrainLoop}, {"bin.cpp", binaryBytes()}, {"c.cpp", "int c;\n"}},
     "-j 2 train.cpp bin.cpp c.cpp -- $F",
     3,
     "'bin.cpp': binary file",
     1},
    {"CrashInTheAnalysis",
     {{"crash.cpp", "#pragma clang __debug crash\nint x;\n"}},
     "crash.cpp -- $F",
     2,
     "crash.cpp': the analysis crashed",
     1},
    {"CrashInAWorker",
     {{"crash.cpp", "#pragma clang __debug crash\nint x;\n"}, {"train.cpp", TrainLoop}},
     "-j 2 crash.cpp train.cpp -- $F",
     3,
     "crash.cpp': the analysis crashed",
     1},
    {"CompilerErrorInAWorkerOnce",
     {{"syntax.cpp", "int main() { return 0 }\n"}, {"c.cpp", "int c;\n"}},
     "-j 2 syntax.cpp c.cpp -- $F",
     2,
     "syntax.cpp:1:22: error: expected ';' after return statement",
     1},
    {"DuplicateInputAnalysedOnce",
     {{"train.cpp", TrainLoop}},
     "train.cpp ./train.cpp -- $F",
     1,
     "[torch-sync-item]",
     1},
    {"FindingsOnly", {{"train.cpp", TrainLoop}}, "train.cpp -- $F", 1, "[torch-sync-item]", 1},
};

void PrintTo(const BadInput &C, std::ostream *OS) { *OS << C.Name; }

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, OneLineNamingTheFile) {
  const BadInput &C = GetParam();
  Scratch S;
  for (auto &[Name, Content] : C.Files) {
    if (Content == "<dir>")
      llvm::sys::fs::create_directories(S.path(Name));
    else if (Content == "<fifo>")
      ASSERT_EQ(0, mkfifo(S.path(Name).c_str(), 0644));
    else
      S.write(Name, expandDir(Content, S));
  }
  Result R = S.torchlint(expand(C.Args, S), /*TimeoutS=*/60);
  SCOPED_TRACE("stdout:\n" + R.Out + "\nstderr:\n" + R.Err);
  EXPECT_EQ(C.RC, R.RC);
  if (C.Line) {
    if (C.LineCount)
      EXPECT_EQ(C.LineCount, R.linesWith(C.Line)) << C.Line;
    else
      EXPECT_NE(0u, R.linesWith(C.Line)) << C.Line;
  }
  if (C.Absent) {
    EXPECT_EQ(0u, R.linesWith(C.Absent)) << C.Absent;
  }
  // Never a crash: no stack dump, no sanitizer report.
  EXPECT_EQ(0u, R.linesWith("Stack dump")) << "crashed";
  EXPECT_EQ(0u, R.linesWith("Sanitizer")) << "sanitizer report";
  if (R.RC & 2) {
    // Every error line names something: "torchlint: error: '<file>': ..." or "<file>:L:C: error:".
    std::string All = R.all();
    llvm::SmallVector<llvm::StringRef> Lines;
    llvm::StringRef(All).split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      if (L.contains("error:")) {
        EXPECT_TRUE(L.starts_with("torchlint: error: '") || L.contains(".cpp:")) << L.str();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Table, BadInputTest, ::testing::ValuesIn(BadInputs),
                         [](const ::testing::TestParamInfo<BadInput> &I) { return std::string(I.param.Name); });

TEST(BadInput, NonUtf8JsonIsValidJson) {
  Scratch S;
  S.write("latin.cpp",
          "#include <torch/torch.h>\n// caf\xe9\nvoid g(torch::Tensor t, const char *d) {\n"
          "  for (int i = 0; i < 2; ++i) { auto x = torch::zeros({1}).to(torch::Device(\"cu\xe9\")); (void)x; }\n}\n");
  Result R = S.torchlint("latin.cpp --format=json -- " + S.flags());
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError()) << "\n" << R.Out;
  EXPECT_EQ(1, R.RC) << R.all();
}

// ---- --fix ----------------------------------------------------------------------------------

TEST(Fix, AppliesOnceAndIsIdempotent) {
  Scratch S;
  std::string F = S.write("train.cpp", TrainLoop);
  Result R1 = S.torchlint("--fix train.cpp -- " + S.flags());
  EXPECT_EQ(1, R1.RC) << R1.all();
  std::string After1 = readFile(F);
  EXPECT_NE(After1, TrainLoop);
  EXPECT_EQ(std::string::npos, After1.find(".cuda()")) << After1;
  // The fixed file still compiles, and a second --fix changes nothing.
  Result C = S.sh(std::string("'") + TORCHLINT_CLANGXX + "' -fsyntax-only " + S.flags() + " train.cpp");
  EXPECT_EQ(0, C.RC) << C.all() << After1;
  Result R2 = S.torchlint("--fix train.cpp -- " + S.flags());
  EXPECT_EQ(1, R2.RC) << R2.all(); // the item() finding has no fix and stays
  EXPECT_EQ(After1, readFile(F));
  EXPECT_NE(0u, R2.linesWith("applied 0 fixes in 0 files")) << R2.all();
}

TEST(Fix, KeepsPermissionsAndLeavesNoTemporaryFiles) {
  Scratch S;
  std::string F = S.write("train.cpp", TrainLoop);
  ASSERT_EQ(0, chmod(F.c_str(), 0640));
  Result R = S.torchlint("--fix train.cpp -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  struct stat St;
  ASSERT_EQ(0, stat(F.c_str(), &St));
  EXPECT_EQ(0640u, St.st_mode & 0777);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(S.path(""), EC), End; It != End && !EC; It.increment(EC))
    EXPECT_EQ(std::string::npos, It->path().find(".torchlint-")) << It->path();
}

TEST(Fix, RefusesReadOnlyFile) {
  Scratch S;
  std::string F = S.write("train.cpp", TrainLoop);
  ASSERT_EQ(0, chmod(F.c_str(), 0444));
  Result R = S.torchlint("--fix train.cpp -- " + S.flags());
  EXPECT_EQ(3, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("train.cpp: file is read-only; not fixed")) << R.all();
  EXPECT_EQ(TrainLoop, readFile(F));
}

TEST(Fix, VerifyKeepsFixesThatCompile) {
  Scratch S;
  std::string F = S.write("train.cpp", TrainLoop);
  Result R = S.torchlint("--fix --verify train.cpp -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_NE(0u, R.linesWith("--verify recompiled 1 translation unit, undid the fixes in 0")) << R.all();
  EXPECT_EQ(std::string::npos, readFile(F).find(".cuda()"));
}

TEST(Fix, VerifyRestoresAFileThatNoLongerCompiles) {
  Scratch S;
  // A libtorch look-alike without torch::TensorOptions: the create-then-move fix (which spells
  // torch::TensorOptions) cannot compile here, so --verify must undo it.
  std::string Mini = readFile(TORCHLINT_MINI_TORCH);
  size_t P = Mini.find("using c10::TensorOptions;\nusing c10::kCPU;\nusing c10::kCUDA;\nusing c10::kFloat;\nusing "
                       "c10::kLong;\nusing c10::kHalf;");
  ASSERT_NE(std::string::npos, P);
  Mini.replace(P, std::string("using c10::TensorOptions;\n").size(), "");
  Mini += "namespace torch { struct TensorOptions; }\n"; // torch::TensorOptions() cannot compile
  S.write("include/torchlint_mini.h", Mini);
  std::string F = S.write("train.cpp", TrainLoop);
  Result R = S.torchlint("--fix --verify train.cpp -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("train.cpp: fixes undone: ")) << R.all();
  EXPECT_EQ(TrainLoop, readFile(F));
  // Without --verify the broken fix is written (this is what --verify guards against).
  Result R2 = S.torchlint("--fix train.cpp -- " + S.flags());
  EXPECT_NE(TrainLoop, readFile(F)) << R2.all();
}

TEST(Fix, ManyFilesInWorkers) {
  Scratch S;
  std::string Args = "--fix -j 2";
  for (int I = 0; I < 4; ++I)
    Args += " t" + std::to_string(I) + ".cpp", S.write("t" + std::to_string(I) + ".cpp", TrainLoop);
  Result R = S.torchlint(Args + " -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(std::string::npos, readFile(S.path("t" + std::to_string(I) + ".cpp")).find(".cuda()"));
  Result R2 = S.torchlint(Args + " -- " + S.flags());
  EXPECT_NE(0u, R2.linesWith("applied 0 fixes in 0 files")) << R2.all();
}

// ---- configuration --------------------------------------------------------------------------

// A .clang-tidy file next to the sources chooses the checks, with one worker or several (workers
// once received the default --checks, which overrode every .clang-tidy file), and --level and
// --checks still apply through workers.
TEST(Config, ClangTidyFileAppliesInWorkers) {
  Scratch S;
  S.write(".clang-tidy", "Checks: '-*,torch-sync-item'\n");
  S.write("a.cpp", TrainLoop);
  S.write("b.cpp", TrainLoop);
  for (const char *J : {"-j1", "-j2"}) {
    Result R = S.torchlint(std::string(J) + " --no-cache a.cpp b.cpp -- " + S.flags());
    EXPECT_EQ(1, R.RC) << J << "\n" << R.all();
    EXPECT_EQ(2u, R.linesWith("[torch-sync-item]")) << J << "\n" << R.all();
    EXPECT_EQ(0u, R.linesWith("[torch-create-then-move]")) << J << "\n" << R.all();
    Result C =
        S.torchlint(std::string(J) + " --no-cache --checks=-*,torch-create-then-move a.cpp b.cpp -- " + S.flags());
    EXPECT_EQ(2u, C.linesWith("[torch-create-then-move]")) << J << "\n" << C.all();
    EXPECT_EQ(0u, C.linesWith("[torch-sync-item]")) << J << "\n" << C.all();
  }
}

// ---- fuzzer regressions -----------------------------------------------------------------------

TEST(FuzzRegressions, NoCrash) {
  // Every reproducer the fuzzer found (fuzz/regressions/*) runs through the CLI without a crash:
  // exit 0 to 3 and no stack dump.
  std::error_code EC;
  unsigned N = 0;
  for (llvm::sys::fs::directory_iterator It(TORCHLINT_FUZZ_REGRESSIONS, EC), End; It != End && !EC; It.increment(EC)) {
    if (llvm::sys::path::filename(It->path()).starts_with("."))
      continue;
    Scratch S;
    S.write("input.cpp", readFile(It->path()));
    Result R = S.torchlint("--fix input.cpp -- " + S.flags(), 60);
    EXPECT_GE(R.RC, 0) << It->path() << "\n" << R.all();
    EXPECT_LE(R.RC, 3) << It->path() << "\n" << R.all();
    EXPECT_EQ(0u, R.linesWith("Stack dump")) << It->path();
    ++N;
  }
  EXPECT_GT(N, 0u) << "no reproducers in " << TORCHLINT_FUZZ_REGRESSIONS;
}

} // namespace

// A partial analysis is not cached: once the header is installed, the file is analysed again.
TEST(MissingHeader, PartialResultIsNotCached) {
  Scratch S;
  S.write("train.cpp", MissingHeaderLoop);
  Result First = S.torchlint("--no-synthesis --cache-dir=cache train.cpp -- " + S.flags());
  EXPECT_EQ(3, First.RC) << First.all();
  EXPECT_EQ(1u, First.linesWith("analysed partially")) << First.all();
  S.write("inc/spdlog/spdlog.h", "#pragma once\n");
  S.write("inc/clopts.hpp", "#pragma once\n");
  Result Second = S.torchlint("--no-synthesis --cache-dir=cache train.cpp -- " + S.flags() + " -I inc");
  EXPECT_EQ(0u, Second.linesWith("analysed partially")) << Second.all();
  EXPECT_EQ(1u, Second.linesWith("use of undeclared identifier 'clopts'")) << Second.all();
}

// libtorch's own headers are never the user's code, even when included with -I (not -isystem)
// and shown by --header-filter='.*' (issue 14, item 5).
TEST(LibraryCode, LibtorchIncludedWithDashIIsNeverReported) {
  Scratch S;
  S.write("lt/include/torch/torch.h", "#pragma once\n#include <torchlint_mini.h>\n"
                                      "inline float libtorch_internal(at::Tensor t) {\n"
                                      "  float s = 0;\n"
                                      "  for (int i = 0; i < 3; ++i) s += t.item<float>();\n"
                                      "  return s;\n}\n");
  S.write("train.cpp", TrainLoop);
  std::string Args =
      "--no-cache --header-filter='.*' --checks=-*,torch-sync-item train.cpp -- " + S.flags() + " -I lt/include";
  // Without the marker of a libtorch installation (c10/macros/Macros.h beside torch/), the header
  // is the user's own: its finding is shown (the test can fail).
  Result Control = S.torchlint(Args);
  EXPECT_EQ(1u, Control.linesWith("lt/include/torch/torch.h:5:38: warning:")) << Control.all();
  S.write("lt/include/c10/macros/Macros.h", "#pragma once\n");
  Result R = S.torchlint(Args);
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(0u, R.linesWith("lt/include/torch")) << R.all();
  EXPECT_EQ(1u, R.linesWith("train.cpp:6:22: warning:")) << R.all();
}

// The PCH of the include block is keyed on what the block resolves to, not on the whole command
// line (issue 14, item 7): TUs that differ only in unrelated -I folders share one; a folder that
// shadows a header the block reads, a -D or a -std builds another.
TEST(Pch, SharedAcrossUnrelatedIncludeFolders) {
  Scratch S;
  S.write("a.cpp", TrainLoop);
  S.write("b.cpp", TrainLoop);
  S.write("unrelated1/project/util.h", "#pragma once\n");
  S.write("unrelated2/other.h", "#pragma once\n");
  S.write("shadow/torch/torch.h", "#pragma once\n#include <torchlint_mini.h>\n");
  S.write("shadow/c10/macros/Macros.h", "#pragma once\n"); // a libtorch: may be precompiled with -I
  auto Pch = [&](const std::string &Args) {
    Result R = S.torchlint("--no-cache --accel-log --cache-dir=cache " + Args);
    EXPECT_EQ(1, R.RC) << R.all();
    if (R.linesWith("pch built"))
      return std::string("built");
    return std::string(R.linesWith("pch reused") ? "reused" : "none: " + R.Err);
  };
  EXPECT_EQ("built", Pch("a.cpp -- " + S.flags() + " -I unrelated1"));
  EXPECT_EQ("reused", Pch("b.cpp -- " + S.flags() + " -I unrelated2"));
  EXPECT_EQ("reused", Pch("a.cpp -- " + S.flags() + " -I unrelated2 -iquote unrelated1"));
  EXPECT_EQ("reused", Pch("b.cpp -- " + S.flags()));
  // Another <torch/torch.h> first on the search path: another resolution.
  EXPECT_EQ("built", Pch("a.cpp -- " + S.flags() + " -I shadow"));
  // Flags that change what the headers mean.
  EXPECT_EQ("built", Pch("a.cpp -- " + S.flags() + " -I unrelated1 -DTORCH_API_INCLUDE_EXTENSION_H"));
  EXPECT_EQ("built", Pch("a.cpp -- " + S.flags() + " -std=c++20"));
  // And each of them is reused in turn.
  EXPECT_EQ("reused", Pch("b.cpp -- " + S.flags() + " -I unrelated2 -I shadow"));
  EXPECT_EQ("reused", Pch("b.cpp -- " + S.flags() + " -DTORCH_API_INCLUDE_EXTENSION_H"));
}

// ---- a newcomer's first run (issue 24) ---------------------------------------------------------

namespace {

/// torchlint with the environment Env (shell assignments) and only the libtorch it names: no
/// Torch_DIR or CMAKE_PREFIX_PATH from the calling environment.
Result torchlintWithEnv(const Scratch &S, const std::string &Env, const std::string &Args) {
  return S.sh("exec env -u Torch_DIR -u CMAKE_PREFIX_PATH " + Env + " '" + TORCHLINT_BIN + "' " + Args);
}

/// A fake libtorch install under S at Rel: the stub as torch/torch.h, torch/version.h of Major.
std::string fakeLibtorch(const Scratch &S, const std::string &Rel, int Major) {
  S.write(Rel + "/include/torch/csrc/api/include/torch/torch.h", readFile(TORCHLINT_MINI_TORCH));
  S.write(Rel + "/include/torch/csrc/api/include/torch/version.h",
          "#pragma once\n#define TORCH_VERSION_MAJOR " + std::to_string(Major) + "\n#define TORCH_VERSION_MINOR " +
              (Major == 1 ? "13" : "15") + "\n");
  return S.path(Rel);
}

// A training step whose helper header (in the project's inc/, added by CMake) needs C++20.
const char Cxx20Loop[] = R"cpp(#include <torch/torch.h>
#include "proj/steps.h"
int main() {
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto x = proj::step(torch::ones({4}).cuda());
    total += x.sum().item<float>();
  }
  return total > 0;
}
)cpp";
const char Cxx20Header[] = R"cpp(#pragma once
namespace proj {
template <class T> concept TensorLike = requires(T t) { t.sum(); };
template <TensorLike T> T step(T t) { return t; }
} // namespace proj
)cpp";

} // namespace

// A .clang-tidy written for clang-tidy (CLion's style) leaves torchlint's default set on; one that
// switches every torch check off is obeyed, and said.
TEST(FirstRun, ClangTidyFileForClangTidy) {
  Scratch S;
  S.write("a.cpp", TrainLoop);
  S.write(".clang-tidy", "Checks: '-*,bugprone-*,modernize-use-nullptr'\n");
  Result R = S.torchlint("--no-cache a.cpp -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
  EXPECT_EQ(0u, R.linesWith("torchlint: warning")) << R.all();
  S.write(".clang-tidy", "Checks: '-*,bugprone-*,-torch-*'\n");
  Result Off = S.torchlint("--no-cache a.cpp -- " + S.flags());
  EXPECT_EQ(0, Off.RC) << Off.all();
  EXPECT_EQ(0u, Off.linesWith("[torch-"));
  EXPECT_EQ(1u, Off.linesWith("torchlint: warning: " + S.path(".clang-tidy") + " disables every torch check")) << Off.all();
}

// No -p: a build folder's compile_commands.json that lists the file is used (said on stderr), by
// every -j worker.
TEST(FirstRun, CompileDatabaseInABuildFolder) {
  Scratch S;
  llvm::sys::fs::create_directories(S.path(".git"));
  std::string Root = llvm::StringRef(S.path("")).rtrim('/').str();
  std::string Json = "[";
  for (const char *F : {"src/a.cpp", "src/b.cpp"}) {
    S.write(F, TrainLoop);
    Json += std::string(Json.size() > 1 ? "," : "") + "{\"directory\": \"" + Root +
            "\", \"command\": \"clang++ " + S.flags() + " -c " + F + "\", \"file\": \"" + F + "\"}";
  }
  S.write("build-release/compile_commands.json", Json + "]");
  for (const char *J : {"-j1", "-j2"}) {
    Result R = S.torchlint(std::string(J) + " --no-cache src/a.cpp src/b.cpp");
    EXPECT_EQ(1, R.RC) << J << "\n" << R.all();
    EXPECT_EQ(2u, R.linesWith("[torch-sync-item]")) << J << "\n" << R.all();
    EXPECT_EQ(1u, R.linesWith("torchlint: compile database: " + S.path("build-release/compile_commands.json") +
                              " (in build-release/ below " + Root + ";"))
        << J << "\n" << R.all();
  }
}

// No database at all: the standard and the include folder come from CMakeLists.txt; the file and
// its C++20 header parse, and the one line on stderr says where each flag came from.
TEST(FirstRun, FlagsGuessedFromCMake) {
  Scratch S;
  llvm::sys::fs::create_directories(S.path(".git"));
  S.write("CMakeLists.txt", "project(p CXX)\nset(CMAKE_CXX_STANDARD 20)\nadd_executable(t src/train.cpp)\n"
                            "target_include_directories(t PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/inc)\n");
  S.write("inc/proj/steps.h", Cxx20Header);
  S.write("src/train.cpp", Cxx20Loop);
  std::string Lt = fakeLibtorch(S, "lt", 2);
  Result R = torchlintWithEnv(S, "LIBTORCH=" + Lt, "--no-cache src/train.cpp");
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
  EXPECT_EQ(0u, R.linesWith("error")) << R.all();
  EXPECT_EQ(1u, R.linesWith("flags guessed: -std=c++20 (CMakeLists.txt:2 (CMAKE_CXX_STANDARD 20)); 1 include folder "
                            "from CMakeLists.txt;"))
      << R.all();
  EXPECT_EQ(1u, R.linesWith("libtorch 2.15 at " + Lt)) << R.all();
  // Without the standard, C++17 (as libtorch 2.x before 2.10 asks): the header does not parse.
  S.write("CMakeLists.txt", "include_directories(inc)\n");
  Result Old = torchlintWithEnv(S, "LIBTORCH=" + Lt, "--no-cache src/train.cpp");
  EXPECT_EQ(1u, Old.linesWith("flags guessed: 1 include folder from CMakeLists.txt;")) << Old.all();
  EXPECT_NE(0u, Old.linesWith("error")) << "a C++20 header parsed as C++17:\n" << Old.all();
}

// No database, libtorch 2.x bundling {fmt} 12 (whose <fmt/core.h> declares fmt::format only under
// FMT_DEPRECATED_HEAVY_CORE) and a project written for an older {fmt}: the guessed flags ask for
// the old header, so the file parses and its step is judged; the summary says why.
TEST(FirstRun, BundledFmtDeclaresFormatInCoreAsBefore11) {
  Scratch S;
  llvm::sys::fs::create_directories(S.path(".git"));
  std::string Lt = fakeLibtorch(S, "lt", 2);
  S.write("lt/include/fmt/base.h", "#pragma once\n#define FMT_VERSION 120201\n"
                                   "namespace fmt { inline namespace v12 { struct string_view { string_view(const char *); }; } }\n");
  S.write("lt/include/fmt/format.h", "#pragma once\n#include \"base.h\"\n"
                                     "namespace fmt { inline namespace v12 { template <class... T> int format(string_view, T &&...); } }\n");
  S.write("lt/include/fmt/core.h", "#pragma once\n#include \"base.h\"\n#ifdef FMT_DEPRECATED_HEAVY_CORE\n#include \"format.h\"\n#endif\n");
  S.write("src/train.cpp", "#include <torch/torch.h>\n#include <fmt/core.h>\nint main() {\n  float total = 0;\n"
                           "  for (int i = 0; i < 10; ++i) {\n    int tag = fmt::format(\"step {}\", i);\n"
                           "    total += torch::ones({4}).cuda().sum().item<float>() + tag;\n  }\n  return total > 0;\n}\n");
  Result R = torchlintWithEnv(S, "LIBTORCH=" + Lt, "--no-cache src/train.cpp");
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(0u, R.linesWith("error")) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
  EXPECT_EQ(1u, R.linesWith("-DFMT_DEPRECATED_HEAVY_CORE (libtorch's bundled {fmt} declares fmt::format in "
                            "<fmt/core.h> only with it, as {fmt} before 11 did)"))
      << R.all();
}

// No database, a collection of examples each with its own include/ and the same header names: every
// file of one run (and of every -j worker) finds its own example's header first.
TEST(FirstRun, EachExampleOfACollectionFindsItsOwnHeaders) {
  Scratch S;
  llvm::sys::fs::create_directories(S.path(".git"));
  S.write("CMakeLists.txt", "add_subdirectory(a)\nadd_subdirectory(b)\n");
  for (const char *E : {"a", "b"}) {
    std::string X(E);
    S.write(X + "/CMakeLists.txt", "add_executable(" + X + " src/main.cpp)\ntarget_include_directories(" + X +
                                       " PRIVATE include)\n");
    S.write(X + "/include/transform.h", "#pragma once\nnamespace transform { struct Only_" + X + " {}; }\n");
    S.write(X + "/src/main.cpp", "#include \"transform.h\"\nint main() { transform::Only_" + X + " t; (void)t; }\n");
  }
  std::string Lt = fakeLibtorch(S, "lt", 2);
  for (const char *J : {"-j1", "-j2"}) {
    Result R = torchlintWithEnv(S, "LIBTORCH=" + Lt, std::string(J) + " --no-cache a/src/main.cpp b/src/main.cpp");
    EXPECT_EQ(0, R.RC) << J << "\n" << R.all();
    EXPECT_EQ(0u, R.linesWith("error")) << J << "\n" << R.all();
  }
}

// A C++20 project with only libtorch 1.x headers (which do not parse under C++20 with clang 19):
// libtorch 2.x headers are used where found (here torchlint's own .deps/libtorch-2), and said.
TEST(FirstRun, Cxx20ProjectWithLibtorch1) {
  Scratch S;
  llvm::sys::fs::create_directories(S.path(".git"));
  S.write("CMakeLists.txt", "target_compile_features(t PUBLIC cxx_std_20)\ninclude_directories(inc)\n");
  S.write("inc/proj/steps.h", Cxx20Header);
  S.write("src/train.cpp", Cxx20Loop);
  std::string Old = fakeLibtorch(S, "lt1", 1);
  std::string Env = "LIBTORCH=" + Old + " TORCHLINT_HOME=" + S.path("home");
  Result None = torchlintWithEnv(S, Env, "--no-cache src/train.cpp");
  EXPECT_EQ(1u, None.linesWith("the project needs C++20 and libtorch 1.13 (" + Old +
                               ") does not parse under it with clang 19; libtorch 2.x headers (LIBTORCH=DIR) would"))
      << None.all();
  std::string New = fakeLibtorch(S, "home/.deps/libtorch-2", 2);
  Result R = torchlintWithEnv(S, Env, "--no-cache src/train.cpp");
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("does not parse under it: using libtorch 2.15 at " + New)) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
}

// A .cu file: CUDA host code, parsed without a CUDA toolkit; the step's sync is reported, the same
// code inside a kernel (device code) is not.
TEST(FirstRun, CudaFileAnalysedAsHostCode) {
  Scratch S;
  // (Device code cannot call libtorch's host API: clang rejects item() in a __device__ function
  // even in the host-only parse, so no check can match there; TorchCheck::dropped() skips it
  // anyway.)
  std::string Cu = S.write("glue.cu", R"cpp(#include <torch/torch.h>
__global__ void kernel(float *x, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    x[i] *= 2;
}
float step(float *x, int n, at::Tensor t, cudaStream_t s) {
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    kernel<<<dim3(n / 256), 256, 0, s>>>(x, n);
    total += t.cuda().sum().item<float>();
  }
  return total;
}
)cpp");
  Result R = S.torchlint("--no-cache --cache-dir=cache glue.cu -- -x c++ -std=c++17 -isystem " + S.path("include"));
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
  EXPECT_EQ(1u, R.linesWith("glue.cu:10:29: warning")) << R.all();
  EXPECT_EQ(0u, R.linesWith("error")) << R.all();
  EXPECT_EQ(1u, R.linesWith("'" + Cu + "': CUDA source analysed as host code")) << R.all();
  Result Flags = S.torchlint("--print-cuda-host-flags --cache-dir=cache");
  EXPECT_EQ(0, Flags.RC) << Flags.all();
  EXPECT_EQ(1u, Flags.linesWith("-x cuda --cuda-host-only -nocudainc -nocudalib")) << Flags.all();
}

// A libtorch C++ extension's file includes torch/extension.h, which includes torch/python.h and so
// Python.h: without Python's include folder on its flags (a first run, a C++-only libtorch), the
// header is read as its C++ part and the file is judged whole, with a notice; with the folder,
// as written.
TEST(FirstRun, TorchExtensionWithoutPythonHeaders) {
  Scratch S;
  S.write("include/torch/all.h", "#pragma once\n#include <torchlint_mini.h>\n");
  S.write("include/torch/extension.h", "#pragma once\n#include <torch/all.h>\n#include <torch/python.h>\n");
  S.write("include/torch/python.h", "#pragma once\n#include <Python.h>\nusing PyHandle = PyObject *;\n");
  std::string Loop = TrainLoop;
  Loop.replace(Loop.find("<torch/torch.h>"), 15, "<torch/extension.h>");
  std::string F = S.write("ops.cpp", Loop);
  Result R = S.torchlint("--no-cache ops.cpp -- " + S.flags());
  EXPECT_EQ(1, R.RC) << R.all();
  EXPECT_EQ(1u, R.linesWith("[torch-sync-item]")) << R.all();
  EXPECT_EQ(0u, R.linesWith("error")) << R.all();
  EXPECT_EQ(1u, R.linesWith("'" + F + "': torch/extension.h read as its C++ part (torch/all.h): no include folder "
                            "of its compile command holds Python.h"))
      << R.all();
  // A file of the same flags that never reaches torch/extension.h: nothing said.
  S.write("plain.cpp", TrainLoop);
  Result Plain = S.torchlint("--no-cache plain.cpp -- " + S.flags());
  EXPECT_EQ(1, Plain.RC) << Plain.all();
  EXPECT_EQ(0u, Plain.linesWith("read as its C++ part")) << Plain.all();
  // Python's headers on the flags: torch/python.h is read, and nothing is said.
  S.write("py/Python.h", "#pragma once\ntypedef struct _object PyObject;\n");
  Result Py = S.torchlint("--no-cache ops.cpp -- " + S.flags() + " -I" + S.path("py"));
  EXPECT_EQ(1, Py.RC) << Py.all();
  EXPECT_EQ(1u, Py.linesWith("[torch-sync-item]")) << Py.all();
  EXPECT_EQ(0u, Py.linesWith("read as its C++ part")) << Py.all();
  EXPECT_EQ(0u, Py.linesWith("error")) << Py.all();
  // The same folder named through -iprefix and -iwithprefixbefore (or -iwithprefix): found too.
  for (const char *With : {" -iwithprefixbefore py", " -iwithprefix py"}) {
    Result Prefixed = S.torchlint("--no-cache ops.cpp -- " + S.flags() + " -iprefix " + S.path("") + "/" + With);
    EXPECT_EQ(1, Prefixed.RC) << Prefixed.all();
    EXPECT_EQ(0u, Prefixed.linesWith("read as its C++ part")) << With << "\n" << Prefixed.all();
    EXPECT_EQ(0u, Prefixed.linesWith("error")) << With << "\n" << Prefixed.all();
  }
}

// A project header that includes nlohmann/json_fwd.hpp and names nlohmann::json before a source's
// nlohmann/json.hpp, neither installed: both are served by the stand-in (one nlohmann::json), so
// the file is typed whole: a note, exit 1. A forward header left to synthesised declarations made
// nlohmann::json a second class, the stand-in's a redefinition, and the file an input problem.
TEST(FirstRun, JsonForwardHeaderThenJsonShareTheStandIn) {
  Scratch S;
  // (No libtorch: the stand-in includes the C++ library's headers, which Scratch's stubs shadow.)
  // (std::optional: the real json.hpp includes <optional> in C++17, and projects lean on it.)
  S.write("cfg.cpp", "#include <nlohmann/json_fwd.hpp>\nnlohmann::json load(const char *);\nstd::optional<int> limit;\n"
                     "#include <nlohmann/json.hpp>\nint main() {\n  nlohmann::json cfg = load(\"c.json\");\n"
                     "  return cfg[\"n\"].get<int>();\n}\n");
  Result R = S.torchlint("--no-cache cfg.cpp -- -std=c++17");
  EXPECT_EQ(0, R.RC) << R.all();
  EXPECT_EQ(0u, R.linesWith("error")) << R.all();
  EXPECT_EQ(1u, R.linesWith("'nlohmann/json_fwd.hpp' (cfg.cpp:1, a stand-in was used)")) << R.all();
}
