// A newcomer's first run (issue 24), unit-tested on scratch projects: the C++ standard and the
// include folders read from CMake, meson and Bazel files (cli/ProjectFlags), compile database
// discovery where clangd looks, a project's .clang-tidy written for clang-tidy
// (cli/ProjectConfig), and nvcc command lines rewritten for a CUDA host-only parse (cli/CudaHost).
#include "TestUtil.h"
#include "cli/CudaHost.h"
#include "cli/ProjectConfig.h"
#include "cli/ProjectFlags.h"
#include "cli/TorchInstall.h"
#include "core/Catalog.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <gtest/gtest.h>

using namespace torchlint;
using torchlint::test::Scratch;

namespace {

std::vector<std::string> under(const Scratch &S, std::vector<std::string> Rel) {
  for (std::string &R : Rel)
    R = S.path(R);
  return Rel;
}

bool contains(const std::vector<std::string> &V, const std::string &X) {
  return std::find(V.begin(), V.end(), X) != V.end();
}

void mkdir(const Scratch &S, llvm::StringRef Rel) { llvm::sys::fs::create_directories(S.path(Rel)); }

/// The scratch folder itself, without the trailing separator S.path("") has.
std::string rootOf(const Scratch &S) { return llvm::StringRef(S.path("")).rtrim('/').str(); }

} // namespace

TEST(ProjectFlags, CxxStandardSpellings) {
  EXPECT_EQ(parseCxxStd("c++17"), 17);
  EXPECT_EQ(parseCxxStd("gnu++1z"), 17);
  EXPECT_EQ(parseCxxStd("c++2a"), 20);
  EXPECT_EQ(parseCxxStd("c++20"), 20);
  EXPECT_EQ(parseCxxStd("gnu++2b"), 23);
  EXPECT_EQ(parseCxxStd("c++26"), 26);
  EXPECT_EQ(parseCxxStd("c++98"), 0);
  EXPECT_EQ(parseCxxStd("c17"), 0);
  EXPECT_EQ(parseCxxStd("c++"), 0);
}

TEST(ProjectFlags, CMakeStandardAndIncludeFoldersAsTheBuildAddsThem) {
  Scratch S;
  mkdir(S, ".git");
  S.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\n"
                            "project(demo CXX)\n"
                            "# set(CMAKE_CXX_STANDARD 26)\n"
                            "set(CMAKE_CXX_STANDARD 20)\n"
                            "set(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
                            "set(VENDOR ${CMAKE_SOURCE_DIR}/third_party)\n"
                            "include_directories(include)\n"
                            "add_subdirectory(src)\n");
  S.write("src/CMakeLists.txt",
          "add_executable(train train.cpp)\n"
          "target_include_directories(train PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/detail\n"
          "  $<BUILD_INTERFACE:${VENDOR}/cxxopts/include> $<INSTALL_INTERFACE:include>\n"
          "  ${TORCH_INCLUDE_DIRS} \"${demo_SOURCE_DIR}/gen\" not_there)\n"
          "target_compile_features(train PUBLIC cxx_std_17)\n"
          "message([[ include_directories(bracket) ]])\n");
  for (const char *D : {"include/demo", "src/detail", "third_party/cxxopts/include", "gen", "bracket", "lib/inc"})
    mkdir(S, D);
  S.write("include/demo/model.h", "#pragma once\n");
  S.write("lib/inc/util.hpp", "#pragma once\n");
  S.write("build/generated/config.h", "#pragma once\n");
  std::string Train = S.write("src/train.cpp", "int main() {}\n");

  ProjectFlags P = guessProjectFlags(Train);
  EXPECT_EQ(P.Root, rootOf(S));
  EXPECT_EQ(P.Std, 20);
  EXPECT_EQ(P.StdFrom, "CMakeLists.txt:4 (CMAKE_CXX_STANDARD 20)");
  EXPECT_EQ(P.IncludeDirs, under(S, {"include", "src/detail", "third_party/cxxopts/include", "gen"}));
  EXPECT_EQ(P.IncludesFrom, (std::vector<std::string>{"CMakeLists.txt", "src/CMakeLists.txt"}));
  // Every folder with headers, searched last; never a build folder's.
  EXPECT_TRUE(contains(P.HeaderDirs, S.path("lib/inc")));
  EXPECT_TRUE(contains(P.HeaderDirs, S.path("include/demo")));
  EXPECT_FALSE(contains(P.HeaderDirs, S.path("include"))) << "already an include folder of the build";
  EXPECT_FALSE(contains(P.HeaderDirs, S.path("build/generated")));
}

