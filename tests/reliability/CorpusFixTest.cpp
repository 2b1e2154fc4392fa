// Every corpus fix-it, applied the safe way and compiled: for each libtorch version, the cases that
// expect fixes (inline // CHECK-FIXES: ..., or a whole <case>.fixed.cpp) are copied, fixed with
// `torchlint --fix --verify` (which recompiles each fixed TU with its own flags and undoes fixes
// that break it), and then fixed again. Passes when --verify undid nothing, the result is what the
// case expects, and the second --fix changed nothing (idempotence). corpus_test checks the fixes of
// both front ends and compiles the fixed files; this test covers the apply-then-compile path of
// the CLI. Uses the corpus harness's PCH. Runs against libtorch 2.x (corpus_test fixes and compiles
// every case against both versions); TORCHLINT_CORPUS_FIX_ALL=1 runs it against 1.13 as well.
#include "CorpusSupport.h"
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>

namespace fs = std::filesystem;
using namespace torchlint::testing;

namespace {

class CorpusFixes : public ::testing::TestWithParam<int> {};

TEST_P(CorpusFixes, VerifiedAndIdempotent) {
  int Version = GetParam();
  const char *All = std::getenv("TORCHLINT_CORPUS_FIX_ALL");
  if (Version == 1 && !(All && *All && std::string(All) != "0"))
    GTEST_SKIP() << "libtorch 1.13: corpus_test fixes and compiles these; TORCHLINT_CORPUS_FIX_ALL=1 runs them here";
  std::vector<Case> Cases = discoverCases(TORCHLINT_SOURCE_DIR "/test_corpus");
  std::vector<const Case *> Fixable;
  for (const Case &C : Cases)
    if (C.testsFixes() && std::find(C.Versions.begin(), C.Versions.end(), Version) != C.Versions.end())
      Fixable.push_back(&C);
  if (Fixable.empty())
    GTEST_SKIP() << "no corpus case that expects fixes for libtorch " << Version;
  std::string PchErr;
  std::string Pch = buildPch(Version, PchErr);
  ASSERT_TRUE(PchErr.empty()) << PchErr;
  fs::path Dir = fs::path(TORCHLINT_BINARY_DIR) / "corpus-fix-verify" / ("v" + std::to_string(Version));
  std::error_code EC;
  fs::remove_all(Dir, EC);
  unsigned Checked = 0;
  for (const FixRun &Run : fixRuns(Fixable, Dir.string(), Version, Pch, {"-j2", "--format=json"})) {
    const std::vector<std::string> &Args = Run.Args;
    const std::map<std::string, const Case *> &Copies = Run.Copies;
    std::vector<std::string> Verify = Args;
    Verify.insert(Verify.begin() + 2, "--verify");
    CommandResult R1 = runCommand(Verify);
    EXPECT_TRUE(R1.ExitCode == 0 || R1.ExitCode == 1) << R1.Stderr.substr(0, 4000);
    EXPECT_EQ(std::string::npos, R1.Stderr.find("fixes undone")) << R1.Stderr.substr(0, 4000);
    EXPECT_NE(std::string::npos, R1.Stderr.find("--verify recompiled")) << R1.Stderr.substr(0, 4000);
    std::map<std::string, std::string> After1;
    for (auto &[Copy, C] : Copies) {
      After1[Copy] = readFile(Copy);
      EXPECT_EQ(C->checkFixed(After1[Copy]), "") << "--fix --verify on " << C->Path << ", fixed copy " << Copy;
    }
    CommandResult R2 = runCommand(Args);
    EXPECT_TRUE(R2.ExitCode == 0 || R2.ExitCode == 1) << R2.Stderr.substr(0, 4000);
    EXPECT_NE(std::string::npos, R2.Stderr.find("applied 0 fixes in 0 files")) << R2.Stderr.substr(0, 4000);
    for (auto &[Copy, C] : Copies) {
      EXPECT_EQ(After1[Copy], readFile(Copy)) << "a second --fix changed " << C->Path;
      ++Checked;
    }
  }
  EXPECT_GT(Checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Versions, CorpusFixes, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int> &I) { return "libtorch" + std::to_string(I.param); });

} // namespace
