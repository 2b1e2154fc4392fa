// Unit tests of core/Synthesis (issue 24): what is learnt from clang's errors and the names written
// at them, and that the generated header compiles and types what it should (no standard header:
// -nostdinc).
#include "core/Synthesis.h"
#include "core/Recovery.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace torchlint;

namespace {

/// A diagnostic at the first occurrence of Needle in Text.
SynthDiag at(const std::string &Text, const std::string &Needle, const std::string &Message) {
  size_t Off = Text.find(Needle);
  EXPECT_NE(Off, std::string::npos) << Needle;
  SynthDiag D;
  D.Message = Message;
  D.At = Text.substr(Off, 600);
  D.Before = Text.substr(Off > 300 ? Off - 300 : 0, Off > 300 ? 300 : Off);
  return D;
}

bool compiles(const std::string &Code) {
  // (clang prints its errors on stderr, which the test log shows.)
  return clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), Code,
                                               {"-std=c++17", "-nostdinc"});
}

const char Program[] = R"cpp(namespace po = boost::program_options;
int main(int argc, char **argv) {
  po::variables_map vm;
  po::options_description desc("x");
  desc.add_options()("lr", po::value<float>()->default_value(0.1f), "lr");
  spdlog::info("epoch {}", 3);
  absl::flat_hash_map<int, int> m;
  glm::vec<3, float> v;
  float lr = vm["lr"].as<float>();
  for (int e = 0; e < vm["epochs"].as<int>(); ++e)
    spdlog::get("x")->info("{}", lr);
  if (vm.count("help"))
    return 1;
  return 0;
}
)cpp";

std::vector<SynthDiag> firstParseErrors() {
  std::string P = Program;
  return {at(P, "boost::program_options;", "use of undeclared identifier 'boost'"),
          at(P, "po::variables_map", "use of undeclared identifier 'po'"),
          at(P, "po::options_description", "use of undeclared identifier 'po'"),
          at(P, "desc.add_options", "use of undeclared identifier 'desc'"),
          at(P, "po::value", "use of undeclared identifier 'po'"),
          at(P, "spdlog::info", "use of undeclared identifier 'spdlog'"),
          at(P, "absl::", "use of undeclared identifier 'absl'"),
          at(P, "glm::", "use of undeclared identifier 'glm'"),
          at(P, "spdlog::get", "use of undeclared identifier 'spdlog'")};
}

} // namespace

TEST(Synthesis, LearnsNamespacesTypesTemplatesThroughAliases) {
  DeclarationSynthesis S;
  S.learnAliases(Program);
  EXPECT_TRUE(S.learn(firstParseErrors()));
  std::string H = S.header();
  EXPECT_NE(H.find("namespace boost {\n  namespace program_options {"), std::string::npos) << H;
  EXPECT_NE(H.find("struct variables_map : ::__torchlint_synth::__value {"), std::string::npos) << H;
  EXPECT_NE(H.find("struct options_description : ::__torchlint_synth::__value {"), std::string::npos) << H;
  EXPECT_NE(H.find("::__torchlint_synth::__ret<__U> value(__A &&...);"), std::string::npos) << H;
  EXPECT_NE(H.find("template <class...> using flat_hash_map"), std::string::npos) << H;
  EXPECT_NE(H.find("template <auto, class> using vec"), std::string::npos) << H;
  EXPECT_NE(H.find("extern ::__torchlint_synth::__value info;"), std::string::npos) << H;
  // Members named after a synthesised value, learnt at once: `->default_value`, `->info`.
  EXPECT_NE(H.find("static __value default_value;"), std::string::npos) << H;
  EXPECT_NE(H.find("static __value info;"), std::string::npos) << H;
  // The alias is the file's own; a bare name (`desc`, declared with an unknown type) waits.
  EXPECT_EQ(H.find(" po "), std::string::npos) << H;
  EXPECT_EQ(H.find(" desc"), std::string::npos) << H;
}

