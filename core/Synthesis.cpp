#include "core/Synthesis.h"
#include "clang/Tooling/Inclusions/StandardLibrary.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <regex>

namespace torchlint {

const char *const SynthNamespace = "__torchlint_synth";
const char *const SynthHeaderName = "__torchlint_synthesized.h";
const char *const SynthUsedText = "typed through torchlint's synthesised declarations";

namespace {

bool identStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool identChar(char C) { return llvm::isAlnum(C) || C == '_'; }

llvm::StringRef skipSpace(llvm::StringRef S) { return S.ltrim(" \t\r\n\f\v"); }

/// The identifier S starts with ("" when none).
llvm::StringRef leadingIdent(llvm::StringRef S) {
  if (S.empty() || !identStart(S[0]))
    return "";
  size_t I = 1;
  while (I < S.size() && identChar(S[I]))
    ++I;
  return S.take_front(I);
}

/// S starts with '<': the text between it and its matching '>' (nested <>, (), [], {} counted);
/// false when S does not look like template arguments (a ';' or an unbalanced bracket first).
bool templateArgs(llvm::StringRef S, std::string &Args, size_t &End) {
  int Angle = 0, Other = 0;
  for (size_t I = 0; I < S.size() && I < 400; ++I) {
    char C = S[I];
    if (C == '<')
      ++Angle;
    else if (C == '>' && Other == 0) {
      if (--Angle == 0) {
        Args = S.slice(1, I).str();
        End = I + 1;
        return true;
      }
    } else if (C == '(' || C == '[' || C == '{')
      ++Other;
    else if (C == ')' || C == ']' || C == '}') {
      if (--Other < 0)
        return false;
    } else if (C == ';')
      return false;
    else if ((C == '&' || C == '|') && I + 1 < S.size() && S[I + 1] == C && Other == 0)
      return false; // `a < b && c > d`
  }
  return false;
}

/// "class, auto" for the arguments written: a literal is a value, anything else a type.
std::string paramKinds(llvm::StringRef Args) {
  std::vector<std::string> Parts;
  int Depth = 0;
  size_t From = 0;
  for (size_t I = 0; I <= Args.size(); ++I) {
    char C = I < Args.size() ? Args[I] : ',';
    if (C == '<' || C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      llvm::StringRef A = Args.slice(From, I).trim();
      From = I + 1;
      if (A.empty())
        continue;
      bool Value = llvm::isDigit(A[0]) || A[0] == '-' || A[0] == '+' || A[0] == '\'' || A[0] == '"' ||
                   A == "true" || A == "false" || A == "nullptr" || A.starts_with("sizeof");
      Parts.push_back(Value ? "auto" : "class");
    }
  }
  bool AllTypes = std::all_of(Parts.begin(), Parts.end(), [](const std::string &P) { return P == "class"; });
  if (AllTypes)
    return "class..."; // any number of types (defaulted arguments left out elsewhere)
  return llvm::join(Parts, ", ");
}

bool reservedRoot(llvm::StringRef N) {
  return N == "std" || N == "torch" || N == "at" || N == "c10" || N == "caffe2" || N == SynthNamespace ||
         N.starts_with("__") || N == "operator" || N == "this" || N == "template" || N == "typename";
}

/// The first '...' quoted name of a message after Prefix ("" when the message is not of that form).
std::string quoted(llvm::StringRef Msg, llvm::StringRef Prefix, llvm::StringRef *Rest = nullptr) {
  if (!Msg.consume_front(Prefix) || !Msg.consume_front("'"))
    return "";
  size_t Q = Msg.find('\'');
  if (Q == llvm::StringRef::npos)
    return "";
  if (Rest)
    *Rest = Msg.drop_front(Q + 1);
  return Msg.take_front(Q).str();
}

std::vector<std::string> splitQualified(llvm::StringRef Q) {
  std::vector<std::string> Out;
  Q = Q.trim();
  Q.consume_front("::");
  llvm::SmallVector<llvm::StringRef> Parts;
  Q.split(Parts, "::");
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    size_t T = P.find('<');
    if (T != llvm::StringRef::npos)
      P = P.take_front(T);
    if (!P.empty())
      Out.push_back(P.str());
  }
  return Out;
}

enum Hint { None = 0, TypeHint = 1, TemplateHint = 2, NamespaceHint = 3 };

} // namespace

void DeclarationSynthesis::learnAliases(llvm::StringRef Text) {
  static const std::regex Alias(R"(namespace\s+([A-Za-z_]\w*)\s*=\s*(::)?\s*([A-Za-z_][\w:\s]*?)\s*;)");
  std::string S = Text.str();
  for (auto It = std::sregex_iterator(S.begin(), S.end(), Alias); It != std::sregex_iterator(); ++It) {
    std::vector<std::string> Target = splitQualified((*It)[3].str());
    if (!Target.empty() && !Aliases.count((*It)[1].str()))
      Aliases[(*It)[1].str()] = Target;
  }
}

bool DeclarationSynthesis::empty() const {
  return Root.Children.empty() && Members.empty() && StdHeaders.empty() && DeclarationMacros.empty() &&
         StreamMacros.empty();
}