TEST(ProjectFlags, CMakeIncludeFoldersFromAListVariable) {
  // set(DIRS include src ${TORCH_INCLUDE_DIRS}) is a list; the element naming a variable found only
  // at configure time is left out, the others are the target's include folders.
  Scratch S;
  mkdir(S, ".git");
  S.write("CMakeLists.txt", "project(rl)\n"
                            "add_library(rl src/a.cpp)\n"
                            "set(RL_INCLUDE_DIRS\n  include\n  src\n  ${TORCH_INCLUDE_DIRS}\n)\n"
                            "target_include_directories(rl PRIVATE ${RL_INCLUDE_DIRS})\n");
  mkdir(S, "include/rl");
  S.write("include/rl/a.h", "#pragma once\n");
  S.write("src/third_party/vendored.h", "#pragma once\n");
  ProjectFlags P = guessProjectFlags(S.write("src/a.cpp", ""));
  EXPECT_EQ(P.IncludeDirs, under(S, {"include", "src"}));
}

TEST(ProjectFlags, FoldersWithHeadersAreUserFoldersUnlessTheyShadowSystemHeaders) {
  // A header found only through the scan (`#include <Segmentor.h>`) is the project's code: its
  // folder is a user folder (-I); a folder with `time.h` would shadow the C library's and is searched
  // last (-idirafter: clang takes it for a system folder).
  Scratch S;
  mkdir(S, ".git");
  S.write("src/Segmentor.h", "#pragma once\n");
  S.write("compat/time.h", "#pragma once\n");
  std::string Summary;
  std::vector<std::string> Args = guessedCompileFlags(S.write("test/train.cpp", "#include <Segmentor.h>\n"), Summary);
  auto FlagOf = [&](const std::string &Dir) -> std::string {
    for (size_t I = 0; I + 1 < Args.size(); ++I)
      if (Args[I + 1] == Dir)
        return Args[I];
    return "";
  };
  std::string All;
  for (const std::string &A : Args)
    All += A + " ";
  EXPECT_EQ(FlagOf(S.path("src")), "-I") << All;
  EXPECT_EQ(FlagOf(S.path("compat")), "-idirafter") << Summary;
  // The scratch folder's include/ holds a torch/ folder (a stub): it would shadow libtorch's.
  EXPECT_EQ(FlagOf(S.path("include")), "-idirafter") << All;
  EXPECT_NE(Summary.find("more folders with the project's headers"), std::string::npos) << Summary;
  EXPECT_NE(Summary.find("folders with headers that shadow system headers searched last"), std::string::npos) << Summary;
}

TEST(ProjectFlags, CMakeTargetPropertiesAndFlags) {
  for (auto [Line, Std] : std::vector<std::pair<std::string, int>>{
           {"set_property(TARGET t PROPERTY CXX_STANDARD 23)", 23},
           {"set_target_properties(t PROPERTIES CXX_STANDARD 20 CXX_EXTENSIONS OFF)", 20},
           {"target_compile_features(t PRIVATE cxx_std_23)", 23},
           {"add_compile_options(-std=c++2a)", 20},
           {"set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -O2 -std=gnu++2b\")", 23},
           {"target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-std=c++20>)", 20},
           {"add_executable(t t.cpp)", 0}}) {
    Scratch S;
    S.write("CMakeLists.txt", "project(p)\n" + Line + "\n");
    ProjectFlags P = guessProjectFlags(S.write("t.cpp", ""));
    EXPECT_EQ(P.Std, Std) << Line;
    if (Std)
      EXPECT_EQ(llvm::StringRef(P.StdFrom).starts_with("CMakeLists.txt:2 ("), true) << P.StdFrom;
  }
}