TEST(Synthesis, BareNameDeclaredOnlyWhenStillUnknown) {
  std::string P = "int main() { return counter + 1; }";
  DeclarationSynthesis S;
  std::vector<SynthDiag> E{at(P, "counter", "use of undeclared identifier 'counter'")};
  EXPECT_FALSE(S.learn(E));
  EXPECT_EQ(S.header().find("counter"), std::string::npos);
  EXPECT_TRUE(S.learn(E));
  EXPECT_NE(S.header().find("extern ::__torchlint_synth::__value counter;"), std::string::npos);
}

TEST(Synthesis, StreamMacroIsAnOstreamAtOnce) {
  // plog's `PLOG_INFO << ...` without plog: a name in capitals at a statement's start followed by
  // `<<` is declared at once (not left pending as a bare name), as a std::ostream, so what is
  // streamed into it is typed as for std::cout. A bare lower-case name followed by `<<` waits.
  std::string P = "void f(int step) {\n  PLOG_INFO << \"step \" << step;\n  logger << step;\n}";
  DeclarationSynthesis S;
  EXPECT_TRUE(S.learn({at(P, "PLOG_INFO", "use of undeclared identifier 'PLOG_INFO'; did you mean 'google::GLOG_INFO'?"),
                       at(P, "logger", "use of undeclared identifier 'logger'")}));
  std::string H = S.header();
  EXPECT_NE(H.find("extern std::ostream &PLOG_INFO;"), std::string::npos) << H;
  EXPECT_NE(H.find("#include <ostream>"), std::string::npos) << H;
  EXPECT_EQ(H.find("logger"), std::string::npos) << H;
  std::vector<std::string> N = S.names();
  EXPECT_NE(std::find(N.begin(), N.end(), "PLOG_INFO <<"), N.end());
  // Not at a statement's start (an operand: `x = KB_SIZE << 2;`): not a stream.
  std::string Q = "int g() { int x = KB_SIZE << 2; return x; }";
  DeclarationSynthesis T;
  T.learn({at(Q, "KB_SIZE", "use of undeclared identifier 'KB_SIZE'")});
  EXPECT_EQ(T.header().find("std::ostream &KB_SIZE"), std::string::npos);
}

TEST(Synthesis, NothingInStdOrLibtorch) {
  std::string P = "void f() { torch::frobnicate(1); std::expected<int, int> e; c10::foo x; }";
  DeclarationSynthesis S;
  EXPECT_FALSE(S.learn({at(P, "frobnicate", "no member named 'frobnicate' in namespace 'torch'"),
                        at(P, "expected", "no template named 'expected' in namespace 'std'"),
                        at(P, "foo", "no type named 'foo' in namespace 'c10'")}));
  EXPECT_TRUE(S.empty());
}

TEST(Synthesis, MembersOfSynthesisedTypesOnly) {
  std::string P = "void f(Cfg c, po::variables_map vm) { c.depth; vm.count(\"x\"); vm.at<int>(0); }";
  DeclarationSynthesis S;
  S.learnAliases("namespace po = boost::program_options;");
  S.learn({at(P, "po::variables_map", "no type named 'variables_map' in namespace 'boost::program_options'")});
  S.learn({at(P, "depth", "no member named 'depth' in 'Cfg'"),
           at(P, "count", "no member named 'count' in 'po::variables_map'"),
           at(P, "at<int>", "no member named 'at' in '__torchlint_synth::__value'")});
  std::string H = S.header();
  EXPECT_EQ(H.find("depth"), std::string::npos) << H; // a real class's
  EXPECT_NE(H.find("static __value count;"), std::string::npos) << H;
  EXPECT_NE(H.find("static __mret<__U> at(__A &&...);"), std::string::npos) << H;
}