bool DeclarationSynthesis::declare(const std::vector<std::string> &Path, Kind K, const std::string &Params) {
  if (Path.empty() || reservedRoot(Path[0]))
    return false;
  for (const std::string &P : Path)
    if (P.empty() || P.rfind("__", 0) == 0)
      return false;
  Node *N = &Root;
  bool New = false;
  for (size_t I = 0; I < Path.size(); ++I) {
    auto [It, Inserted] = N->Children.try_emplace(Path[I]);
    New |= Inserted;
    N = &It->second;
    if (I + 1 < Path.size() && !N->Namespace) {
      N->Namespace = true;
      New = true;
    }
  }
  bool *Flag = nullptr;
  switch (K) {
  case Kind::Namespace:
    Flag = &N->Namespace;
    break;
  case Kind::Value:
    Flag = &N->Value;
    break;
  case Kind::Type:
    Flag = &N->Type;
    break;
  case Kind::FunctionTemplate:
    Flag = &N->FunctionTemplate;
    break;
  case Kind::TypeTemplate:
    if (N->TemplateParams.empty()) {
      N->TemplateParams = Params.empty() ? "class..." : Params;
      New = true;
    }
    return New;
  }
  if (!*Flag) {
    *Flag = true;
    New = true;
  }
  return New;
}

bool DeclarationSynthesis::declareMember(const std::string &Name, bool Template) {
  if (Name.empty() || Name.rfind("__", 0) == 0 || Name == "operator")
    return false;
  auto [It, Inserted] = Members.try_emplace(Name, Template);
  if (!Inserted && Template && !It->second) {
    It->second = true;
    return true;
  }
  return Inserted;
}

/// S starts with an opening bracket: the length up to and with its matching closing one (0 when none).
static size_t balanced(llvm::StringRef S) {
  int Depth = 0;
  for (size_t I = 0; I < S.size() && I < 2000; ++I) {
    char C = S[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}') {
      if (--Depth == 0)
        return I + 1;
    } else if (C == ';' && Depth <= 1 && S[0] != '(')
      return 0;
  }
  return 0;
}

bool DeclarationSynthesis::postfixMembers(llvm::StringRef S, llvm::StringRef Lead) {
  bool New = false;
  // The member last named, while its `<...>(...)` is being read: a member access after both makes
  // it an object member.
  std::string Member = Lead.str();
  bool TemplateArgs = false, Called = false;
  for (int Steps = 0; Steps < 32; ++Steps) {
    S = skipSpace(S);
    if (S.starts_with("<") && !S.starts_with("<<") && !S.starts_with("<=")) {
      std::string Args;
      size_t End = 0;
      if (!templateArgs(S, Args, End))
        return New;
      S = S.drop_front(End);
      TemplateArgs = !Called;
      continue;
    }
    if (S.starts_with("(") || S.starts_with("[")) {
      size_t N = balanced(S);
      if (!N)
        return New;
      Called = S.starts_with("(") && !Called;
      S = S.drop_front(N);
      continue;
    }
    size_t Op = S.starts_with("->") ? 2 : S.starts_with(".") && !S.starts_with("...") ? 1 : 0;
    if (!Op)
      return New;
    if (!Member.empty() && TemplateArgs && Called && Members.count(Member))
      New |= ObjectMembers.insert(Member).second;
    llvm::StringRef Rest = skipSpace(S.drop_front(Op));
    llvm::StringRef Id = leadingIdent(Rest);
    if (Id.empty() || Id == "template")
      return New;
    S = Rest.drop_front(Id.size());
    llvm::StringRef T = skipSpace(S);
    std::string Args;
    size_t End;
    New |= declareMember(Id.str(), T.starts_with("<") && templateArgs(T, Args, End));
    Member = Id.str();
    TemplateArgs = Called = false;
  }
  return New;
}

std::string DeclarationSynthesis::trailingTemplateCall(llvm::StringRef S) {
  S = S.rtrim();
  auto Back = [&](char Open, char Close) { // drops a balanced Open...Close at S's end
    if (!S.ends_with(llvm::StringRef(&Close, 1)))
      return false;
    int Depth = 0;
    for (size_t I = S.size(); I-- > 0;) {
      if (S[I] == Close)
        ++Depth;
      else if (S[I] == Open && --Depth == 0) {
        S = S.take_front(I).rtrim();
        return true;
      } else if (S[I] == ';' || S[I] == '{' || S[I] == '}')
        return false;
    }
    return false;
  };
  if (!Back('(', ')') || !Back('<', '>'))
    return "";
  size_t I = S.size();
  while (I > 0 && identChar(S[I - 1]))
    --I;
  llvm::StringRef Id = S.drop_front(I);
  llvm::StringRef Before = S.take_front(I).rtrim();
  if (Id.empty() || llvm::isDigit(Id[0]) || !(Before.ends_with(".") || Before.ends_with("->")))
    return "";
  return Id.str();
}