TEST(ProjectFlags, Meson) {
  Scratch S;
  mkdir(S, ".git");
  S.write("meson.build", "project('p', 'cpp',\n  default_options : ['warning_level=3', 'cpp_std=c++20'])\n"
                         "inc = include_directories('include', 'src/common', is_system : false)\n"
                         "subdir('tools')\n");
  S.write("tools/meson.build", "executable('t', 't.cpp', include_directories : include_directories('.'))\n");
  for (const char *D : {"include", "src/common"})
    mkdir(S, D);
  ProjectFlags P = guessProjectFlags(S.write("tools/t.cpp", ""));
  EXPECT_EQ(P.Std, 20);
  EXPECT_EQ(P.StdFrom, "meson.build:2 (cpp_std=c++20)");
  EXPECT_EQ(P.IncludeDirs, under(S, {"include", "src/common", "tools"}));
}

TEST(ProjectFlags, Bazel) {
  Scratch S;
  S.write("MODULE.bazel", "module(name = \"p\")\n");
  S.write(".bazelrc", "build --cxxopt='-std=c++23'\nbuild:asan --copt=-fsanitize=address\n");
  S.write("lib/BUILD.bazel", "cc_library(\n  name = \"lib\",\n  includes = [\"include\"],\n"
                             "  strip_include_prefix = \"api\",\n  copts = [\"-Ithird_party/eigen\"],\n)\n");
  for (const char *D : {"lib/include", "lib/api", "third_party/eigen"})
    mkdir(S, D);
  ProjectFlags P = guessProjectFlags(S.write("lib/x.cc", ""));
  EXPECT_EQ(P.Root, rootOf(S));
  EXPECT_EQ(P.Std, 23);
  EXPECT_EQ(P.StdFrom, ".bazelrc:1 (-std=c++23)");
  EXPECT_EQ(P.IncludeDirs, under(S, {"lib/include", "lib/api", "third_party/eigen"}));
}

TEST(ProjectFlags, ProjectRoot) {
  Scratch S;
  // No .git: the top of the unbroken chain of folders with build files.
  S.write("a/CMakeLists.txt", "");
  S.write("a/b/CMakeLists.txt", "");
  std::string F = S.write("a/b/c/f.cpp", "");
  EXPECT_EQ(projectRoot(F), S.path("a")) << "c/ (a source folder) needs no build file of its own";
  S.write("x/f.cpp", "");
  EXPECT_EQ(projectRoot(S.path("x/f.cpp")), S.path("x")) << "no build file above: the file's folder";
  mkdir(S, "a/b/.git");
  EXPECT_EQ(projectRoot(F), S.path("a/b"));
}

TEST(CompileDatabase, FoundWhereClangdLooks) {
  Scratch S;
  mkdir(S, ".git");
  std::string F = S.write("src/train.cpp", "");
  EXPECT_EQ(findCompileDatabase(F).Path, "");
  auto Db = [&](llvm::StringRef Rel, llvm::StringRef File) {
    return S.write(Rel, "[{\"directory\": \"" + rootOf(S) + "\", \"command\": \"clang++ -c " + File.str() +
                            "\", \"file\": \"" + File.str() + "\"}]");
  };
  // A build folder whose database does not list the file is passed over.
  Db("build/compile_commands.json", S.path("src/other.cpp"));
  EXPECT_EQ(findCompileDatabase(F).Path, "");
  std::string Rel = Db("cmake-build-release/compile_commands.json", F);
  DatabaseFound D = findCompileDatabase(F);
  EXPECT_EQ(D.Path, Rel);
  EXPECT_NE(D.Why.find("cmake-build-release/"), std::string::npos) << D.Why;
  EXPECT_NE(D.Why.find("lists the file"), std::string::npos) << D.Why;
  std::string Out = Db("out/compile_commands.json", F);
  EXPECT_EQ(findCompileDatabase(F).Path, Rel) << "the first by name";
  // Nearer folders first.
  std::string Src = Db("src/build-debug/compile_commands.json", F);
  EXPECT_EQ(findCompileDatabase(F).Path, Src);
  std::string Top = Db("compile_commands.json", F);
  EXPECT_EQ(findCompileDatabase(F).Path, Src);
  llvm::sys::fs::remove(Src);
  EXPECT_EQ(findCompileDatabase(F).Path, Top) << "a database in the folder itself before its build folders";
}

TEST(CompileDatabase, BuildFoldersAboveTheRepositoryAreNotSearched) {
  Scratch S;
  mkdir(S, "repo/.git");
  std::string F = S.write("repo/a.cpp", "");
  S.write("build/compile_commands.json", "[{\"directory\": \"/\", \"command\": \"c++ -c " + F + "\", \"file\": \"" +
                                             F + "\"}]");
  EXPECT_EQ(findCompileDatabase(F).Path, "");
}

