// Unit tests of utils/ (the generic helpers every check and analysis shares), on small inputs
// parsed against fuzz/stubs/torch_mini.h (milliseconds, not the ~10 s of torch/torch.h).
#include "utils/ExprStrip.h"
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

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

TEST(ExprStrip, StripTemporariesKeepsTheCopyConstructor) {
  auto AST = parse("void g(at::Tensor arg) { at::Tensor copy_of_arg = arg; }\n");
  const Expr *U = initOf(*AST, "copy_of_arg");
  EXPECT_TRUE(is<CXXConstructExpr>(stripTemporaries(U)));
  EXPECT_TRUE(is<DeclRefExpr>(stripCopies(U)));
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

TEST(ExprStrip, NullIsNull) {
  EXPECT_EQ(stripTemporaries(nullptr), nullptr);
  EXPECT_EQ(stripCopies(nullptr), nullptr);
  EXPECT_EQ(stripToWritten(nullptr), nullptr);
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