bool DeclarationSynthesis::fromChain(std::vector<std::string> Qualifier, llvm::StringRef At, std::string Name,
                                     int H, llvm::StringRef Before) {
  struct Comp {
    std::string Name;
    bool HasArgs = false;
    std::string Args;
  };
  std::vector<Comp> Comps;
  llvm::StringRef Follow;
  if (At.starts_with(Name) && (At.size() == Name.size() || !identChar(At[Name.size()]))) {
    llvm::StringRef S = At.drop_front(Name.size());
    Comps.push_back({Name, false, ""});
    while (true) {
      llvm::StringRef T = skipSpace(S);
      if (T.starts_with("<") && !T.starts_with("<<") && !T.starts_with("<=")) {
        std::string Args;
        size_t End = 0;
        if (templateArgs(T, Args, End)) {
          Comps.back().HasArgs = true;
          Comps.back().Args = Args;
          T = skipSpace(T.drop_front(End));
        }
      }
      if (T.starts_with("::")) {
        llvm::StringRef Id = leadingIdent(skipSpace(T.drop_front(2)));
        if (!Id.empty()) {
          Comps.push_back({Id.str(), false, ""});
          S = skipSpace(T.drop_front(2)).drop_front(Id.size());
          continue;
        }
      }
      Follow = T;
      break;
    }
  } else {
    Comps.push_back({Name, false, ""});
  }
  // An alias written at the start of the chain: its target.
  if (Qualifier.empty()) {
    auto A = Aliases.find(Comps[0].Name);
    if (A != Aliases.end()) {
      if (Comps.size() == 1)
        return false; // the alias itself (`namespace po = ...;` is declared by the file)
      Qualifier = A->second;
      Comps.erase(Comps.begin());
    }
  } else if (auto A = Aliases.find(Qualifier[0]); A != Aliases.end()) {
    std::vector<std::string> Q = A->second;
    Q.insert(Q.end(), Qualifier.begin() + 1, Qualifier.end());
    Qualifier = Q;
  }
  // A bare name, not called: declared only when it is still unknown in the next parse (Pending).
  if (Qualifier.empty() && Comps.size() == 1 && !Comps[0].HasArgs && H != NamespaceHint && H != TemplateHint) {
    llvm::StringRef F = Follow;
    // `PLOG_INFO << "loss " << loss;` at a statement's start: a logging library's macro used as
    // a stream (plog, glog-style wrappers), a name in capitals: declared at once.
    llvm::StringRef N = Comps[0].Name;
    llvm::StringRef Prev = Before.rtrim(" \t\r\n");
    // Line comments between the previous statement and the name.
    for (size_t NL = Prev.rfind('\n'), C = Prev.find("//", NL == llvm::StringRef::npos ? 0 : NL);
         C != llvm::StringRef::npos && !Prev.empty();
         NL = Prev.rfind('\n'), C = Prev.find("//", NL == llvm::StringRef::npos ? 0 : NL))
      Prev = Prev.take_front(C).rtrim(" \t\r\n");
    bool StreamMacro = F.starts_with("<<") && !F.starts_with("<<=") && N.size() >= 3 && llvm::isUpper(N[0]) &&
                       llvm::all_of(N, [](char C) { return llvm::isUpper(C) || llvm::isDigit(C) || C == '_'; }) &&
                       (Prev.empty() || Prev.ends_with(";") || Prev.ends_with("{") || Prev.ends_with("}") ||
                        Prev.ends_with(")"));
    if (StreamMacro) {
      bool New = StreamMacros.insert(N.str()).second;
      New |= StdHeaders.insert("ostream").second;
      return New;
    }
    if (!F.starts_with("(")) {
      if (F.starts_with(",") || F.starts_with(")"))
        if (H == TypeHint)
          return false; // `store(parse(argc, argv), vm)` parsed as a declaration: not types
      Seen.insert(Comps[0].Name);
      if (!Pending.count(Comps[0].Name))
        return false;
    }
  }
  // `namespace po = boost::program_options;`, `using namespace absl;`: every part a namespace.
  llvm::StringRef B = Before.rtrim(" \t\r\n");
  bool AllNamespaces = H == NamespaceHint || B.ends_with("using namespace");
  if (B.consume_back("=")) {
    B = B.rtrim(" \t");
    llvm::StringRef Id = B;
    while (!Id.empty() && identChar(Id.back()))
      Id = Id.drop_back();
    llvm::StringRef Kw = Id.rtrim(" \t\r\n");
    if (Id.size() < B.size() && Kw.ends_with("namespace"))
      AllNamespaces = true;
    // `using KdTree = nanoflann::KDTreeSingleIndexAdaptor<...>;`: an alias declaration names a type.
    else if (Id.size() < B.size() && Kw.ends_with("using") && (Kw.size() == 5 || !identChar(Kw[Kw.size() - 6])) &&
             H == None)
      H = TypeHint;
  } else if (B.ends_with("typedef") && (B.size() == 7 || !identChar(B[B.size() - 8])) && H == None) {
    H = TypeHint;
  }
  std::vector<std::string> Path = Qualifier;
  bool New = false;
  for (size_t I = 0; I < Comps.size(); ++I) {
    Path.push_back(Comps[I].Name);
    bool Last = I + 1 == Comps.size();
    if (AllNamespaces) {
      New |= declare(Path, Kind::Namespace);
      continue;
    }
    if (!Last) {
      if (Comps[I].HasArgs) {
        // `Matrix<float, 3>::Identity()`: a type template whose members are __value's.
        New |= declare(Path, Kind::TypeTemplate, paramKinds(Comps[I].Args));
        New |= declareMember(Comps[I + 1].Name, Comps[I + 1].HasArgs);
        return New;
      }
      New |= declare(Path, Kind::Namespace);
      continue;
    }
    llvm::StringRef F = Follow;
    bool IdentNext = !F.empty() && identStart(F[0]);
    if (Comps[I].HasArgs) {
      bool TypeUse = H == TypeHint || H == TemplateHint || IdentNext || F.starts_with(">") ||
                     F.starts_with("&") || F.starts_with("*") || F.starts_with("...");
      New |= TypeUse ? declare(Path, Kind::TypeTemplate, paramKinds(Comps[I].Args))
                     : declare(Path, Kind::FunctionTemplate);
    } else if (H == TemplateHint) {
      New |= declare(Path, Kind::TypeTemplate, "class...");
    } else if (H == TypeHint || IdentNext || F.starts_with(">") || F.starts_with("{")) {
      // (`spdlog::source_loc{file, line, fn}`: a braced list after a name builds a value of a type.)
      New |= declare(Path, Kind::Type);
    } else {
      New |= declare(Path, Kind::Value);
    }
    if (!IdentNext)
      New |= postfixMembers(F); // `spdlog::get("x")->info(...)`: members of what it gives
  }
  return New;
}