namespace {

/// The torch checks enabled for File under Dir's .clang-tidy files, as the CLI reads them.
std::vector<std::string> enabledFor(const std::string &File, const std::string &CommandLineChecks = "") {
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = defaultChecksGlob(1);
  clang::tidy::ClangTidyOptions Overrides;
  if (!CommandLineChecks.empty())
    Overrides.Checks = CommandLineChecks;
  TorchOptionsProvider P(std::make_unique<clang::tidy::FileOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults, Overrides, llvm::vfs::getRealFileSystem()));
  return enabledTorchChecks(P.getOptions(File).Checks.value_or(""));
}

std::vector<std::string> warningsFor(const std::string &File) {
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = defaultChecksGlob(1);
  TorchOptionsProvider P(std::make_unique<clang::tidy::FileOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults, clang::tidy::ClangTidyOptions(), llvm::vfs::getRealFileSystem()));
  return configsDisablingEveryTorchCheck(P, {File});
}

} // namespace

TEST(ClangTidyConfig, NamesTorchCheck) {
  EXPECT_TRUE(namesTorchCheck("-*,torch-sync-item"));
  EXPECT_TRUE(namesTorchCheck("-torch-*"));
  EXPECT_TRUE(namesTorchCheck("bugprone-*,\n  *-sync-*"));
  EXPECT_FALSE(namesTorchCheck("*")) << "every check, not torch's";
  EXPECT_FALSE(namesTorchCheck("-*,bugprone-*,clang-analyzer-*"));
  // A folded YAML list with commented-out entries, as a real project writes it.
  EXPECT_FALSE(namesTorchCheck("-*,\n  bugprone-use-after-move,\n  # google-explicit-constructor,\n  modernize-use-nullptr,\n"));
  EXPECT_FALSE(namesTorchCheck("-*"));
  EXPECT_FALSE(namesTorchCheck(""));
}

TEST(ClangTidyConfig, AConfigurationForClangTidyLeavesTheDefaultSetOn) {
  Scratch S;
  std::string F = S.write("src/train.cpp", "");
  size_t Default = enabledTorchChecks(defaultChecksGlob(1)).size();
  ASSERT_GT(Default, 10u);
  EXPECT_EQ(enabledFor(F).size(), Default);
  S.write(".clang-tidy", "Checks: '-*,bugprone-*'\nCheckOptions:\n  - key: x.y\n    value: 1\n");
  EXPECT_EQ(enabledFor(F).size(), Default) << "CLion's style of .clang-tidy turned torchlint off";
  EXPECT_TRUE(warningsFor(F).empty());
  // One that names torch checks is obeyed as written.
  S.write(".clang-tidy", "Checks: '-*,bugprone-*,torch-sync-item'\n");
  EXPECT_EQ(enabledFor(F), std::vector<std::string>{"torch-sync-item"});
  EXPECT_TRUE(warningsFor(F).empty());
  // --checks still decides over any file.
  EXPECT_EQ(enabledFor(F, "-*,torch-sync-print"), std::vector<std::string>{"torch-sync-print"});
}

TEST(ClangTidyConfig, DisablingEveryTorchCheckExplicitlyIsSaidInOneWarning) {
  Scratch S;
  std::string F = S.write("src/train.cpp", "");
  std::string G = S.write("src/eval.cpp", "");
  S.write(".clang-tidy", "Checks: '-*,bugprone-*,-torch-*'\n");
  EXPECT_TRUE(enabledFor(F).empty());
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = defaultChecksGlob(1);
  TorchOptionsProvider P(std::make_unique<clang::tidy::FileOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults, clang::tidy::ClangTidyOptions(), llvm::vfs::getRealFileSystem()));
  std::vector<std::string> W = configsDisablingEveryTorchCheck(P, {F, G});
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].find(S.path(".clang-tidy")), std::string::npos) << W[0];
  EXPECT_NE(W[0].find("disables every torch check (Checks: '-*,bugprone-*,-torch-*')"), std::string::npos) << W[0];
}

