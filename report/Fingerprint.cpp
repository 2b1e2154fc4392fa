// Finding fingerprints (stable under unrelated line moves), --baseline and --shard.
#include "core/Findings.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include <algorithm>
#include <map>
#include <tuple>

namespace torchlint {

namespace {

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// For each of Offsets (ascending), the name of the function whose body encloses it
/// ("Trainer::step"), found in one scan of the source's braces (comments, string literals and
/// preprocessor lines skipped). Lambdas, control statements, classes and namespaces are not
/// functions: a finding in a lambda takes the name of the function around it. Empty at namespace
/// scope.
std::vector<std::string> enclosingFunctions(llvm::StringRef Text, llvm::ArrayRef<unsigned> Offsets) {
  struct Block {
    std::string Name; // function name, or empty for other blocks
  };
  std::vector<Block> Stack;
  size_t HeaderStart = 0; // where the text before the next '{' starts
  int Paren = 0;
  bool LineStart = true;
  auto functionName = [](llvm::StringRef H) -> std::string {
    H = H.trim();
    // The declarator: the identifier (possibly qualified) right before the first '(' at depth 0.
    size_t P = H.find('(');
    if (P == llvm::StringRef::npos)
      return {};
    llvm::StringRef Before = H.substr(0, P).rtrim();
    size_t B = Before.size();
    while (B > 0 && (isIdentChar(Before[B - 1]) || Before[B - 1] == ':' || Before[B - 1] == '~'))
      --B;
    llvm::StringRef Name = Before.substr(B);
    if (Name.empty() || Name.ends_with(":"))
      return {};
    static const char *const Keywords[] = {"if",     "for",      "while",        "switch",  "catch",
                                           "return", "sizeof",   "decltype",     "alignof", "new",
                                           "throw",  "noexcept", "static_assert"};
    for (const char *K : Keywords)
      if (Name == K)
        return {};
    // `auto f = [&](...)`: the name is before '=' or ']'; not a function definition.
    if (Before.substr(0, B).rtrim().ends_with("=") || Before.substr(0, B).rtrim().ends_with("]"))
      return {};
    llvm::StringRef First = H.take_while(isIdentChar);
    if (First == "do" || First == "else" || First == "try" || First == "namespace" || First == "class" ||
        First == "struct" || First == "union" || First == "enum")
      return {};
    return Name.str();
  };
  std::vector<std::string> Out;
  auto current = [&] {
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
      if (!It->Name.empty())
        return It->Name;
    return std::string();
  };
  size_t Next = 0; // the next offset to answer
  for (size_t I = 0; I < Text.size() && Next < Offsets.size(); ++I) {
    while (Next < Offsets.size() && Offsets[Next] <= I) {
      Out.push_back(current());
      ++Next;
    }
    if (Next == Offsets.size())
      break;
    char C = Text[I];
    if (C == '\n') {
      LineStart = true;
      continue;
    }
    if (LineStart && (C == ' ' || C == '\t'))
      continue;
    if (LineStart && C == '#') { // preprocessor line (with continuations)
      while (I < Text.size() && !(Text[I] == '\n' && Text[I - 1] != '\\'))
        ++I;
      HeaderStart = I + 1;
      continue;
    }
    LineStart = false;
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '/') {
      while (I < Text.size() && Text[I] != '\n')
        ++I;
      LineStart = true;
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '*') {
      size_t E = Text.find("*/", I + 2);
      I = E == llvm::StringRef::npos ? Text.size() : E + 1;
      continue;
    }
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C && Text[I] != '\n'; ++I)
        if (Text[I] == '\\')
          ++I;
      continue;
    }
    switch (C) {
    case '(':
      ++Paren;
      break;
    case ')':
      Paren = std::max(0, Paren - 1);
      break;
    case ';':
      if (Paren == 0)
        HeaderStart = I + 1;
      break;
    case '{':
      Stack.push_back({Paren == 0 ? functionName(Text.slice(HeaderStart, I)) : std::string()});
      HeaderStart = I + 1;
      break;
    case '}':
      if (!Stack.empty())
        Stack.pop_back();
      HeaderStart = I + 1;
      break;
    }
  }
  while (Out.size() < Offsets.size())
    Out.push_back(current());
  return Out;
}