/// `MSGPACK_DEFINE_MAP(method, param)` where a declaration starts (after `{`, `;`, `}` or an access
/// specifier), a name in capitals with an underscore: the missing library's declaration macro, its
/// name; else "".
static std::string declarationMacroAt(const SynthDiag &D) {
  llvm::StringRef At = D.At;
  llvm::StringRef Id = leadingIdent(At);
  if (Id.size() < 3 || !Id.contains('_') || !llvm::isUpper(Id[0]) ||
      !llvm::all_of(Id, [](char C) { return llvm::isUpper(C) || llvm::isDigit(C) || C == '_'; }) ||
      !skipSpace(At.drop_front(Id.size())).starts_with("("))
    return "";
  // `TEST_CASE("name") { ... }` defines something with the body that follows: not one to drop.
  llvm::StringRef Args = skipSpace(At.drop_front(Id.size()));
  size_t Close = balanced(Args);
  if (!Close || skipSpace(Args.drop_front(Close)).starts_with("{"))
    return "";
  // Where clang expects a declaration (a class body, namespace scope): in a function body
  // `CHECK_EQ(a, b);` is a call ("use of undeclared identifier"), declared as a value so that its
  // arguments are still judged.
  llvm::StringRef M = D.Message;
  if (!M.starts_with("a type specifier is required for all declarations") &&
      !M.starts_with("C++ requires a type specifier") && quoted(M, "unknown type name ") != Id)
    return "";
  llvm::StringRef B = llvm::StringRef(D.Before).rtrim(" \t\r\n");
  bool DeclarationStart =
      B.empty() || B.ends_with("{") || B.ends_with(";") || B.ends_with("}") || (B.ends_with(":") && !B.ends_with("::"));
  return DeclarationStart ? Id.str() : "";
}

bool DeclarationSynthesis::learnStd(llvm::StringRef Name) {
  // "std::basic_ofstream<char>", "std::ofstream' (aka ...", "ofstream": the std symbol's header.
  Name = Name.trim();
  Name.consume_front("::");
  if (!Name.consume_front("std::"))
    return false;
  Name = Name.take_until([](char C) { return !identChar(C); });
  if (Name.empty())
    return false;
  std::optional<clang::tooling::stdlib::Symbol> Sym = clang::tooling::stdlib::Symbol::named("std::", Name);
  if (!Sym)
    return false;
  std::optional<clang::tooling::stdlib::Header> Hdr = Sym->header();
  if (!Hdr)
    return false;
  llvm::StringRef H = Hdr->name(); // "<fstream>"
  if (!H.consume_front("<") || !H.consume_back(">") || H.empty())
    return false;
  return StdHeaders.insert(H.str()).second;
}