TEST(CudaHost, NvccCommandRewrittenForAHostOnlyParse) {
  std::vector<std::string> Nvcc = {
      "/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DTORCH_EXTENSION_NAME=ops", "-D",
      "WITH_CUDA",                "-I/src/include",                    "-isystem=/opt/libtorch/include",
      "-isystem",                 "/opt/libtorch/include/torch/csrc/api/include",
      "--expt-relaxed-constexpr", "-gencode",                          "arch=compute_80,code=sm_80",
      "-Xcompiler",               "-fPIC",                             "-std=c++17",
      "-x",                       "cu",                                "-c",
      "/src/ops.cu",              "-o",                                "ops.o"};
  std::vector<std::string> Want = {"clang++",
                                   "-x",
                                   "cuda",
                                   "--cuda-host-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-path=/cache/cuda-host/no-toolkit",
                                   "-include",
                                   "/cache/cuda-host/h.h",
                                   "-DTORCH_EXTENSION_NAME=ops",
                                   "-D",
                                   "WITH_CUDA",
                                   "-I/src/include",
                                   "-isystem",
                                   "/opt/libtorch/include",
                                   "-isystem",
                                   "/opt/libtorch/include/torch/csrc/api/include",
                                   "-std=c++17",
                                   "/src/ops.cu"};
  EXPECT_EQ(cudaHostArgs(Nvcc, "/src/ops.cu", "/cache/cuda-host/h.h"), Want);
}

TEST(CudaHost, NvccHostCompilerFlagsAndForwardedPrefixesKept) {
  // CMake's CUDA rules with -forward-unknown-to-host-compiler pass flags nvcc does not know on to
  // the host compiler (a Python extension's -iprefix/-iwithprefixbefore folders), and projects put
  // host-only flags in -Xcompiler's comma-separated list: clang's host parse needs both.
  std::vector<std::string> Nvcc = {"nvcc",
                                   "-forward-unknown-to-host-compiler",
                                   "-iprefix",
                                   "/opt/py/",
                                   "-iwithprefixbefore",
                                   "include",
                                   "-iwithprefix/opt/extra",
                                   "-Xcompiler",
                                   "-fPIC,-isystem,/opt/libtorch/include,-DHOST_ONLY=1,-O3",
                                   "--compiler-options=-std=c++17,-Wall",
                                   "-Xcompiler=-I/opt/inc",
                                   "-c",
                                   "k.cu"};
  std::vector<std::string> Want = {"clang++",  "-x",
                                   "cuda",     "--cuda-host-only",
                                   "-nocudainc", "-nocudalib",
                                   "--cuda-path=/c/cuda-host/no-toolkit", "-include",
                                   "/c/cuda-host/h.h", "-iprefix",
                                   "/opt/py/", "-iwithprefixbefore",
                                   "include", "-iwithprefix/opt/extra",
                                   "-isystem", "/opt/libtorch/include",
                                   "-DHOST_ONLY=1", "-std=c++17",
                                   "-I/opt/inc", "k.cu"};
  EXPECT_EQ(cudaHostArgs(Nvcc, "k.cu", "/c/cuda-host/h.h"), Want);
}

TEST(CudaHost, ClangCommandKeepsItsFlagsButTheLanguageAndThePch) {
  std::vector<std::string> Got = cudaHostArgs(
      {"clang-tool", "-x", "c++", "-std=c++20", "-isystem", "/t", "-include-pch", "/p/torch.pch", "--cuda-gpu-arch=sm_80",
       "-Wall", "/src/k.cu"},
      "/src/k.cu", "/c/cuda-host/h.h");
  std::vector<std::string> Want = {"clang-tool",  "-x",       "cuda",      "--cuda-host-only",
                                   "-nocudainc",  "-nocudalib", "--cuda-path=/c/cuda-host/no-toolkit",
                                   "-include",    "/c/cuda-host/h.h", "-std=c++20", "-isystem", "/t", "-Wall",
                                   "/src/k.cu"};
  EXPECT_EQ(Got, Want);
  EXPECT_TRUE(isCudaSource("/a/b.cu"));
  EXPECT_FALSE(isCudaSource("/a/b.cuh"));
  EXPECT_FALSE(isCudaSource("/a/b.cpp"));
}