TEST(Synthesis, HeaderTypesTheProgramWithoutStandardHeaders) {
  DeclarationSynthesis S;
  S.learnAliases(Program);
  S.learn(firstParseErrors());
  std::string P = Program;
  S.learn({at(P, "add_options", "no member named 'add_options' in 'boost::program_options::options_description'"),
           at(P, "as<float>", "no member named 'as' in '__torchlint_synth::__value'"),
           at(P, "count", "no member named 'count' in 'boost::program_options::variables_map'")});
  // `desc` was unknown in the first parse only: never declared.
  // `Dataset(vm["data"].as<Path>())` picks the constructor from a Path (as MNIST's from a string):
  // __typed<Path> converts to nothing else.
  std::string Code = S.header() +
                     "\nstruct Path { Path(const char *); };\nstruct Dataset { explicit Dataset(const Path &); "
                     "Dataset(const Dataset &); };\n" +
                     Program +
                     "\nint use(po::variables_map &vm) { Dataset d(vm[\"data\"].as<Path>()); "
                     "int n = vm[\"n\"]; return n; }\n";
  EXPECT_TRUE(compiles(Code)) << Code;
}

// Two synthesised types are two types: a class's constructors from each (glm's vec3 and mat4)
// are two overloads, not one redeclared; each still converts, computes and prints as a value.
TEST(Synthesis, SynthesisedTypesAreDistinct) {
  const std::string P = R"cpp(struct Pose {
  explicit Pose(const glm::vec3 &t);
  explicit Pose(const glm::mat4 &m);
  Pose(const glm::quat &r, const glm::vec3 &t);
  glm::mat4 toMat4() const;
};
int main() {
  glm::vec3 t(1.0f, 2.0f, 3.0f);
  glm::vec3 u = t * 2.0f + t;
  glm::mat4 m = glm::mat4(1.0f);
  Pose p(m);
  Pose q(glm::quat(1, 0, 0, 0), u);
  m = p.toMat4();
  t = 3.0f;
  float x = t.x;
  return x > 0;
}
)cpp";
  DeclarationSynthesis S;
  S.learn({at(P, "glm::vec3 &t", "use of undeclared identifier 'glm'")});
  S.learn({at(P, "glm::vec3 &t", "no type named 'vec3' in namespace 'glm'"),
           at(P, "glm::mat4 &m", "no type named 'mat4' in namespace 'glm'"),
           at(P, "glm::quat &r", "no type named 'quat' in namespace 'glm'")});
  S.learn({at(P, "x;", "no member named 'x' in 'glm::vec3'")});
  std::string H = S.header();
  EXPECT_NE(H.find("struct vec3 : ::__torchlint_synth::__value {"), std::string::npos) << H;
  EXPECT_TRUE(compiles(H + "\n" + P)) << H + "\n" + P;
}

// A plotting library's calls with braced lists (`legend({})`, `plot({1, 2, 3}, y, "-o")`) are
// typed: the variadic call operator deduces nothing from a braced list.
TEST(Synthesis, CallsWithBracedListsAreTyped) {
  const std::string P = R"cpp(int main() {
  matplot::legend({});
  matplot::log(matplot::source_loc{"a.cpp", 3, "main"}, 2);
  auto h = matplot::plot({1, 2, 3}, 4, "-o");
  h->line_width(2).display_name("loss");
  matplot::xticks({0.5, 1.5}, {"a", "b"});
  float f = 2.0f;
  int n = matplot::count(f);
  return n;
}
)cpp";
  DeclarationSynthesis S;
  S.learn({at(P, "matplot::legend", "use of undeclared identifier 'matplot'"),
           at(P, "matplot::plot", "use of undeclared identifier 'matplot'"),
           at(P, "matplot::xticks", "use of undeclared identifier 'matplot'"),
           at(P, "matplot::count", "use of undeclared identifier 'matplot'"),
           at(P, "matplot::log", "use of undeclared identifier 'matplot'"),
           at(P, "matplot::source_loc", "use of undeclared identifier 'matplot'")});
  S.learn({at(P, "line_width", "no member named 'line_width' in '__torchlint_synth::__value'"),
           at(P, "display_name", "no member named 'display_name' in '__torchlint_synth::__value'")});
  EXPECT_TRUE(compiles(S.header() + "\n" + P)) << S.header() + "\n" + P;
}