bool DeclarationSynthesis::learn(const std::vector<SynthDiag> &Errors) {
  bool New = false;
  Seen.clear();
  for (const SynthDiag &D : Errors) {
    llvm::StringRef M = D.Message;
    llvm::StringRef Rest;
    std::string Name;
    // A standard name that the missing library's header declared for the file: its header.
    std::string StdName;
    if (!(StdName = quoted(M, "implicit instantiation of undefined template ")).empty() ||
        !(StdName = quoted(M, "variable has incomplete type ")).empty() ||
        !(StdName = quoted(M, "field has incomplete type ")).empty()) {
      New |= learnStd(StdName);
      continue;
    }
    if (std::string Macro = declarationMacroAt(D); !Macro.empty()) {
      New |= DeclarationMacros.insert(Macro).second;
      continue;
    }
    for (const char *P : {"no member named ", "no template named ", "no type named "})
      if (!(Name = quoted(M, P, &Rest)).empty() && quoted(Rest, " in namespace ") == "std") {
        New |= learnStd("std::" + Name);
        StdName = Name;
      }
    if (!StdName.empty())
      continue;
    if (!(Name = quoted(M, "use of undeclared identifier ")).empty()) {
      New |= fromChain({}, D.At, Name, None, D.Before);
    } else if (!(Name = quoted(M, "unknown type name ")).empty()) {
      New |= fromChain({}, D.At, Name, TypeHint, D.Before);
    } else if (!(Name = quoted(M, "no template named ", &Rest)).empty()) {
      std::string NS = quoted(Rest, " in namespace ");
      if (NS.empty() && !Rest.trim().empty() && !Rest.starts_with(";"))
        continue; // "in 'SomeClass'"
      New |= fromChain(splitQualified(NS), D.At, Name, TemplateHint, D.Before);
    } else if (!(Name = quoted(M, "no type named ", &Rest)).empty()) {
      std::string NS = quoted(Rest, " in namespace ");
      if (!NS.empty())
        New |= fromChain(splitQualified(NS), D.At, Name, TypeHint, D.Before);
    } else if (!(Name = quoted(M, "no member named ", &Rest)).empty()) {
      if (std::string NS = quoted(Rest, " in namespace "); !NS.empty()) {
        New |= fromChain(splitQualified(NS), D.At, Name, None, D.Before);
        continue;
      }
      // A member of a synthesised type: "in '__torchlint_synth::__value'", or of an alias of it
      // as the code wrote it ("in 'po::variables_map'").
      std::string T = quoted(Rest, " in ");
      llvm::StringRef TR = T;
      TR.consume_front("const ");
      TR.consume_front("struct ");
      bool Synth = TR.contains(SynthNamespace);
      if (!Synth) {
        std::vector<std::string> P = splitQualified(TR);
        if (!P.empty())
          if (auto A = Aliases.find(P[0]); A != Aliases.end()) {
            std::vector<std::string> Q = A->second;
            Q.insert(Q.end(), P.begin() + 1, P.end());
            P = Q;
          }
        const Node *N = &Root;
        for (const std::string &C : P) {
          auto It = N->Children.find(C);
          if (It == N->Children.end()) {
            N = nullptr;
            break;
          }
          N = &It->second;
        }
        Synth = N && N != &Root && (N->Type || !N->TemplateParams.empty());
      }
      if (!Synth)
        continue;
      llvm::StringRef At = D.At;
      bool Template = false;
      if (At.consume_front(Name)) {
        llvm::StringRef T = skipSpace(At);
        std::string Args;
        size_t End;
        Template = T.starts_with("<") && templateArgs(T, Args, End);
        New |= declareMember(Name, Template);
        New |= postfixMembers(At, Name);
      }
      New |= declareMember(Name, Template);
    } else if (M.starts_with("member reference base type ") && M.ends_with(" is not a structure or union")) {
      // `cfg["n"].value<int64_t>().value()` where an earlier round made value<int64_t>() the number.
      std::string Call = trailingTemplateCall(D.Before);
      if (!Call.empty() && Members.count(Call) && Members[Call])
        New |= ObjectMembers.insert(Call).second;
    } else if (M == "expected a type" || M.starts_with("template argument for template type parameter must be a type")) {
      // `using KdTree = nanoflann::KDTreeSingleIndexAdaptor<...>;` where an earlier round declared a
      // function template, or a template argument that must be a type.
      llvm::StringRef Id = leadingIdent(D.At);
      if (!Id.empty())
        New |= fromChain({}, D.At, Id.str(), TypeHint, D.Before);
    } else if (M.starts_with("expected namespace name")) {
      llvm::StringRef Id = leadingIdent(D.At);
      if (!Id.empty())
        New |= fromChain({}, D.At, Id.str(), NamespaceHint, D.Before);
    } else if (!(Name = quoted(M, "", &Rest)).empty() &&
               Rest.starts_with(" is not a class, namespace, or enumeration")) {
      // A name declared as a value in an earlier round, written as `name::member`.
      New |= fromChain({}, D.At, Name, NamespaceHint, D.Before);
    }
  }
  Pending = Seen;
  return New;
}

void DeclarationSynthesis::collectNames(const Node &N, const std::string &Prefix,
                                        std::vector<std::string> &Out) const {
  for (const auto &[Name, C] : N.Children) {
    std::string Q = Prefix.empty() ? Name : Prefix + "::" + Name;
    if (C.Value || C.Type || C.FunctionTemplate || !C.TemplateParams.empty() || C.Children.empty())
      Out.push_back(Q);
    collectNames(C, Q, Out);
  }
}

std::vector<std::string> DeclarationSynthesis::names() const {
  std::vector<std::string> Out;
  collectNames(Root, "", Out);
  for (const auto &[M, T] : Members)
    Out.push_back("." + M);
  for (const std::string &M : DeclarationMacros)
    Out.push_back(M + "(...)");
  for (const std::string &M : StreamMacros)
    Out.push_back(M + " <<");
  return Out;
}

