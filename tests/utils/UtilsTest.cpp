// Unit tests of utils/ (the generic helpers every check and analysis shares), on small inputs
// parsed against fuzz/stubs/torch_mini.h (milliseconds, not the ~10 s of torch/torch.h), and of
// the atomic file writes on scratch folders.
#include "analysis/LocalDataflow.h"
#include "utils/AtomicFile.h"
#include "utils/ExprStrip.h"
#include "utils/FileStamp.h"
#include "utils/Paths.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <unistd.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace torchlint;

namespace {

std::unique_ptr<ASTUnit> parse(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "#include \"torch_mini.h\"\n" + Code,
      {"-std=c++17", "-nostdinc", "-I", TORCHLINT_MINI_TORCH_DIR, "-fsyntax-only"}, "input.cc");
  EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  return AST;
}

/// The initialiser of variable Name.
const Expr *initOf(ASTUnit &AST, const std::string &Name) {
  const auto *V = selectFirst<VarDecl>("v", match(varDecl(hasName(Name)).bind("v"), AST.getASTContext()));
  return V ? V->getInit() : nullptr;
}

template <class T> bool is(const Expr *E) { return E && isa<T>(E); }

TEST(ExprStrip, StripCopiesReachesTheCallBehindACopyAndItsTemporaries) {
  auto AST = parse("at::Tensor f();\nvoid g() { at::Tensor made = at::Tensor(f()); const at::Tensor &bound = f();\n"
                   "  at::Tensor copied = (made); }\n");
  const Expr *T = initOf(*AST, "made");
  ASSERT_TRUE(T);
  EXPECT_FALSE(is<CallExpr>(T)) << "the initialiser is a functional cast";
  EXPECT_TRUE(is<CallExpr>(stripCopies(T)));
  // A temporary bound to a reference: materialised, then stripped.
  const Expr *B = initOf(*AST, "bound");
  ASSERT_TRUE(B);
  EXPECT_FALSE(is<CallExpr>(B));
  EXPECT_TRUE(is<CallExpr>(stripTemporaries(B)));
  // A copy of a variable, in parentheses: the variable.
  EXPECT_TRUE(is<DeclRefExpr>(stripCopies(initOf(*AST, "copied"))));
}

TEST(ExprStrip, ElementAccessSplitsSubscriptAndAt) {
  auto AST = parse("struct Batches { at::Tensor &operator[](int i); at::Tensor &at(int i); at::Tensor &front(); };\n"
                   "void g(Batches &b, int i) { at::Tensor x = b[i]; at::Tensor y = b.at(i); at::Tensor z = b.front(); }\n");
  for (const char *Name : {"x", "y"}) {
    const Expr *Container = nullptr, *Index = nullptr;
    ASSERT_TRUE(elementAccess(stripCopies(initOf(*AST, Name)), Container, Index)) << Name;
    const auto *C = dyn_cast<DeclRefExpr>(Container->IgnoreParenImpCasts());
    const auto *I = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
    ASSERT_TRUE(C && I) << Name;
    EXPECT_EQ("b", C->getDecl()->getName());
    EXPECT_EQ("i", I->getDecl()->getName());
  }
  const Expr *Container = nullptr, *Index = nullptr;
  EXPECT_FALSE(elementAccess(stripCopies(initOf(*AST, "z")), Container, Index)) << "front() is not indexed";
}

TEST(ExprStrip, StripCopiesReachesTheValueInABracedCopy) {
  // C++17 keeps `{value}` of the same class as a one-element list (a member initialiser
  // `P{prior.to(kCPU)}` is the same): the value; a list of another type or of two values stays.
  auto AST = parse("at::Tensor f();\nstruct Pair { at::Tensor a, b; };\n"
                   "void g() { at::Tensor braced{f()}; Pair two{f(), f()}; Pair one{f()}; }\n");
  EXPECT_TRUE(is<CallExpr>(stripCopies(initOf(*AST, "braced"))));
  EXPECT_TRUE(is<InitListExpr>(stripCopies(initOf(*AST, "two"))));
  EXPECT_TRUE(is<InitListExpr>(stripCopies(initOf(*AST, "one"))));
}

TEST(ExprStrip, StripTemporariesKeepsTheCopyConstructor) {
  auto AST = parse("void g(at::Tensor arg) { at::Tensor copy_of_arg = arg; }\n");
  const Expr *U = initOf(*AST, "copy_of_arg");
  EXPECT_TRUE(is<CXXConstructExpr>(stripTemporaries(U)));
  EXPECT_TRUE(is<DeclRefExpr>(stripCopies(U)));
}

