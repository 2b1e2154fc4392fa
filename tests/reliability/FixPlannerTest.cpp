// Unit tests of the fix planner (fixits/ApplyFixes.cpp) and of the analysis-time hashes that
// make --fix refuse files changed since they were analysed.
#include "TestUtil.h"
#include "utils/FileHashes.h"
#include "fixits/ApplyFixes.h"
#include <gtest/gtest.h>

using namespace torchlint;
using namespace torchlint::test;

namespace {

Finding finding(const std::string &File, unsigned Line, std::vector<Replacement> Fixes) {
  Finding F;
  F.Check = "torch-test";
  F.Level = "warning";
  F.File = File;
  F.Line = Line;
  for (Replacement &R : Fixes)
    R.File = File;
  F.Fixes = std::move(Fixes);
  return F;
}

struct PlanCase {
  const char *Name;
  std::vector<std::vector<Replacement>> Findings; // one entry per finding, in order
  const char *Expected;
  unsigned Applied, Conflicts;
};

// Content: "0123456789"
const PlanCase PlanCases[] = {
    {"Replace", {{{"", 2, 3, "abc"}}}, "01abc56789", 1, 0},
    {"Insert", {{{"", 0, 0, "X"}}}, "X0123456789", 1, 0},
    {"Delete", {{{"", 9, 1, ""}}}, "012345678", 1, 0},
    {"TwoDisjoint", {{{"", 1, 1, "a"}}, {{"", 5, 2, "b"}}}, "0a234b789", 2, 0},
    {"AdjacentIsNoConflict", {{{"", 1, 2, "a"}}, {{"", 3, 2, "b"}}}, "0ab56789", 2, 0},
    {"OverlapLaterLoses", {{{"", 1, 3, "a"}}, {{"", 3, 2, "b"}}}, "0a456789", 1, 1},
    {"ContainedLaterLoses", {{{"", 1, 5, "a"}}, {{"", 2, 1, "b"}}}, "0a6789", 1, 1},
    {"InsertInsideReplaceConflicts", {{{"", 2, 4, "R"}}, {{"", 4, 0, "I"}}}, "01R6789", 1, 1},
    {"InsertAtReplaceStartGoesFirst", {{{"", 2, 2, "R"}}, {{"", 2, 0, "I"}}}, "01IR456789", 2, 0},
    {"InsertAtReplaceEnd", {{{"", 2, 2, "R"}}, {{"", 4, 0, "I"}}}, "01RI456789", 2, 0},
    {"TwoInsertsAtOneOffsetConflict", {{{"", 3, 0, "A"}}, {{"", 3, 0, "B"}}}, "012A3456789", 1, 1},
    {"OutOfRangeIsRejected", {{{"", 8, 5, "x"}}}, "0123456789", 0, 1},
    {"FindingIsAllOrNothing", {{{"", 0, 1, "a"}}, {{"", 5, 1, "b"}, {"", 0, 1, "c"}}}, "a123456789", 1, 1},
    {"SelfOverlappingFindingIsRejected", {{{"", 1, 3, "a"}, {"", 2, 1, "b"}}}, "0123456789", 0, 1},
};

void PrintTo(const PlanCase &C, std::ostream *OS) { *OS << C.Name; }

class PlanTest : public ::testing::TestWithParam<PlanCase> {};

TEST_P(PlanTest, Apply) {
  const PlanCase &C = GetParam();
  std::vector<Finding> Fs;
  unsigned Line = 1;
  for (auto &Reps : C.Findings)
    Fs.push_back(finding("f.cpp", Line++, Reps));
  FixReport Rep;
  EXPECT_EQ(C.Expected, applyFixesToContent("f.cpp", "0123456789", Fs, Rep));
  EXPECT_EQ(C.Applied, Rep.Applied);
  EXPECT_EQ(C.Conflicts, Rep.Conflicts.size());
  for (const std::string &M : Rep.Conflicts)
    EXPECT_NE(std::string::npos, M.find("f.cpp:")) << M;
}

INSTANTIATE_TEST_SUITE_P(Table, PlanTest, ::testing::ValuesIn(PlanCases),
                         [](const ::testing::TestParamInfo<PlanCase> &I) { return std::string(I.param.Name); });

TEST(Plan, FixesInOtherFilesAreIgnored) {
  Finding F = finding("f.cpp", 1, {{"", 0, 1, "x"}});
  F.Fixes[0].File = "g.cpp";
  FixReport Rep;
  EXPECT_EQ("abc", applyFixesToContent("f.cpp", "abc", {F}, Rep));
  EXPECT_EQ(0u, Rep.Applied);
}

TEST(Plan, TenThousandEditsAreLinear) {
  // Not a timing test: checks the result of many edits (the benchmark, tools/bench_large_input.py,
  // measures the time).
  std::string Content;
  std::vector<Finding> Fs;
  for (unsigned I = 0; I < 10000; ++I) {
    Fs.push_back(finding("f.cpp", I + 1, {{"", unsigned(Content.size()), 1, "yy"}}));
    Content += "x\n";
  }
  FixReport Rep;
  std::string Out = applyFixesToContent("f.cpp", Content, Fs, Rep);
  EXPECT_EQ(10000u, Rep.Applied);
  EXPECT_EQ(Content.size() + 10000, Out.size());
  EXPECT_EQ("yy\nyy\n", Out.substr(0, 6));
}

TEST(Hashes, RefuseFileChangedSinceAnalysis) {
  Scratch S;
  std::string F = S.write("a.cpp", "0123456789");
  FileHashes Seen;
  ASSERT_TRUE(Seen.recordFromDisk(F));
  RunResult R;
  R.Findings.push_back(finding(F, 1, {{"", 0, 1, "X"}}));
  writeFile(F, "0123456789 // edited by someone else");
  FixReport Rep = applyFixes(R, &Seen);
  ASSERT_EQ(1u, Rep.Errors.size());
  EXPECT_NE(std::string::npos, Rep.Errors[0].find("changed since it was analysed")) << Rep.Errors[0];
  EXPECT_EQ("0123456789 // edited by someone else", readFile(F));
  EXPECT_TRUE(Rep.FilesChanged.empty());
}

TEST(Hashes, RefuseFileTheAnalysisNeverRead) {
  Scratch S;
  std::string F = S.write("a.cpp", "0123456789");
  FileHashes Seen;
  RunResult R;
  R.Findings.push_back(finding(F, 1, {{"", 0, 1, "X"}}));
  FixReport Rep = applyFixes(R, &Seen);
  ASSERT_EQ(1u, Rep.Errors.size());
  EXPECT_EQ("0123456789", readFile(F));
}

TEST(Hashes, UnchangedFileIsFixedAndOriginalKept) {
  Scratch S;
  std::string F = S.write("a.cpp", "0123456789");
  FileHashes Seen;
  ASSERT_TRUE(Seen.recordFromDisk(F));
  RunResult R;
  R.Findings.push_back(finding(F, 1, {{"", 0, 1, "X"}}));
  FixReport Rep = applyFixes(R, &Seen);
  EXPECT_TRUE(Rep.Errors.empty());
  EXPECT_EQ("X123456789", readFile(F));
  ASSERT_EQ(1u, Rep.Originals.size());
  EXPECT_EQ("0123456789", Rep.Originals[0].Before);
  EXPECT_EQ(contentHash("X123456789"), Rep.Originals[0].AfterHash);
}

TEST(Hashes, HashingFileSystemRecordsWhatWasRead) {
  Scratch S;
  std::string F = S.write("h.h", "int h;\n");
  FileHashes Seen;
  auto FS = llvm::makeIntrusiveRefCnt<HashingFileSystem>(llvm::vfs::getRealFileSystem(), Seen);
  auto Buf = FS->getBufferForFile(F);
  ASSERT_TRUE(static_cast<bool>(Buf));
  ASSERT_TRUE(Seen.lookup(F).has_value());
  EXPECT_EQ(contentHash("int h;\n"), *Seen.lookup(F));
  EXPECT_FALSE(Seen.lookup(S.path("other.h")).has_value());
}

TEST(AtomicWrite, RefusesWhenContentNoLongerMatches) {
  Scratch S;
  std::string F = S.write("a.cpp", "old");
  std::string Err;
  EXPECT_FALSE(writeFileAtomically(F, "new", Err, contentHash("something else")));
  EXPECT_EQ("old", readFile(F));
  EXPECT_TRUE(writeFileAtomically(F, "new", Err, contentHash("old"))) << Err;
  EXPECT_EQ("new", readFile(F));
}

} // namespace