void DeclarationSynthesis::emit(std::string &Out, const std::string &Name, const Node &N, const std::string &Ind,
                                std::map<std::string, bool> &Ms, const std::string &Qual,
                                std::vector<std::string> &Types) const {
  const char *V = "::__torchlint_synth::__value";
  bool IsType = N.Type || !N.TemplateParams.empty();
  if (IsType) {
    // A type with members written as `Type::member`: they are the permissive type's (static) members.
    for (const auto &[C, CN] : N.Children)
      Ms.try_emplace(C, CN.FunctionTemplate || !CN.TemplateParams.empty());
    if (!N.TemplateParams.empty()) {
      Out += Ind + "template <" + N.TemplateParams + "> using " + Name + " = " + V + ";\n";
      return;
    }
    // A type of its own, which is a __value (its members, operators and conversions): a class's
    // overloads on two such types (`T(const glm::vec3 &)`, `T(const glm::mat4 &)`) stay two.
    Out += Ind + "struct " + Name + " : " + V + " {\n" + Ind + "  using " + V + "::__value;\n" + Ind + "  using " + V +
           "::operator=;\n" + Ind + "  " + Name + "();\n" + Ind + "  " + Name + "(const " + V + " &);\n" + Ind + "};\n";
    Types.push_back(Qual + "::" + Name);
    return;
  }
  if (N.Namespace || !N.Children.empty()) {
    Out += Ind + "namespace " + Name + " {\n";
    for (const auto &[C, CN] : N.Children)
      emit(Out, C, CN, Ind + "  ", Ms, Qual + "::" + Name, Types);
    Out += Ind + "}\n";
    return;
  }
  if (N.FunctionTemplate) {
    Out += Ind + "template <class __U = " + V + ", class... __R, class... __A> ::__torchlint_synth::__ret<__U> " + Name +
           "(__A &&...);\n";
    Out += Ind + "template <auto __V, auto... __R, class... __A> " + V + " " + Name + "(__A &&...);\n";
    return;
  }
  Out += Ind + "extern " + V + " " + Name + ";\n";
}

std::string DeclarationSynthesis::header() const {
  // Namespace-level declarations first (they may add members), then the types, then those.
  std::map<std::string, bool> Ms = Members;
  std::string Decls;
  // Logging macros written as streams (`PLOG_INFO << ...`): a std::ostream, so that what is
  // streamed into them is judged as it is for std::cout (a tensor printed per step).
  for (const std::string &M : StreamMacros)
    Decls += "#if __has_include(<ostream>)\nextern std::ostream &" + M + ";\n#else\nextern ::" +
             std::string(SynthNamespace) + "::__value " + M + ";\n#endif\n";
  std::vector<std::string> Types;
  for (const auto &[Name, N] : Root.Children)
    emit(Decls, Name, N, "", Ms, "", Types);
  // The synthesised types are values for the operators and constructors of __value (see __is).
  if (!Types.empty()) {
    Decls += "namespace __torchlint_synth {\n";
    for (const std::string &T : Types)
      Decls += "template <> struct __is<" + T + "> { static constexpr bool value = true; };\n"
               "template <> struct __isv<" + T + "> { static constexpr bool value = true; };\n";
    Decls += "}\n";
  }
  std::string MemberDecls;
  for (const auto &[M, Template] : Ms) {
    if (Template) {
      // (An object member gives __typed<T> even for a number T: `.value<int64_t>().value()`.)
    MemberDecls += std::string("  template <class __U = __value, class... __R, class... __A> static ") +
                   (ObjectMembers.count(M) ? "__ret" : "__mret") + "<__U> " + M + "(__A &&...);\n";
      MemberDecls += "  template <auto __V, auto... __R, class... __A> static __value " + M + "(__A &&...);\n";
    } else {
      MemberDecls += "  static __value " + M + ";\n";
    }
  }
  // (__value's subscript and iteration give __value; __typed<T>'s give T's, where T has them:
  // `auto f = cfg["f"].as<std::vector<float>>(); t * f[1]` multiplies by a float.)
  std::string ValueOnly = R"(  template <class __A> __value operator[](__A &&) const;
  __value *begin() const;
  __value *end() const;
)";
  std::string TypedOnly = R"(  template <class __A> typename __r_idx<T, __A>::type operator[](__A &&) const;
  typename __r_begin<T>::type begin() const;
  typename __r_end<T>::type end() const;
)";
  // A call with a braced list among its arguments (matplot's `legend({})`, `plot({1, 2}, y)`)
  // deduces nothing for the template: the fixed arities take each argument as a value (`{}`, `{x}`
  // and `{x, y}` construct one). Elsewhere the template is the better match.
  std::string Common = R"(  template <class... __A> __value operator()(__A &&...) const;
  __value operator()(const __value &) const;
  __value operator()(const __value &, const __value &) const;
  __value operator()(const __value &, const __value &, const __value &) const;
  __value operator()(const __value &, const __value &, const __value &, const __value &) const;
  __value *operator->() const;
  __value &operator*() const;
  __value &operator++();
  __value &operator--();
  __value operator++(int);
  __value operator--(int);
  __value operator-() const;
  __value operator+() const;
  __value operator~() const;
)";
  std::string StdIncludes;
  for (const std::string &H : StdHeaders)
    StdIncludes += "#if __has_include(<" + H + ">)\n#include <" + H + ">\n#endif\n";
  for (const std::string &M : DeclarationMacros)
    StdIncludes += "#ifndef " + M + "\n#define " + M + "(...)\n#endif\n";
  // Self-contained (no standard header: a project may be parsed with -nostdinc, and the header
  // may be included before any other).
  std::string H = R"(// Generated by torchlint (issue 24): permissive declarations for names the file uses from