// `dataroot = "data/" + vm["dir"].as<std::string>() + "/"`: std::string's operator+ is a template
// that cannot deduce from __typed<std::string>, so the synthesised operator is chosen; it must give
// what the string's own operator gives (a __value there made the assignment ambiguous among
// string's operator= overloads, and the statement unjudged).
TEST(Synthesis, OperatorsOfTypedValuesGiveTheTypesOwnResult) {
  DeclarationSynthesis S;
  S.learnAliases(Program);
  S.learn(firstParseErrors());
  std::string P = Program;
  S.learn({at(P, "add_options", "no member named 'add_options' in '__torchlint_synth::__value'"),
           at(P, "as<float>", "no member named 'as' in '__torchlint_synth::__value'"),
           at(P, "count", "no member named 'count' in '__torchlint_synth::__value'")});
  std::string Str = R"cpp(
template <class C> struct Basic {
  Basic(); Basic(const C *); Basic(const Basic &);
  Basic &operator=(const Basic &); Basic &operator=(const C *); Basic &operator=(C);
  Basic &operator+=(const Basic &);
};
template <class C> Basic<C> operator+(const C *, const Basic<C> &);
template <class C> Basic<C> operator+(const Basic<C> &, const C *);
template <class C> Basic<C> operator+(const Basic<C> &, const Basic<C> &);
template <class C> bool operator==(const Basic<C> &, const C *);
using Str = Basic<char>;
template <class A, class B> struct Same { static constexpr bool value = false; };
template <class A> struct Same<A, A> { static constexpr bool value = true; };
void paths(po::variables_map &vm) {
  Str root;
  root = "data/" + vm["dir"].as<Str>() + "/";
  root = root + vm["sub"].as<Str>();
  root += vm["sub"].as<Str>();
  static_assert(Same<decltype("a" + vm["d"].as<Str>()), Str>::value, "the string's own operator+");
  static_assert(Same<decltype(vm["d"].as<Str>() == "x"), bool>::value, "comparison");
  static_assert(Same<decltype(vm["n"].as<int>() * 2), int>::value, "int * int");
  // A number is the number itself: `SGD opt(params, cfg["lr"].as<double>())` takes the one user
  // conversion, double to its options.
  static_assert(Same<decltype(vm["lr"].as<double>()), double>::value, "as<double>() is a double");
  struct Options { Options(double); };
  struct Optimizer { Optimizer(int, Options); };
  Optimizer opt(1, vm["lr"].as<double>());
  static_assert(Same<decltype(vm["n"] * 2), __torchlint_synth::__value>::value, "a __value operand");
}
// `auto f = cfg["f"].as<std::vector<float>>()` deduces __typed<...>: its subscript and iteration
// are the vector's (a __value there made `Tensor{t * f[1]}` an ambiguous construction).
struct Vec { float &operator[](unsigned long) const; float *begin() const; float *end() const; };
float sum(po::variables_map &vm) {
  auto f = vm["f"].as<Vec>();
  static_assert(Same<decltype(f[1]), float &>::value, "the vector's subscript");
  float s = f[0];
  for (float x : f)
    s += x;
  static_assert(Same<decltype(vm["f"][1]), __torchlint_synth::__value>::value, "a __value's");
  return s;
}
)cpp";
  std::string Code = S.header() + "\n" + Program + Str;
  EXPECT_TRUE(compiles(Code)) << Code;
}

TEST(Synthesis, MayServeOnlyRelativeNames) {
  EXPECT_TRUE(synthesisMayServe("spdlog/spdlog.h"));
  EXPECT_FALSE(synthesisMayServe("../x.h"));
  EXPECT_FALSE(synthesisMayServe("/abs/x.h"));
  EXPECT_FALSE(synthesisMayServe(SynthHeaderName));
}