std::string normalizedLine(llvm::StringRef File, unsigned Line) {
  std::string S = sourceLine(File, Line), Out;
  for (char C : S)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

} // namespace

void computeFingerprints(RunResult &R) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, unsigned> Seen;
  // Rank by position so that the n-th of several identical findings keeps its identity.
  std::vector<Finding *> Order;
  for (Finding &F : R.Findings)
    Order.push_back(&F);
  std::stable_sort(Order.begin(), Order.end(), [](const Finding *A, const Finding *B) {
    return std::tie(A->File, A->Offset, A->Line, A->Column) < std::tie(B->File, B->Offset, B->Line, B->Column);
  });
  // Enclosing functions: one scan per file.
  std::map<Finding *, std::string> Functions;
  for (size_t I = 0; I < Order.size();) {
    size_t J = I;
    std::vector<unsigned> Offsets;
    while (J < Order.size() && Order[J]->File == Order[I]->File)
      Offsets.push_back(Order[J++]->Offset);
    if (auto B = llvm::MemoryBuffer::getFile(Order[I]->File, /*IsText=*/false, /*RequiresNullTerminator=*/false)) {
      std::vector<std::string> Names = enclosingFunctions((*B)->getBuffer(), Offsets);
      for (size_t K = I; K < J; ++K)
        Functions[Order[K]] = Names[K - I];
    }
    I = J;
  }
  for (Finding *F : Order) {
    if (!F->Fingerprint.empty())
      continue;
    const std::string &Function = Functions[F];
    std::string Line = normalizedLine(F->File, F->Line);
    std::string Name = llvm::sys::path::filename(F->File).str();
    unsigned Rank = Seen[{F->Check + "\n" + Name, Function, Line, F->File}]++;
    llvm::SHA1 H;
    H.update("torchlint/v1\n" + F->Check + "\n" + Name + "\n" + Function + "\n" + Line + "\n" + std::to_string(Rank));
    auto D = H.final();
    F->Fingerprint = llvm::toHex(llvm::ArrayRef<uint8_t>(D.data(), D.size()), /*LowerCase=*/true).substr(0, 32);
  }
}

unsigned applyBaseline(RunResult &R, const RunResult &Baseline) {
  std::map<std::string, unsigned> Known;
  for (const Finding &F : Baseline.Findings)
    if (!F.Fingerprint.empty())
      ++Known[F.Fingerprint];
  unsigned Removed = 0;
  std::vector<Finding> Kept;
  for (Finding &F : R.Findings) {
    auto It = Known.find(F.Fingerprint);
    if (!F.isCompilerError() && !F.Fingerprint.empty() && It != Known.end() && It->second > 0) {
      --It->second;
      ++Removed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  R.Findings = std::move(Kept);
  return Removed;
}

bool parseShard(llvm::StringRef Spec, unsigned &K, unsigned &N) {
  auto [A, B] = Spec.split('/');
  if (A.trim().getAsInteger(10, K) || B.trim().getAsInteger(10, N))
    return false;
  return N >= 1 && K >= 1 && K <= N;
}

std::vector<std::string> selectShard(const std::vector<std::string> &Inputs, unsigned K, unsigned N) {
  std::vector<std::string> Sorted = Inputs;
  std::sort(Sorted.begin(), Sorted.end());
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  std::vector<std::string> Out;
  for (size_t I = 0; I < Sorted.size(); ++I)
    if (I % N == K - 1)
      Out.push_back(Sorted[I]);
  return Out;
}

} // namespace torchlint