// libraries that are not installed. Never the user's code; no finding rests on it.
#ifndef TORCHLINT_SYNTHESIZED_H
#define TORCHLINT_SYNTHESIZED_H
#pragma clang system_header
#if __has_include(<iosfwd>)
#include <iosfwd>
#define __TORCHLINT_SYNTH_IOS 1
#endif
)" + StdIncludes + R"(
extern "C++" {
namespace __torchlint_synth {
struct __value;
template <class T> struct __typed;
template <class T> struct __ret_s { using type = __typed<T>; };
template <> struct __ret_s<__value> { using type = __value; };
// A member template of a value (`cfg["lr"].as<double>()`, `node.get<int>()`) giving a number gives
// the number: it has no semantics a finding could rest on, and `SGD opt(params,
// cfg["lr"].as<double>())` needs the one user conversion (double to SGDOptions). (A namespace's
// `po::value<float>()` stays __typed: a factory, whose result may be used as anything.)
template <class T> struct __mret_s { using type = typename __ret_s<T>::type; };
template <class T> using __mret = typename __mret_s<T>::type;
#define __TORCHLINT_SYNTH_SAME(T) template <> struct __mret_s<T> { using type = T; };
__TORCHLINT_SYNTH_SAME(bool) __TORCHLINT_SYNTH_SAME(char) __TORCHLINT_SYNTH_SAME(signed char)
__TORCHLINT_SYNTH_SAME(unsigned char) __TORCHLINT_SYNTH_SAME(short) __TORCHLINT_SYNTH_SAME(unsigned short)
__TORCHLINT_SYNTH_SAME(int) __TORCHLINT_SYNTH_SAME(unsigned) __TORCHLINT_SYNTH_SAME(long)
__TORCHLINT_SYNTH_SAME(unsigned long) __TORCHLINT_SYNTH_SAME(long long) __TORCHLINT_SYNTH_SAME(unsigned long long)
__TORCHLINT_SYNTH_SAME(float) __TORCHLINT_SYNTH_SAME(double) __TORCHLINT_SYNTH_SAME(long double)
#undef __TORCHLINT_SYNTH_SAME
template <class T> using __ret = typename __ret_s<T>::type;
template <class T> struct __rr { using type = T; };
template <class T> struct __rr<T &> { using type = T; };
template <class T> struct __rr<T &&> { using type = T; };
template <class T> struct __rc { using type = T; };
template <class T> struct __rc<const T> { using type = T; };
template <class T> struct __rc<volatile T> { using type = T; };
template <class T> struct __rc<const volatile T> { using type = T; };
template <class T> using __plain = typename __rc<typename __rr<T>::type>::type;
template <bool B, class T = int> struct __en {};
template <class T> struct __en<true, T> { using type = T; };
template <class T> struct __lref { using type = T &; };
template <> struct __lref<void> { using type = void; };
template <class T> struct __is { static constexpr bool value = false; };
template <> struct __is<__value> { static constexpr bool value = true; };
template <class T> struct __is<__typed<T>> { static constexpr bool value = true; };
template <class T> constexpr bool __is_v = __is<__plain<T>>::value;
template <class T> T __dv();
template <class... T> struct __vd { using type = void; };
template <class T, class A, class = void> struct __r_idx { using type = __value; };
template <class T, class A> struct __r_idx<T, A, typename __vd<decltype(__dv<T &>()[__dv<A &&>()])>::type> {
  using type = decltype(__dv<T &>()[__dv<A &&>()]);
};
template <class T, class = void> struct __r_begin { using type = __value *; };
template <class T> struct __r_begin<T, typename __vd<decltype(__dv<T &>().begin())>::type> {
  using type = decltype(__dv<T &>().begin());
};
template <class T, class = void> struct __r_end { using type = __value *; };
template <class T> struct __r_end<T, typename __vd<decltype(__dv<T &>().end())>::type> {
  using type = decltype(__dv<T &>().end());
};
template <class T> struct __isv { static constexpr bool value = false; };
template <> struct __isv<__value> { static constexpr bool value = true; };
struct __value {
  __value();
  __value(const __value &);
  template <class T, typename __en<!__isv<__plain<T>>::value, int>::type = 0> __value(T &&);
  template <class A, class B, class... C> __value(A &&, B &&, C &&...);
  template <class T> operator T &() const;
  __value &operator=(const __value &);
  template <class T> __value &operator=(T &&);
)" + ValueOnly + Common + MemberDecls +
                  R"(};
template <class T> struct __typed {
  __typed();
  __typed(const __typed &);
  operator typename __lref<T>::type() const;
  __typed &operator=(const __typed &);
  template <class __U> __typed &operator=(__U &&);
)" + TypedOnly + Common + MemberDecls +
                  R"(};
// A binary operator with a synthesised operand. With __typed<T> operands only (`"data/" +
// vm["dir"].as<std::string>()`), the type T's own operator gives: std::string here, so that
// `path = "data/" + ...` is not an ambiguous assignment of a __value; with a __value operand, R.
template <class T> struct __untyped { static constexpr bool typed = false; };
template <class T> struct __untyped<__typed<T>> {
  static constexpr bool typed = true;
  using type = typename __lref<T>::type;
};
template <class L, bool = __untyped<__plain<L>>::typed> struct __opnd { using type = L &&; };
template <class L> struct __opnd<L, true> { using type = typename __untyped<__plain<L>>::type; };
template <class L, class Rt> constexpr bool __no_value = !__isv<__plain<L>>::value && !__isv<__plain<Rt>>::value;
#define __TORCHLINT_SYNTH_OP(NAME, OP, R)                                                            \
  template <class L, class Rt, class = void> struct __r_##NAME { using type = R; };                    \
  template <class L, class Rt>                                                                         \
  struct __r_##NAME<L, Rt,                                                                             \
                    typename __vd<typename __en<__no_value<L, Rt>>::type,                              \
                                  decltype(__dv<typename __opnd<L>::type>() OP                         \
                                           __dv<typename __opnd<Rt>::type>())>::type> {                \
    using type = decltype(__dv<typename __opnd<L>::type>() OP __dv<typename __opnd<Rt>::type>());     \
  };                                                                                                   \
  template <class L, class Rt, typename __en<__is_v<L> || __is_v<Rt>, int>::type = 0>                  \
  typename __r_##NAME<L, Rt>::type operator OP(L &&, Rt &&);
__TORCHLINT_SYNTH_OP(add, +, __value) __TORCHLINT_SYNTH_OP(sub, -, __value) __TORCHLINT_SYNTH_OP(mul, *, __value)
__TORCHLINT_SYNTH_OP(div, /, __value) __TORCHLINT_SYNTH_OP(mod, %, __value) __TORCHLINT_SYNTH_OP(bxor, ^, __value)
__TORCHLINT_SYNTH_OP(band, &, __value) __TORCHLINT_SYNTH_OP(bor, |, __value) __TORCHLINT_SYNTH_OP(shl, <<, __value)
__TORCHLINT_SYNTH_OP(shr, >>, __value) __TORCHLINT_SYNTH_OP(add_a, +=, __value) __TORCHLINT_SYNTH_OP(sub_a, -=, __value)
__TORCHLINT_SYNTH_OP(mul_a, *=, __value) __TORCHLINT_SYNTH_OP(div_a, /=, __value) __TORCHLINT_SYNTH_OP(mod_a, %=, __value)
__TORCHLINT_SYNTH_OP(xor_a, ^=, __value) __TORCHLINT_SYNTH_OP(and_a, &=, __value) __TORCHLINT_SYNTH_OP(or_a, |=, __value)
__TORCHLINT_SYNTH_OP(shl_a, <<=, __value) __TORCHLINT_SYNTH_OP(shr_a, >>=, __value) __TORCHLINT_SYNTH_OP(lt, <, bool)
__TORCHLINT_SYNTH_OP(gt, >, bool) __TORCHLINT_SYNTH_OP(le, <=, bool) __TORCHLINT_SYNTH_OP(ge, >=, bool)
__TORCHLINT_SYNTH_OP(eq, ==, bool) __TORCHLINT_SYNTH_OP(ne, !=, bool)
#undef __TORCHLINT_SYNTH_OP
#ifdef __TORCHLINT_SYNTH_IOS
// `std::cout << value << std::endl`: std::endl is an overload set, deduced only against this.
template <class L, typename __en<__is_v<L>, int>::type = 0> __value operator<<(L &&, std::ostream &(*)(std::ostream &));
#endif
} // namespace __torchlint_synth
)" + Decls + R"(} // extern "C++"
#endif
)";
  return H;
}

bool synthesisMayServe(llvm::StringRef H) {
  if (H.empty() || llvm::sys::path::is_absolute(H) || H.contains(".."))
    return false;
  return H != SynthHeaderName;
}

bool writeSynthesisDirectory(const std::string &Dir, const DeclarationSynthesis &S,
                             const std::vector<std::string> &Missing) {
  auto Write = [](const llvm::Twine &Path, llvm::StringRef Text) {
    llvm::SmallString<256> P;
    Path.toVector(P);
    if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)))
      return false;
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    if (EC)
      return false;
    OS << Text;
    return !OS.has_error();
  };
  if (!Write(Dir + "/" + SynthHeaderName, S.header()))
    return false;
  // Each served header includes this folder's synthesised header by its path: a folder that the
  // flags search first and that holds another __torchlint_synthesized.h (another run's temporary
  // folder below a project root of /tmp) must not stand for it.
  for (const std::string &H : Missing)
    if (synthesisMayServe(H) && !Write(Dir + "/" + H, std::string("#pragma clang system_header\n#include \"") + Dir +
                                                          "/" + SynthHeaderName + "\"\n"))
      return false;
  return true;
}

} // namespace torchlint