namespace {

/// Counts a TU's errors other than the missing header's own.
struct ErrorCount : clang::DiagnosticConsumer {
  unsigned Errors = 0;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L, const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    if (L >= clang::DiagnosticsEngine::Error && !llvm::StringRef(Msg).contains("file not found"))
      ++Errors;
  }
};

/// Sets up torchlint's include recovery, with synthesis, as every check does.
struct RecoveringAction : clang::SyntaxOnlyAction {
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    setUpIncludeRecovery(CI.getPreprocessor(), /*Strict=*/false, /*Synthesize=*/true);
    return clang::SyntaxOnlyAction::BeginSourceFileAction(CI);
  }
};

std::set<std::string> synthesisFolders() {
  std::set<std::string> Out;
  llvm::SmallString<128> Tmp;
  llvm::sys::path::system_temp_directory(true, Tmp);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Tmp, EC), E; I != E && !EC; I.increment(EC))
    if (llvm::sys::path::filename(I->path()).starts_with("torchlint-synth-"))
      Out.insert(I->path());
  return Out;
}

} // namespace

// clang-tidy given several files keeps one FileManager for its whole run, which knows files by
// inode: a TU's synthesis folder removed with its TU frees inodes that the next TU's folder gets
// at once (ext4), and the FileManager read the next TU's synthesised header with the removed
// one's size, cut short. The folders now stay until the process ends (torchlint's own front
// ends, one FileManager per TU, remove them with their TU).
TEST(Synthesis, FoldersOutliveTheirTUWhenTheFileManagerIsShared) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("torchlint-synthesis-test", Dir));
  std::string Small = std::string(Dir) + "/small.cpp", Large = std::string(Dir) + "/large.cpp";
  // Few names, so a small synthesised header; then many, so a larger one.
  {
    std::error_code EC;
    llvm::raw_fd_ostream(Small, EC) << "#include <nosuchlib/api.h>\nint main() { nosuch::Thing t; t.run(); }\n";
    llvm::raw_fd_ostream(Large, EC)
        << "#include <nosuchlib/api.h>\n"
           "int main() {\n"
           "  nosuch::Thing t; t.run(); nosuch::Other o; o.go(1, 2); nosuch::Third h; h.every(3);\n"
           "  auto r = nosuch::make_reader(\"x\"); r.open(); nosuch::Config c; c.load(\"y\");\n"
           "  nosuch::log::info(\"z\"); nosuch::log::warn(\"w\"); auto v = nosuch::parse(1).value();\n"
           "  return v.ok() ? 0 : 1;\n"
           "}\n";
  }
  std::set<std::string> Before = synthesisFolders();
  clang::tooling::FixedCompilationDatabase DB(".", {"-std=c++17", "-nostdinc"});
  // One ClangTool over both files: one FileManager for both TUs, as in clang-tidy.
  clang::tooling::ClangTool Tool(DB, {Small, Large});
  ErrorCount Count;
  Tool.setDiagnosticConsumer(&Count);
  Tool.run(clang::tooling::newFrontendActionFactory<RecoveringAction>().get());
  EXPECT_EQ(Count.Errors, 0u) << "a TU's synthesised declarations were read cut short";
  std::set<std::string> After = synthesisFolders(), New;
  for (const std::string &F : After)
    if (!Before.count(F))
      New.insert(F);
  EXPECT_EQ(New.size(), 2u) << "each TU's folder stays until the process ends";
  // Removed with their TU where each TU has its own FileManager.
  setSynthesisFoldersRemovedWithTheirTU(true);
  clang::tooling::ClangTool Alone(DB, {Small});
  Alone.run(clang::tooling::newFrontendActionFactory<RecoveringAction>().get());
  setSynthesisFoldersRemovedWithTheirTU(false);
  std::set<std::string> Later = synthesisFolders();
  for (const std::string &F : Later)
    EXPECT_TRUE(After.count(F)) << F << " should have gone with its TU";
  llvm::sys::fs::remove_directories(Dir);
}