TEST(CudaHost, HeaderWrittenOnceAndKept) {
  Scratch S;
  std::string Err;
  std::string H = cudaHostHeader(S.path("cache"), Err);
  ASSERT_FALSE(H.empty()) << Err;
  std::string Text = torchlint::test::readFile(H);
  EXPECT_NE(Text.find("__global__"), std::string::npos);
  EXPECT_NE(Text.find("__cudaPushCallConfiguration"), std::string::npos);
  EXPECT_EQ(cudaHostHeader(S.path("cache"), Err), H);
  S.write("ro", "");
  EXPECT_EQ(cudaHostHeader(S.path("ro/cache"), Err), "") << "a file where the folder should be";
  EXPECT_FALSE(Err.empty());
}

TEST(ProjectFlags, AFolderSharedWithASiblingFollowsTheFilesOwnBuildFile) {
  // Two subprojects each list a chapter's include/ and a shared core/ holding the same header
  // name (gpt.h), in opposite orders; the scan reads the sibling first, which lists the chapter's
  // folder first. The file's own build file lists core/ first: its gpt.h is core's.
  Scratch S;
  mkdir(S, ".git");
  S.write("CMakeLists.txt", "project(all)\nadd_subdirectory(book)\nadd_subdirectory(reasoning)\n");
  S.write("book/CMakeLists.txt", "add_executable(b main.cpp)\n"
                                 "target_include_directories(b PRIVATE ${CMAKE_SOURCE_DIR}/chapter4/include "
                                 "${CMAKE_SOURCE_DIR}/core)\n");
  S.write("reasoning/CMakeLists.txt", "set(ROOT \"${CMAKE_CURRENT_SOURCE_DIR}/..\")\n"
                                      "add_library(r STATIC src/train.cpp)\n"
                                      "target_include_directories(r PUBLIC src ${ROOT}/core ${ROOT}/chapter4/include)\n");
  S.write("core/gpt.h", "#pragma once\n");
  S.write("chapter4/include/gpt.h", "#pragma once\n");
  S.write("reasoning/src/train.h", "#pragma once\n");
  ProjectFlags R = guessProjectFlags(S.write("reasoning/src/train.cpp", ""));
  ProjectFlags B = guessProjectFlags(S.write("book/main.cpp", ""));
  EXPECT_EQ(R.IncludeDirs, under(S, {"reasoning/src", "core", "chapter4/include"}));
  EXPECT_EQ(B.IncludeDirs, under(S, {"chapter4/include", "core", "reasoning/src"}));
}

TEST(ProjectFlags, EachExampleFindsItsOwnIncludeFolderFirst) {
  // A collection of examples, each with its own CMakeLists.txt and include/ holding the same header
  // names: a file's own example's folders (and those of the build files above it) come before a
  // sibling example's, whatever order the scan met them in.
  Scratch S;
  mkdir(S, ".git");
  S.write("CMakeLists.txt", "project(all)\ninclude_directories(common)\nadd_subdirectory(a)\nadd_subdirectory(b)\n");
  for (const char *E : {"a", "b"}) {
    S.write(std::string(E) + "/CMakeLists.txt", "add_executable(x src/main.cpp)\ntarget_include_directories(x PRIVATE include)\n");
    S.write(std::string(E) + "/include/transform.h", "#pragma once\n");
    S.write(std::string(E) + "/detail/helpers.h", "#pragma once\n");
  }
  S.write("common/util.h", "#pragma once\n");
  ProjectFlags A = guessProjectFlags(S.write("a/src/main.cpp", ""));
  ProjectFlags B = guessProjectFlags(S.write("b/src/main.cpp", ""));
  EXPECT_EQ(A.IncludeDirs, under(S, {"common", "a/include", "b/include"}));
  EXPECT_EQ(B.IncludeDirs, under(S, {"common", "b/include", "a/include"}));
  ASSERT_FALSE(A.HeaderDirs.empty());
  ASSERT_FALSE(B.HeaderDirs.empty());
  EXPECT_EQ(A.HeaderDirs.front(), S.path("a/detail"));
  EXPECT_EQ(B.HeaderDirs.front(), S.path("b/detail"));
  // The flags of each file say so (-I, in that order).
  std::string Summary;
  std::vector<std::string> FB = guessedCompileFlags(S.path("b/src/main.cpp"), Summary);
  auto Pos = [&](const std::string &D) { return std::find(FB.begin(), FB.end(), S.path(D)) - FB.begin(); };
  EXPECT_LT(Pos("b/include"), Pos("a/include"));
}