TEST(ExprStrip, StripMovesReachesTheMovedVariable) {
  auto AST = parse("void g(at::Tensor arg) { at::Tensor moved = std::move(arg); at::Tensor kept = arg; }\n");
  const Expr *M = initOf(*AST, "moved");
  ASSERT_TRUE(M);
  EXPECT_TRUE(is<CallExpr>(stripCopies(M))) << "stripCopies keeps std::move";
  EXPECT_TRUE(is<DeclRefExpr>(stripMoves(M)));
  EXPECT_TRUE(is<DeclRefExpr>(stripMoves(initOf(*AST, "kept"))));
}

TEST(ExprStrip, StripCopiesKeepsAConvertingConstruction) {
  // Device from a string is a conversion, not a copy: the construction stays.
  auto AST = parse("void g() { c10::Device dev_cast = c10::Device(\"cuda\"); }\n");
  const Expr *S = stripCopies(initOf(*AST, "dev_cast"));
  ASSERT_TRUE(S);
  EXPECT_FALSE(is<StringLiteral>(S->IgnoreImpCasts()));
}

TEST(ExprStrip, StripToWrittenFindsWhatTheUserWrote) {
  auto AST =
      parse("void g() { c10::Device dev_implicit = \"cuda\"; c10::Device dev_spelled = c10::Device(\"cpu\"); }\n");
  // An implicit conversion: the string the user wrote.
  EXPECT_TRUE(is<StringLiteral>(stripToWritten(initOf(*AST, "dev_implicit"))));
  // A conversion the user spelled as T(x) stays (it is what they wrote).
  EXPECT_TRUE(is<CXXFunctionalCastExpr>(stripToWritten(initOf(*AST, "dev_spelled"))));
}

TEST(ExprStrip, BracedListThroughInitializerListAndArrayRef) {
  auto AST = parse("struct Ref { Ref(std::initializer_list<long>); };\n"
                   "long by_list(std::initializer_list<long>); long by_ref(Ref); long by_value(long);\n"
                   "void g(long i) { long listed = by_list({1, i}); long reffed = by_ref({i, 2, 3});\n"
                   "  long plain = by_value(i); }\n");
  auto ArgOf = [&](const char *Var) { return cast<CallExpr>(stripCopies(initOf(*AST, Var)))->getArg(0); };
  const InitListExpr *L = bracedList(ArgOf("listed"));
  ASSERT_TRUE(L);
  EXPECT_EQ(L->getNumInits(), 2u);
  const InitListExpr *R = bracedList(ArgOf("reffed"));
  ASSERT_TRUE(R) << "an ArrayRef-like construction from the list";
  EXPECT_EQ(R->getNumInits(), 3u);
  EXPECT_EQ(bracedList(ArgOf("plain")), nullptr);
  EXPECT_EQ(bracedList(nullptr), nullptr);
}

TEST(ExprStrip, NullIsNull) {
  EXPECT_EQ(stripTemporaries(nullptr), nullptr);
  EXPECT_EQ(stripCopies(nullptr), nullptr);
  EXPECT_EQ(stripToWritten(nullptr), nullptr);
}

/// The right-hand side Value of an assignment of Var (or its initialiser, Value < 0 for none).
const Expr *writeOf(ASTUnit &AST, const std::string &Var, int Value) {
  ASTContext &Ctx = AST.getASTContext();
  auto Lit = integerLiteral(equals(Value)).bind("w");
  auto Init = varDecl(hasName(Var), hasInitializer(ignoringImplicit(Lit)));
  auto Assign = binaryOperator(isAssignmentOperator(), hasLHS(declRefExpr(to(varDecl(hasName(Var))))), hasRHS(Lit));
  if (const auto *E = selectFirst<Expr>("w", match(varDecl(Init).bind("d"), Ctx)))
    return E;
  return selectFirst<Expr>("w", match(Assign, Ctx));
}
const VarDecl *varNamed(ASTUnit &AST, const std::string &Name) {
  return selectFirst<VarDecl>("v", match(varDecl(hasName(Name)).bind("v"), AST.getASTContext()));
}