// `std::ofstream log(path);` in a file whose only include of <fstream> came through a missing
// library's header (yaml-cpp's): the synthesised header includes the standard header the name
// belongs to (clang's table of standard symbols); nothing is declared in std.
TEST(Synthesis, StandardHeadersTheMissingLibraryIncluded) {
  std::string P = "void f() { std::ofstream out(\"x\"); std::unordered_map<int, int> m; std::nosuch q; }";
  DeclarationSynthesis S;
  EXPECT_TRUE(S.learn({at(P, "out(", "implicit instantiation of undefined template 'std::basic_ofstream<char>'"),
                       at(P, "unordered_map", "no template named 'unordered_map' in namespace 'std'"),
                       at(P, "nosuch", "no type named 'nosuch' in namespace 'std'")}));
  std::string H = S.header();
  EXPECT_NE(H.find("#include <fstream>"), std::string::npos) << H;
  EXPECT_NE(H.find("#include <unordered_map>"), std::string::npos) << H;
  EXPECT_EQ(H.find("nosuch"), std::string::npos) << H;
  EXPECT_EQ(H.find("namespace std"), std::string::npos) << H;
  // Learnt once: nothing new the second time.
  EXPECT_FALSE(S.learn({at(P, "out(", "variable has incomplete type 'std::ofstream' (aka 'basic_ofstream<char>')")}));
  // Under -nostdinc the includes are skipped (__has_include), and the header still compiles.
  EXPECT_TRUE(compiles(H + "\nint main() { return 0; }\n")) << H;
}

// `using KdTree = nano::Adaptor<nano::L2<float, Points>, Points, 3, unsigned long>;`: an alias
// declaration names a type, so the first unknown name is a type template (a function template
// there gives "expected a type"), and so is a template argument that must be a type.
TEST(Synthesis, AliasDeclarationsNameTypes) {
  std::string P = "struct Points {};\nusing KdTree = nano::Adaptor<\n    nano::L2<float, Points>,\n    Points, 3, "
                  "unsigned long\n>;\ntypedef nano::Index<Points> Idx;\nint main() { KdTree t; Idx i; return 0; }\n";
  DeclarationSynthesis S;
  S.learn({at(P, "nano::Adaptor", "use of undeclared identifier 'nano'"),
           at(P, "nano::Index", "use of undeclared identifier 'nano'")});
  std::string H = S.header();
  EXPECT_NE(H.find("using Adaptor = "), std::string::npos) << H;
  EXPECT_NE(H.find("using Index = "), std::string::npos) << H;
  // An earlier round's function template, corrected by "expected a type" at the argument.
  DeclarationSynthesis S2;
  S2.learn({at(P, "nano::L2", "use of undeclared identifier 'nano'")});
  EXPECT_EQ(S2.header().find("using L2 = "), std::string::npos);
  S2.learn({at(P, "nano::L2", "template argument for template type parameter must be a type")});
  EXPECT_NE(S2.header().find("using L2 = "), std::string::npos) << S2.header();
  S.learn({at(P, "nano::L2", "template argument for template type parameter must be a type")});
  EXPECT_TRUE(compiles(S.header() + "\n" + P)) << S.header() + "\n" + P;
}