TEST(LocalDataflow, WriteNeverReadBehindALaterUnconditionalWrite) {
  auto AST = parse("int pick(); void use(int);\n"
                   "void forced() { int d = 10; if (pick()) d = 11; d = 12; use(d); }\n"
                   "void flagged() { int e = 20; if (pick()) e = 21; if (pick()) e = 22; use(e); }\n"
                   "void early() { int k = 30; use(k); k = 31; use(k); }\n"
                   "void looped() { int m = 40; for (int i = 0; i < 3; ++i) { use(m); m = 41; } m = 42; use(m); }\n"
                   "void escapes(int &);\n"
                   "void shared() { int n = 50; if (pick()) n = 51; escapes(n); n = 52; use(n); }\n");
  ASTContext &Ctx = AST->getASTContext();
  auto Dead = [&](const std::string &V, int W) {
    const Expr *E = writeOf(*AST, V, W);
    EXPECT_TRUE(E) << V << " = " << W;
    return writeNeverRead(E, varNamed(*AST, V), Ctx);
  };
  // `d = 12;` decides the read: the initialiser and the branch's write are never read.
  EXPECT_TRUE(Dead("d", 10));
  EXPECT_TRUE(Dead("d", 11));
  EXPECT_FALSE(Dead("d", 12));
  // A conditional override: every write may reach the read.
  EXPECT_FALSE(Dead("e", 20));
  EXPECT_FALSE(Dead("e", 21));
  EXPECT_FALSE(Dead("e", 22));
  // Read before the next write.
  EXPECT_FALSE(Dead("k", 30));
  EXPECT_FALSE(Dead("k", 31));
  // A write in a loop is read on the loop's next iteration.
  EXPECT_FALSE(Dead("m", 41));
  EXPECT_FALSE(Dead("m", 42));
  // A variable that escapes proves nothing.
  EXPECT_FALSE(Dead("n", 51));
}

TEST(LocalDataflow, OnlyReachingAssignmentOfAReadInItsOwnAssignment) {
  // `a = (a + 3) * 4`: the read of a inside the value is reached by the write before (the
  // assignment that holds it writes after the read); inside a loop, its own write of the last
  // iteration reaches it too.
  auto AST = parse("void use(int);\n"
                   "void own() { int a = 1; a = 2; a = (a + 3) * 4; use(a); }\n"
                   "void in_loop() { int b = 5; for (int i = 0; i < 3; ++i) b = (b + 6) * 7; use(b); }\n"
                   "void first_in_loop() { int c = 8; for (int i = 0; i < 3; ++i) c = c + 9; use(c); }\n");
  ASTContext &Ctx = AST->getASTContext();
  auto ReadInSum = [&](const std::string &V) {
    return selectFirst<DeclRefExpr>(
        "r", match(declRefExpr(to(varDecl(hasName(V))), hasAncestor(binaryOperator(hasOperatorName("+")))).bind("r"),
                   Ctx));
  };
  const DeclRefExpr *A = ReadInSum("a");
  ASSERT_TRUE(A);
  EXPECT_EQ(onlyReachingAssignment(A, varNamed(*AST, "a"), Ctx), writeOf(*AST, "a", 2));
  const DeclRefExpr *B = ReadInSum("b");
  ASSERT_TRUE(B);
  EXPECT_EQ(onlyReachingAssignment(B, varNamed(*AST, "b"), Ctx), nullptr);
  // The read first in its value (`c = c + 9`) in a loop: not the initialiser alone.
  const DeclRefExpr *C = ReadInSum("c");
  ASSERT_TRUE(C);
  EXPECT_EQ(onlyReachingAssignment(C, varNamed(*AST, "c"), Ctx), nullptr);
}

TEST(SourceText, TextOfACallAndThroughAMacroArgument) {
  auto AST = parse("#define ID(x) x\nvoid g(at::Tensor t) { float plain = t.item<float>(); float via_macro = "
                   "ID(t.item<float>()); }\n");
  ASTContext &Ctx = AST->getASTContext();
  const Expr *A = stripCopies(initOf(*AST, "plain"));
  const Expr *B = stripCopies(initOf(*AST, "via_macro"));
  EXPECT_EQ(sourceText(A, Ctx), "t.item<float>()");
  EXPECT_EQ(writtenText(A, Ctx), "t.item<float>()");
  // Through a macro argument: a message quotes the macro call as written, a fix-it copies nothing.
  EXPECT_EQ(sourceText(B, Ctx), "ID(t.item<float>())");
  EXPECT_EQ(writtenText(B, Ctx), "");
  EXPECT_EQ(sourceText(nullptr, Ctx), "");
}

TEST(SourceText, AMacroBodyHasNoFileText) {
  auto AST = parse("#define ITEM t.item<float>()\nvoid g(at::Tensor t) { float from_body = ITEM; }\n");
  ASTContext &Ctx = AST->getASTContext();
  const Expr *A = stripCopies(initOf(*AST, "from_body"));
  EXPECT_EQ(writtenText(A, Ctx), "");
  EXPECT_EQ(sourceText(A, Ctx), "ITEM"); // the whole expansion maps to the macro's name
}

/// A fresh folder, removed with what it holds at the end of the test.
struct ScratchDir {
  llvm::SmallString<128> Dir;
  ScratchDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("torchlint-atomic", Dir)); }
  ~ScratchDir() {
    llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::all_all);
    llvm::sys::fs::remove_directories(Dir);
  }
  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  /// The names in the folder, sorted: a temporary file left behind shows up here.
  std::vector<std::string> names() const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
      Out.push_back(llvm::sys::path::filename(It->path()).str());
    std::sort(Out.begin(), Out.end());
    return Out;
  }
};

std::string readAll(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "<unreadable>";
}

using Names = std::vector<std::string>;

TEST(Paths, WithinIsByWholeFolderNames) {
  EXPECT_TRUE(isWithin("/a/b/c.h", "/a/b"));
  EXPECT_TRUE(isWithin("/a/b/c.h", "/a/b/"));
  EXPECT_TRUE(isWithin("/a/b/c/d.h", "/a"));
  EXPECT_TRUE(isWithin("/x", "/"));
  EXPECT_FALSE(isWithin("/a/bc/d.h", "/a/b")); // a folder whose name only starts alike
  EXPECT_FALSE(isWithin("/a/b", "/a/b"));      // the folder itself is not within it
  EXPECT_FALSE(isWithin("/a/b/", "/a/b"));
  EXPECT_FALSE(isWithin("/a/b/c.h", ""));      // no folder: nothing is in it
  EXPECT_FALSE(isWithin("/a", "/a/b"));
}

TEST(Paths, SameOrWithinTakesTheFolderItself) {
  EXPECT_TRUE(isSameOrWithin("/a/b", "/a/b"));
  EXPECT_TRUE(isSameOrWithin("/a/b/", "/a/b"));
  EXPECT_TRUE(isSameOrWithin("/a/b", "/a/b/"));
  EXPECT_TRUE(isSameOrWithin("/a/b/c", "/a"));
  EXPECT_FALSE(isSameOrWithin("/a/bc", "/a/b"));
  EXPECT_FALSE(isSameOrWithin("/a", "/a/b"));
  EXPECT_FALSE(isSameOrWithin("/a", ""));
}

TEST(AtomicFile, WritesAndReplacesContent) {
  ScratchDir S;
  std::string F = S.path("index.json");
  AtomicWriteError E;
  ASSERT_TRUE(writeFileAtomically(F, "first", &E)) << E.EC.message();
  EXPECT_EQ("first", readAll(F));
  ASSERT_TRUE(writeFileAtomically(F, "second, longer", &E)) << E.EC.message();
  EXPECT_EQ("second, longer", readAll(F));
  ASSERT_TRUE(writeFileAtomically(F, "", &E)) << E.EC.message();
  EXPECT_EQ("", readAll(F));
  EXPECT_EQ(Names{"index.json"}, S.names()); // no temporary file left
}

TEST(FileStamp, ChangesWithTheFileAndMarksAMissingOne) {
  ScratchDir S;
  std::string F = S.path("compile_commands.json");
  EXPECT_EQ(std::make_pair(~uint64_t(0), int64_t(-1)), fileStamp(F));
  ASSERT_TRUE(writeFileAtomically(F, "[]"));
  auto First = fileStamp(F);
  EXPECT_EQ(2u, First.first);
  ASSERT_TRUE(writeFileAtomically(F, "[ ]"));
  EXPECT_NE(First, fileStamp(F));
}

TEST(AtomicFile, BeforeRenameSeesTheTemporaryFileBesideTheTarget) {
  ScratchDir S;
  std::string F = S.path("a.cpp");
  ASSERT_TRUE(writeFileAtomically(F, "old"));
  std::string Seen;
  EXPECT_TRUE(writeFileAtomically(F, "new", nullptr, [&](llvm::StringRef Tmp) {
    Seen = Tmp.str();
    EXPECT_EQ("new", readAll(Seen));
    EXPECT_EQ("old", readAll(F)); // not replaced yet
    return true;
  }));
  EXPECT_EQ(S.Dir.str(), llvm::sys::path::parent_path(Seen));
  EXPECT_TRUE(llvm::StringRef(Seen).starts_with(F + ".torchlint-")) << Seen;
  EXPECT_EQ("new", readAll(F));
  EXPECT_EQ(Names{"a.cpp"}, S.names());
}