// `MSGPACK_DEFINE_MAP(method, param)` in a struct whose library is missing: a declaration macro,
// defined to nothing (its arguments are members, not types); a capitalised call in a function
// body (`CHECK_EQ(a, b);`, an expression there) is not one: its arguments stay judged.
TEST(Synthesis, DeclarationMacrosExpandToNothing) {
  std::string P = "struct Request {\n  int method;\n  float param;\n  MSGPACK_DEFINE_MAP(method, param)\n};\n"
                  "struct Empty {\n  MSGPACK_DEFINE(x);\n};\nint f() { CHECK_EQ(1, 2); return CHECK_VALUE(3); }\n"
                  "TEST_CASE(\"update\") { f(); }\n";
  DeclarationSynthesis S;
  EXPECT_TRUE(S.learn({at(P, "method, param)", "unknown type name 'method'"),
                       at(P, "MSGPACK_DEFINE_MAP", "a type specifier is required for all declarations"),
                       at(P, "MSGPACK_DEFINE(", "unknown type name 'MSGPACK_DEFINE'"),
                       at(P, "CHECK_EQ", "use of undeclared identifier 'CHECK_EQ'"),
                       at(P, "TEST_CASE", "a type specifier is required for all declarations"),
                       at(P, "CHECK_VALUE", "use of undeclared identifier 'CHECK_VALUE'")}));
  std::string H = S.header();
  EXPECT_NE(H.find("#define MSGPACK_DEFINE_MAP(...)\n"), std::string::npos) << H;
  EXPECT_NE(H.find("#define MSGPACK_DEFINE(...)\n"), std::string::npos) << H;
  EXPECT_EQ(H.find("#define CHECK_VALUE"), std::string::npos) << H;
  EXPECT_EQ(H.find("#define CHECK_EQ"), std::string::npos) << H; // a statement: its arguments stay judged
  EXPECT_EQ(H.find("#define TEST_CASE"), std::string::npos) << H; // a body follows: not dropped
  EXPECT_EQ(H.find("method"), std::string::npos) << H;
  EXPECT_TRUE(compiles(H + "\n" + P.substr(0, P.find("TEST_CASE")))) << H + "\n" + P; // (doctest itself is not declared here)
}

// toml++'s idiom: `cfg["n"].value<int64_t>()` is an optional, read with `.value()` or
// `.value_or(...)`. A member template whose result the code uses as an object gives __typed<T>,
// not the number (as<double>() stays a double: OperatorsOfTypedValuesGiveTheTypesOwnResult), so
// the batch size, and the data loader built from it, are typed.
TEST(Synthesis, MemberTemplateUsedAsAnObjectIsNotTheNumber) {
  const std::string P = R"cpp(struct Options { Options &batch_size(unsigned long); };
int main() {
  auto cfg = toml::parse_file("config.toml");
  auto batch = cfg["train"]["batch_size"].value<unsigned long>().value();
  double lr = cfg["lr"].value<double>().value_or(0.1);
  Options o;
  o.batch_size(batch);
  unsigned long twice = cfg["n"].value<unsigned long>().value() * 2;
  return static_cast<int>(lr) + static_cast<int>(twice);
}
)cpp";
  DeclarationSynthesis S;
  S.learn({at(P, "toml::parse_file", "use of undeclared identifier 'toml'")});
  S.learn({at(P, "value<unsigned long>().value()", "no member named 'value' in '__torchlint_synth::__value'")});
  S.learn({at(P, "value_or", "no member named 'value_or' in '__torchlint_synth::__typed<double>'")});
  EXPECT_NE(S.header().find("static __ret<__U> value("), std::string::npos) << S.header();
  std::string Code = S.header() + "\n" + P;
  EXPECT_TRUE(compiles(Code)) << Code;

  // Learnt in a later round instead: value<T>() was the number, and clang says so.
  DeclarationSynthesis L;
  L.learn({at(P, "toml::parse_file", "use of undeclared identifier 'toml'")});
  const std::string Q = "double lr = cfg[\"lr\"].value<double>();";
  L.learn({at(Q, "value<double>()", "no member named 'value' in '__torchlint_synth::__value'")});
  EXPECT_NE(L.header().find("static __mret<__U> value("), std::string::npos) << L.header();
  EXPECT_TRUE(L.learn({at(P, ".value();", "member reference base type 'unsigned long' is not a structure or union")}));
  EXPECT_NE(L.header().find("static __ret<__U> value("), std::string::npos) << L.header();
  EXPECT_EQ(DeclarationSynthesis::trailingTemplateCall("auto b = cfg[\"n\"].value<std::vector<int>>(1, f(2))  "), "value");
  EXPECT_EQ(DeclarationSynthesis::trailingTemplateCall("auto b = value<int>()"), "");
  EXPECT_EQ(DeclarationSynthesis::trailingTemplateCall("x->get<int>()"), "get");
}