TEST(AtomicFile, AbandonedWriteLeavesTheOldFileAndNoTemporaryFile) {
  ScratchDir S;
  std::string F = S.path("a.cpp");
  ASSERT_TRUE(writeFileAtomically(F, "old"));
  AtomicWriteError E;
  EXPECT_FALSE(writeFileAtomically(F, "new", &E, [](llvm::StringRef) { return false; }));
  EXPECT_EQ(AtomicWriteError::Abandoned, E.Step);
  EXPECT_FALSE(E.EC);
  EXPECT_EQ("old", readAll(F));
  EXPECT_EQ(Names{"a.cpp"}, S.names());
}

TEST(AtomicFile, FailsCleanlyWhenTheFolderDoesNotExist) {
  ScratchDir S;
  std::string F = S.path("missing/index.json");
  AtomicWriteError E;
  EXPECT_FALSE(writeFileAtomically(F, "text", &E));
  EXPECT_EQ(AtomicWriteError::CreateTemp, E.Step);
  EXPECT_TRUE(E.EC);
  EXPECT_TRUE(E.Temp.empty());
  EXPECT_FALSE(llvm::sys::fs::exists(F));
  EXPECT_EQ(Names{}, S.names());
  EXPECT_FALSE(writeFileAtomically(F, "text")); // without an error to fill in
}

TEST(AtomicFile, FailsCleanlyWhenTheFolderIsNotWritable) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root ignores the folder's permissions";
  ScratchDir S;
  std::string F = S.path("index.json");
  ASSERT_TRUE(writeFileAtomically(F, "old"));
  ASSERT_FALSE(llvm::sys::fs::setPermissions(S.Dir, llvm::sys::fs::perms(0555)));
  AtomicWriteError E;
  EXPECT_FALSE(writeFileAtomically(F, "new", &E));
  EXPECT_EQ(AtomicWriteError::CreateTemp, E.Step);
  EXPECT_EQ(std::errc::permission_denied, E.EC);
  EXPECT_EQ("old", readAll(F));
  EXPECT_EQ(Names{"index.json"}, S.names());
}

TEST(AtomicFile, FailedRenameRemovesTheTemporaryFile) {
  // A folder in the target's place: the temporary file is written, the rename fails (as root too).
  ScratchDir S;
  std::string F = S.path("target");
  ASSERT_FALSE(llvm::sys::fs::create_directory(F));
  ASSERT_TRUE(writeFileAtomically(S.path("target/kept"), "kept"));
  AtomicWriteError E;
  EXPECT_FALSE(writeFileAtomically(F, "new", &E));
  EXPECT_EQ(AtomicWriteError::Rename, E.Step);
  EXPECT_TRUE(E.EC);
  EXPECT_TRUE(llvm::StringRef(E.Temp).starts_with(F + ".torchlint-")) << E.Temp;
  EXPECT_FALSE(llvm::sys::fs::exists(E.Temp));
  EXPECT_TRUE(llvm::sys::fs::is_directory(F));
  EXPECT_EQ("kept", readAll(S.path("target/kept")));
  EXPECT_EQ(Names{"target"}, S.names());
}

} // namespace

// The factory table every check and analysis asks (analysis/TorchTypes.h).
#include "analysis/TorchTypes.h"

namespace {

TEST(TensorFactoryKind, OneTableForEveryKind) {
  using torchlint::tensorFactoryKind;
  EXPECT_TRUE(tensorFactoryKind("zeros").Fresh && tensorFactoryKind("zeros").Sized);
  EXPECT_FALSE(tensorFactoryKind("zeros").Random);
  EXPECT_TRUE(tensorFactoryKind("randn").Random && tensorFactoryKind("randn").Sized);
  EXPECT_TRUE(tensorFactoryKind("randperm").Random && !tensorFactoryKind("randperm").Sized);
  EXPECT_TRUE(tensorFactoryKind("arange").Fresh && !tensorFactoryKind("arange").Sized);
  EXPECT_TRUE(tensorFactoryKind("ones_like").Like && !tensorFactoryKind("ones_like").Fresh);
  EXPECT_TRUE(tensorFactoryKind("randn_like").Like && tensorFactoryKind("randn_like").Random);
  EXPECT_TRUE(tensorFactoryKind("from_blob").FromHost && tensorFactoryKind("from_blob").any());
  EXPECT_TRUE(tensorFactoryKind("bernoulli").Random);
  EXPECT_FALSE(tensorFactoryKind("matmul").any());
  EXPECT_FALSE(tensorFactoryKind("item").any());
}

} // namespace
