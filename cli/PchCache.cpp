#include "cli/PchCache.h"
#include "utils/AtomicFile.h"
#include "utils/JsonFile.h"
#include "core/Recovery.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclBase.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace clang;
using namespace llvm;

namespace torchlint {

namespace {

/// One directive of a file's prefix, as leadingSystemIncludes and the include chain read them.
struct Directive {
  enum Kind { Angled, Quoted, PragmaOnce, Ifndef, Define, Undef, Endif, Other, End } K = Other;
  std::string Arg; // the header name (includes) or the macro (#ifndef, #define, #undef)
};

bool identStart(char C) { return isAlpha(C) || C == '_'; }

/// Reads the directives at the start of a file, skipping comments and blank lines; anything else
/// (code, a directive it does not know, a line it cannot read exactly) is Other.
class PrefixLexer {
public:
  explicit PrefixLexer(StringRef S) : S(S), I(S.starts_with("\xEF\xBB\xBF") ? 3 : 0) {}

  Directive next() {
    size_t N = S.size();
    auto LineEnd = [&](size_t From) {
      size_t E = S.find('\n', From);
      return E == StringRef::npos ? N : E;
    };
    AtCode = false;
    if (!skipBlank())
      return {};
    if (I < N) {
      char C = S[I];
      if (C != '#') {
        AtCode = true; // I stays at the code's start (forwardDeclarations)
        return {};
      }
      size_t E = LineEnd(I);
      StringRef Line = S.slice(I, E).rtrim("\r");
      I = E;
      // A comment that ends the line (`#endif /* MODEL_H */`) goes; one that goes on does not.
      if (size_t C0 = Line.find("/*"); C0 != StringRef::npos) {
        size_t C1 = Line.find("*/", C0 + 2);
        if (C1 == StringRef::npos || !Line.substr(C1 + 2).trim(" \t").empty())
          return {};
        Line = Line.take_front(C0);
      }
      if (Line.ends_with("\\") || Line.contains("/*") || Line.contains("??"))
        return {};
      return directive(Line.drop_front(1).ltrim(" \t"));
    }
    return {Directive::End, ""};
  }

  /// After next() returned Other for code (not for a directive it does not know): reads forward
  /// declarations of classes (`class X;`, `struct X;`, `union X;`), also inside namespaces
  /// (`namespace a::b { class X; }`), up to the next directive at namespace scope or the end; the
  /// class names go to Names. False when the code is anything else (nothing is then promised
  /// about where the lexer stands).
  bool forwardDeclarations(std::vector<std::string> &Names) {
    if (!AtCode)
      return false;
    AtCode = false;
    size_t N = S.size();
    int Depth = 0;
    auto Word = [&] {
      if (!skipBlank())
        return StringRef();
      StringRef R = S.substr(I);
      StringRef W = ident(R);
      I += W.size();
      return W;
    };
    auto Punct = [&](char P) {
      if (!skipBlank() || I >= N || S[I] != P)
        return false;
      ++I;
      return true;
    };
    for (;;) {
      if (!skipBlank())
        return false;
      if (I >= N || S[I] == '#')
        return Depth == 0;
      if (S[I] == '}') {
        if (Depth == 0)
          return false;
        --Depth;
        ++I;
        continue;
      }
      StringRef W = Word();
      if (W == "class" || W == "struct" || W == "union") {
        StringRef Name = Word();
        if (Name.empty() || isDigit(Name[0]) || !Punct(';'))
          return false;
        Names.push_back(Name.str());
      } else if (W == "namespace") {
        do {
          StringRef Name = Word();
          if (Name.empty() || isDigit(Name[0]) || Name == "inline")
            return false;
        } while (Punct(':') && Punct(':'));
        if (!Punct('{'))
          return false;
        ++Depth;
      } else {
        return false;
      }
    }
  }

private:
  /// Skips blanks and comments; false at a line comment continued onto the next line or a block
  /// comment that does not end (what the lexer cannot read exactly).
  bool skipBlank() {
    size_t N = S.size();
    while (I < N) {
      StringRef Rest = S.substr(I);
      if (isSpace(S[I])) {
        ++I;
      } else if (Rest.starts_with("//")) {
        size_t E = S.find('\n', I);
        E = E == StringRef::npos ? N : E;
        if (S.slice(I, E).rtrim("\r").ends_with("\\")) // continued onto the next line
          return false;
        I = E;
      } else if (Rest.starts_with("/*")) {
        size_t E = S.find("*/", I + 2);
        if (E == StringRef::npos)
          return false;
        I = E + 2;
      } else {
        return true;
      }
    }
    return true;
  }

  /// Nothing, or a line comment.
  static bool emptyRest(StringRef R) {
    R = R.trim(" \t");
    return R.empty() || R.starts_with("//");
  }
  static StringRef ident(StringRef &R) {
    size_t L = 0;
    while (L < R.size() && (identStart(R[L]) || (L > 0 && isDigit(R[L]))))
      ++L;
    StringRef Id = R.take_front(L);
    R = R.drop_front(L);
    return Id;
  }
  static Directive directive(StringRef R) {
    StringRef Word = ident(R);
    bool Sep = !R.empty() && (R[0] == ' ' || R[0] == '\t');
    if (Word == "include") {
      if (R.empty() || (!Sep && R[0] != '<' && R[0] != '"')) // #include_next, #includefoo
        return {};
      R = R.ltrim(" \t");
      char Close = R.consume_front("<") ? '>' : R.consume_front("\"") ? '"' : 0;
      size_t G = Close ? R.find(Close) : StringRef::npos;
      if (G == StringRef::npos || G == 0 || !emptyRest(R.substr(G + 1)))
        return {};
      return {Close == '>' ? Directive::Angled : Directive::Quoted, R.substr(0, G).str()};
    }
    if (Word == "pragma" && Sep) {
      R = R.ltrim(" \t");
      if (ident(R) == "once" && emptyRest(R))
        return {Directive::PragmaOnce, ""};
      return {};
    }
    if ((Word == "ifndef" || Word == "define") && Sep) {
      R = R.ltrim(" \t");
      StringRef M = ident(R);
      if (M.empty() || !identStart(M[0]))
        return {};
      // #define G, #define G 1: a guard; #define G(x) is not.
      if (Word == "ifndef" ? !emptyRest(R) : (!R.empty() && R[0] != ' ' && R[0] != '\t'))
        return {};
      return {Word == "ifndef" ? Directive::Ifndef : Directive::Define, M.str()};
    }
    if (Word == "undef" && Sep) {
      R = R.ltrim(" \t");
      StringRef M = ident(R);
      if (M.empty() || !identStart(M[0]) || !emptyRest(R))
        return {};
      return {Directive::Undef, M.str()};
    }
    if (Word == "endif" && (R.empty() || Sep || R.starts_with("//")) && emptyRest(R))
      return {Directive::Endif, ""};
    return {};
  }

  StringRef S;
  size_t I;
  bool AtCode = false; // next() stopped at code, I at its start
};

} // namespace

std::string cachePath(StringRef Path, FileManager &Files) {
  SmallString<256> P(Path);
  Files.makeAbsolutePath(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/false);
  if (std::any_of(sys::path::begin(P), sys::path::end(P), [](StringRef C) { return C == ".."; })) {
    SmallString<256> Real;
    if (!Files.getVirtualFileSystem().getRealPath(P, Real))
      return std::string(Real);
    sys::path::remove_dots(P, /*remove_dot_dot=*/true); // a path that does not exist (yet)
  }
  return std::string(P);
}

std::string resolveCompiler(StringRef Argv0) {
  if (Argv0.empty() || Argv0.starts_with("-") || Argv0.contains('/') || Argv0.contains('\\'))
    return Argv0.str();
  if (ErrorOr<std::string> Found = sys::findProgramByName(Argv0))
    return *Found;
  return Argv0.str();
}

std::vector<std::string> leadingSystemIncludes(StringRef S) {
  std::vector<std::string> Out;
  PrefixLexer L(S);
  for (Directive D = L.next(); D.K == Directive::Angled; D = L.next())
    Out.push_back(D.Arg);
  return Out;
}

namespace {

struct Dep {
  std::string Path;
  int64_t Size = 0, MTime = 0;
};

/// A directory of the header search, in search order: its absolute path and its kind (q: quoted
/// only, u: user, s: system, c: extern "C" system; the kind decides system-header semantics).
struct SearchDir {
  std::string Path;
  std::string Kind;
  bool operator==(const SearchDir &O) const { return Path == O.Path && Kind == O.Kind; }
};

struct Manifest {
  std::string Status; // ok, none, truncate
  unsigned Keep = 0;
  std::string Why;
  std::vector<Dep> Deps;
  /// The header search the PCH was built under, and every name the block's headers included or
  /// tested with __has_include, with the directories (indices into Dirs) that hold it: what the
  /// block resolved to. A TU whose search directories hold each name in the same places, in the
  /// same order, resolves the block to the same files (sharedResolution).
  std::vector<SearchDir> Dirs;
  std::vector<std::pair<std::string, std::vector<unsigned>>> Names;
};

bool readManifest(StringRef Path, Manifest &M) {
  std::optional<json::Value> V = readJsonFile(Path);
  if (!V)
    return false;
  const json::Object *O = V->getAsObject();
  if (!O)
    return false;
  if (auto S = O->getString("status"))
    M.Status = S->str();
  if (auto K = O->getInteger("keep"))
    M.Keep = static_cast<unsigned>(*K);
  if (auto W = O->getString("why"))
    M.Why = W->str();
  if (const json::Array *A = O->getArray("dirs"))
    for (const json::Value &D : *A)
      if (const json::Array *T = D.getAsArray(); T && T->size() == 2)
        M.Dirs.push_back({(*T)[0].getAsString().value_or("").str(), (*T)[1].getAsString().value_or("").str()});
  if (const json::Object *N = O->getObject("names"))
    for (const auto &KV : *N) {
      std::vector<unsigned> In;
      if (const json::Array *A = KV.second.getAsArray())
        for (const json::Value &I : *A)
          In.push_back(static_cast<unsigned>(I.getAsInteger().value_or(0)));
      M.Names.emplace_back(KV.first.str(), std::move(In));
    }
  if (const json::Array *A = O->getArray("deps"))
    for (const json::Value &D : *A)
      if (const json::Array *T = D.getAsArray(); T && T->size() == 3) {
        Dep X;
        if (auto P = (*T)[0].getAsString())
          X.Path = P->str();
        X.Size = (*T)[1].getAsInteger().value_or(-1);
        X.MTime = (*T)[2].getAsInteger().value_or(-1);
        M.Deps.push_back(std::move(X));
      }
  return !M.Status.empty();
}

void writeManifest(StringRef Path, const Manifest &M) {
  json::Array Deps;
  for (const Dep &D : M.Deps)
    Deps.push_back(json::Array{D.Path, D.Size, D.MTime});
  json::Array Dirs;
  for (const SearchDir &D : M.Dirs)
    Dirs.push_back(json::Array{D.Path, D.Kind});
  json::Object Names;
  for (const auto &[Name, In] : M.Names)
    Names[Name] = json::Array(In);
  json::Object O{{"status", M.Status},      {"keep", M.Keep},          {"why", M.Why},
                 {"deps", std::move(Deps)}, {"dirs", std::move(Dirs)}, {"names", std::move(Names)}};
  std::string S;
  raw_string_ostream OS(S);
  OS << json::Value(std::move(O));
  writeFileAtomically(Path, OS.str());
}

/// Every file the PCH was built from still has the size and modification time it had (what clang
/// itself checks when it loads a PCH).
bool depsUnchanged(const Manifest &M) {
  for (const Dep &D : M.Deps) {
    sys::fs::file_status St;
    if (sys::fs::status(D.Path, St) || static_cast<int64_t>(St.getSize()) != D.Size ||
        static_cast<int64_t>(sys::toTimeT(St.getLastModificationTime())) != D.MTime)
      return false;
  }
  return true;
}

/// Inv's header search directories, in search order (what clang itself builds from its options),
/// or nullopt when one is not a plain directory (a header map, a framework).
std::optional<std::vector<SearchDir>> searchDirs(const CompilerInvocation &Inv, FileManager &Files) {
  DiagnosticsEngine Diags(new DiagnosticIDs(), new DiagnosticOptions(), new IgnoringDiagConsumer());
  SourceManager SM(Diags, Files);
  auto HSOpts = std::make_shared<HeaderSearchOptions>(Inv.getHeaderSearchOpts());
  HeaderSearch HS(HSOpts, SM, Diags, Inv.getLangOpts(), nullptr);
  ApplyHeaderSearchOptions(HS, *HSOpts, Inv.getLangOpts(), llvm::Triple(Inv.getTargetOpts().Triple));
  const HeaderSearch &C = HS;
  std::vector<SearchDir> Out;
  bool Quoted = true;
  for (auto It = C.search_dir_begin(); It != C.search_dir_end(); ++It) {
    if (It == C.angled_dir_begin())
      Quoted = false;
    const DirectoryLookup &DL = *It;
    if (!DL.isNormalDir())
      return std::nullopt;
    std::string P = cachePath(DL.getName(), Files);
    SrcMgr::CharacteristicKind K = DL.getDirCharacteristic();
    Out.push_back({P, Quoted ? "q" : K == SrcMgr::C_User ? "u" : K == SrcMgr::C_System ? "s" : "c"});
  }
  return Out;
}

bool holds(const SearchDir &D, StringRef Name) {
  SmallString<256> P(D.Path);
  sys::path::append(P, Name);
  return sys::fs::exists(P);
}

/// A header name of libtorch's (`torch/torch.h`, `ATen/ATen.h`).
bool libtorchName(const std::string &H) {
  StringRef N(H);
  return N.starts_with("torch/") || N.starts_with("ATen/") || N.starts_with("c10/") || N.starts_with("caffe2/");
}

/// The first of Guards that the headers of the PCH in Dir looked at (its "idents": every
/// identifier of their preprocessor's table, sorted, one a line), or "" when none is. A guard
/// macro the original TU defines before those headers could change how they parse (one that
/// shadows a library's own guard, say) only if they look at its name.
///
/// A macro the original TU #undefs before those headers (`#undef slots`) is undefined when they
/// are read in both orders unless the command line defines it, and stays undefined after them
/// unless they define it: Undefs clash with the macros defined at the end of the PCH ("macros",
/// which holds the command line's too), or with its idents when the PCH has no "macros" file.
std::optional<std::string> guardClash(StringRef Dir, ArrayRef<std::string> Guards, ArrayRef<std::string> Undefs = {}) {
  if (!Undefs.empty()) {
    SmallString<256> M(Dir);
    sys::path::append(M, "macros");
    auto Buf = MemoryBuffer::getFile(M, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf)
      return guardClash(Dir, [&] {
        std::vector<std::string> All(Guards.begin(), Guards.end());
        All.insert(All.end(), Undefs.begin(), Undefs.end());
        return All;
      }());
    SmallVector<StringRef, 0> Names;
    (*Buf)->getBuffer().split(Names, '\n', -1, /*KeepEmpty=*/false);
    for (const std::string &U : Undefs)
      if (std::binary_search(Names.begin(), Names.end(), StringRef(U)))
        return U;
  }
  if (Guards.empty())
    return std::string();
  SmallString<256> P(Dir);
  sys::path::append(P, "idents");
  auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  SmallVector<StringRef, 0> Names;
  (*Buf)->getBuffer().split(Names, '\n', -1, /*KeepEmpty=*/false);
  for (const std::string &G : Guards)
    if (std::binary_search(Names.begin(), Names.end(), StringRef(G)))
      return G;
  return std::string();
}

/// Whether `#include <Name>` finds a header of the project's (in a user folder, -I, before any
/// other folder that holds it, and not libtorch's).
bool projectHeader(const std::vector<SearchDir> &Dirs, StringRef Name, FileManager &Files) {
  if (sys::path::is_absolute(Name))
    return false;
  for (const SearchDir &D : Dirs) {
    if (D.Kind == "q" || !holds(D, Name))
      continue;
    SmallString<256> P(D.Path);
    sys::path::append(P, Name);
    return D.Kind == "u" && !isLibtorchFile(cachePath(P, Files));
  }
  return false;
}

/// The include block a TU's preprocessing starts with when its first includes are the project's
/// own headers (clangd's preamble is "whatever the file includes first"): the system headers the
/// preprocessor meets, in order, walking the main file and the project headers it includes before
/// anything else happens (no code but forward declarations of classes, no conditional but the
/// include guards, no macro but the guards, object-like #defines and #undefs, each checked against
/// the PCH's headers: guardClash). Loading the PCH of that block in front of the TU is then exact
/// but for the guard macros and forward-declared classes, which the original declares before the
/// block's headers are read: Guards lists them, and the PCH is used only when none is an
/// identifier its headers ever looked at (PchCache.cpp, "idents").
/// Quoted includes are resolved as clang does outside MSVC mode: the includer's directory, then the
/// search directories in order. A quoted include found in a system directory or in libtorch is a
/// member of the block (the search from there on is the angled one); a project header is walked,
/// also when it is reached with <...> through a user directory (-I).
struct IncludeChain {
  IncludeChain(const std::vector<SearchDir> &Dirs, vfs::FileSystem &FS) : Dirs(Dirs), FS(FS) {}

  std::vector<std::string> Block;   // as written, in the order met (each once)
  /// Include-guard and object-like macros defined on the way, and the classes forward-declared
  /// on the way: names the block's headers must never look at.
  std::vector<std::string> Guards;
  std::vector<std::string> Undefs;  // macros #undef'd on the way (guardClash)
  /// For each of Guards and Undefs (pushed with it, same index): how many headers of Block came
  /// before it. Only those before a precompiled header matter; a clash ends the precompiled part
  /// there (preparePch).
  std::vector<size_t> GuardAt, UndefAt;
  std::vector<std::string> Headers; // the project headers walked (absolute)
  std::string Stop;                 // what ended the walk (for the accel log)

  /// Walks File (absolute) from its start; true when it reached its end (so the walk may go on
  /// in its includer).
  bool walk(StringRef Path, bool IsMain, int Depth = 0) {
    if (Depth > 32)
      return stop("includes nested too deeply");
    auto Buf = FS.getBufferForFile(Path);
    if (!Buf)
      return stop("cannot read " + Path.str());
    PrefixLexer L((*Buf)->getBuffer());
    Directive D = L.next();
    std::string Guard;
    if (!IsMain) {
      if (!Walked.insert(Path.str()).second) // included again: skipped if it is guarded
        return Guarded.count(Path.str()) ? true : stop(Path.str() + " is included twice without a guard");
      Headers.push_back(Path.str());
      if (D.K == Directive::PragmaOnce) {
        Guarded.insert(Path.str());
        D = L.next();
      } else if (D.K == Directive::Ifndef) {
        Directive Def = L.next();
        if (Def.K != Directive::Define || Def.Arg != D.Arg)
          return stop(Path.str() + " starts with a conditional that is not an include guard");
        Guard = D.Arg;
        Guards.push_back(Guard);
        GuardAt.push_back(Block.size());
        Guarded.insert(Path.str());
        D = L.next();
      }
    }
    for (;; D = L.next()) {
      switch (D.K) {
      case Directive::End:
        return Guard.empty() ? true : stop(Path.str() + ": unterminated include guard");
      case Directive::Endif:
        if (Guard.empty() || L.next().K != Directive::End)
          return stop(Path.str() + ": #endif before its end");
        return true;
      case Directive::PragmaOnce:
        if (IsMain)
          return stop("#pragma once in the main file");
        Guarded.insert(Path.str());
        continue;
      case Directive::Angled:
        if (!angled(D.Arg, Depth))
          return false;
        continue;
      case Directive::Quoted:
        if (!quoted(Path, D.Arg, Depth))
          return false;
        continue;
      case Directive::Define:
        // An object-like macro of the project's (`#define NLOHMANN_JSON_VERSION_MAJOR 3`, a
        // configuration constant) before the block's next headers: with the PCH in front it is
        // defined after them instead of before, which changes nothing if none of them ever looks
        // at the name: checked as the guards are (guardClash, "idents").
        Guards.push_back(D.Arg);
        GuardAt.push_back(Block.size());
        continue;
      case Directive::Undef:
        // `#undef slots` before libtorch (a Qt project's habit): with the PCH in front it comes
        // after the block's headers instead of before them, which changes nothing unless the
        // command line or those headers define the name (guardClash).
        Undefs.push_back(D.Arg);
        UndefAt.push_back(Block.size());
        continue;
      default:
        // Forward declarations of the project's classes before libtorch (`class Trainer;`, also
        // in namespaces: a header-first project's habit): with the PCH in front they come after
        // the block's headers instead of before, which changes nothing if none of those headers
        // ever looks at the names: checked as the guards are (guardClash, "idents"). A namespace
        // opened first here and again by the headers is the same namespace in either order.
        if (std::vector<std::string> Names; L.forwardDeclarations(Names)) {
          for (std::string &Name : Names) {
            Guards.push_back(std::move(Name));
            GuardAt.push_back(Block.size());
          }
          continue;
        }
        return stop(IsMain ? "a macro, a conditional or code before the first include"
                           : "a macro, a conditional or code in " + Path.str());
      }
    }
  }

private:
  bool stop(std::string Why) {
    if (Stop.empty())
      Stop = std::move(Why);
    return false;
  }
  void add(const std::string &Name) {
    if (InBlock.insert(Name).second)
      Block.push_back(Name);
  }
  bool isFile(StringRef P) {
    auto St = FS.status(P);
    return St && St->isRegularFile();
  }
  /// As cachePath: "." removed, the real path where there is a "..".
  void normalise(SmallString<256> &P) {
    sys::path::remove_dots(P, /*remove_dot_dot=*/false);
    SmallString<256> Real;
    if (std::any_of(sys::path::begin(P), sys::path::end(P), [](StringRef C) { return C == ".."; }) &&
        !FS.getRealPath(P, Real))
      P = Real;
  }
  /// `#include <Name>`: a member of the block, or the project's own header found through -I
  /// (`<proj/model.h>`), walked.
  bool angled(StringRef Name, int Depth) {
    if (sys::path::is_absolute(Name))
      return stop("#include <" + Name.str() + "> names an absolute path");
    for (const SearchDir &D : Dirs) {
      if (D.Kind == "q")
        continue;
      SmallString<256> P(D.Path);
      sys::path::append(P, Name);
      normalise(P);
      if (!isFile(P))
        continue;
      if (D.Kind == "u" && !isLibtorchFile(P))
        return walk(P, false, Depth + 1);
      break;
    }
    add(Name.str()); // a system header, libtorch, or missing (the PCH's build decides)
    return true;
  }
  bool quoted(StringRef Includer, StringRef Name, int Depth) {
    if (sys::path::is_absolute(Name))
      return stop("#include \"" + Name.str() + "\" names an absolute path");
    SmallString<256> P(sys::path::parent_path(Includer));
    sys::path::append(P, Name);
    normalise(P);
    if (isFile(P)) {
      if (isLibtorchFile(P))
        return stop("#include \"" + Name.str() + "\" reaches libtorch from its includer's folder");
      return walk(P, false, Depth + 1);
    }
    for (const SearchDir &D : Dirs) {
      P = D.Path;
      sys::path::append(P, Name);
      normalise(P);
      if (!isFile(P))
        continue;
      if (D.Kind == "s" || D.Kind == "c" || isLibtorchFile(P)) {
        if (D.Kind == "q") // <Name> would not search this directory
          return stop("#include \"" + Name.str() + "\" found in an -iquote folder");
        add(Name.str());
        return true;
      }
      return walk(P, false, Depth + 1);
    }
    return stop("#include \"" + Name.str() + "\" not found");
  }

  const std::vector<SearchDir> &Dirs;
  vfs::FileSystem &FS;
  std::set<std::string> InBlock, Walked, Guarded;
};

/// Whether a TU searching Dirs resolves every name of M's block as M's build did: each name is
/// held by the same directories, of the same kinds, in the same order (whatever the search starts
/// from: an #include, an #include_next, a __has_include). Directories common to both are known
/// from the manifest; only the others are looked at.
bool sharedResolution(const Manifest &M, const std::vector<SearchDir> &Dirs) {
  if (M.Dirs == Dirs)
    return true;
  if (M.Dirs.empty() && M.Names.empty())
    return false; // written before the names were recorded
  std::vector<int> Old(Dirs.size(), -1);
  for (size_t J = 0; J < Dirs.size(); ++J)
    for (size_t I = 0; I < M.Dirs.size(); ++I)
      if (M.Dirs[I] == Dirs[J])
        Old[J] = static_cast<int>(I);
  for (const auto &[Name, In] : M.Names) {
    std::vector<const SearchDir *> Was, Is;
    for (unsigned I : In)
      if (I < M.Dirs.size())
        Was.push_back(&M.Dirs[I]);
    for (size_t J = 0; J < Dirs.size(); ++J) {
      bool Holds = Old[J] >= 0 ? std::count(In.begin(), In.end(), unsigned(Old[J])) > 0 : holds(Dirs[J], Name);
      if (Holds)
        Is.push_back(&Dirs[J]);
    }
    if (Was.size() != Is.size() || !std::equal(Was.begin(), Was.end(), Is.begin(),
                                               [](const SearchDir *A, const SearchDir *B) { return *A == *B; }))
      return false;
  }
  return true;
}

/// Watches the block's includes while the PCH is built: which file each one entered, and whether
/// it (or anything it included) is a non-system file.
struct BlockWatcher : PPCallbacks {
  explicit BlockWatcher(SourceManager &SM) : SM(SM) {}
  void HasInclude(SourceLocation, StringRef FileName, bool, OptionalFileEntryRef, SrcMgr::CharacteristicKind) override {
    Names.insert(FileName.str());
  }
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind FileType) override {
    Names.insert(FileName.str());
    if (!SM.isWrittenInMainFile(HashLoc))
      return;
    Direct.push_back(File);
    Bad.push_back(!File || userFile(File->getName(), FileType));
    Current = static_cast<int>(Direct.size()) - 1;
  }
  bool FileNotFound(StringRef) override {
    if (FirstMissing < 0) // a header missing in (or under) direct include Current
      FirstMissing = Current < 0 ? 0 : Current;
    return false;
  }
  /// The user's own file (libtorch's headers are not, even when included with -I).
  static bool userFile(StringRef Name, SrcMgr::CharacteristicKind FileType) {
    return FileType == SrcMgr::C_User && !isLibtorchFile(Name);
  }
  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind FileType, FileID) override {
    if (Reason != EnterFile || Current < 0)
      return;
    FileID F = SM.getFileID(Loc);
    if (F == SM.getMainFileID() || !SM.getFileEntryRefForID(F))
      return;
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F); FE && userFile(FE->getName(), FileType))
      Bad[Current] = true;
  }
  SourceManager &SM;
  std::vector<OptionalFileEntryRef> Direct;
  std::vector<bool> Bad;
  int Current = -1;
  /// The direct include under which a header was missing, or -1.
  int FirstMissing = -1;
  /// Every name included or tested with __has_include (relative ones: absolute names do not
  /// depend on the search).
  std::set<std::string> Names;
};

/// Runs before the PCH is written: forgets the block's vtable uses. A PCH carries them (libtorch's
/// module templates, Cloneable<...>, c10's type templates) and every TU that loads it then defines
/// those vtables at its end, instantiating every virtual member of those class templates again:
/// about 3.2 of the 3.6 s that an empty TU took with libtorch's PCH. torchlint never judges those
/// bodies (libtorch's own code); a vtable that the TU itself uses is still defined there.
class DropVTableUses : public SemaConsumer {
public:
  void InitializeSema(Sema &S) override { Sem = &S; }
  void ForgetSema() override { Sem = nullptr; }
  void HandleTranslationUnit(ASTContext &) override {
    if (!Sem)
      return;
    Sem->VTableUses.clear();
    Sem->VTablesUsed.clear();
  }

private:
  Sema *Sem = nullptr;
};

class BlockPchAction : public GeneratePCHAction {
public:
  size_t Count = 0, Good = 0;
  /// No direct include of the block is missing or enters a file of the user's (so the block's
  /// only departure from Good == Count can be a header without an include guard).
  bool UserFree = false;
  int FirstMissing = -1;
  std::set<std::string> Names;
  std::vector<Dep> Deps;
  std::string Block;
  /// Every identifier the block's preprocessor looked at, sorted, one a line (guardClash).
  std::string Idents;
  /// Every macro defined at the end of the block, sorted, one a line (guardClash).
  std::string Macros;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Writer = GeneratePCHAction::CreateASTConsumer(CI, InFile);
    if (!Writer)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<DropVTableUses>());
    Consumers.push_back(std::move(Writer));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    auto W = std::make_unique<BlockWatcher>(CI.getSourceManager());
    Watcher = W.get();
    CI.getPreprocessor().addPPCallbacks(std::move(W));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }
  void EndSourceFileAction() override {
    CompilerInstance &CI = getCompilerInstance();
    HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    Count = Watcher->Direct.size();
    FirstMissing = Watcher->FirstMissing;
    for (const std::string &N : Watcher->Names)
      if (!sys::path::is_absolute(N))
        Names.insert(N);
    Good = 0;
    UserFree = std::none_of(Watcher->Bad.begin(), Watcher->Bad.end(), [](bool B) { return B; });
    for (size_t I = 0; I < Count; ++I) {
      if (Watcher->Bad[I] || !HS.isFileMultipleIncludeGuarded(*Watcher->Direct[I]))
        break;
      ++Good;
    }
    SourceManager &SM = CI.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      FileEntryRef FE = It->first;
      if (FE.getName() == Block)
        continue;
      Deps.push_back(
          {cachePath(FE.getName(), CI.getFileManager()), static_cast<int64_t>(FE.getSize()), static_cast<int64_t>(FE.getModificationTime())});
    }
    std::vector<StringRef> Ids;
    for (const auto &E : CI.getPreprocessor().getIdentifierTable())
      Ids.push_back(E.getKey());
    llvm::sort(Ids);
    for (StringRef Id : Ids)
      (Idents += Id) += '\n';
    Preprocessor &PP = CI.getPreprocessor();
    std::vector<StringRef> Defined;
    for (const auto &KV : PP.macros())
      if (PP.getMacroInfo(KV.first))
        Defined.push_back(KV.first->getName());
    llvm::sort(Defined);
    for (StringRef Id : Defined)
      (Macros += Id) += '\n';
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  BlockWatcher *Watcher = nullptr;
};

/// Builds the PCH of PI's one input (Act.Block) into Out, with what every PCH of torchlint's has
/// (the automatic one and `torchlint pch`'s): the block's pending templates instantiated once, into
/// the PCH, instead of in every TU that loads it (what CMake's precompile_headers does for clang; a
/// benign language option, so TUs compiled without it still load the PCH: about 2.6 s to 1.2 s per
/// libtorch TU), and no vtable uses (BlockPchAction). Diags reports; FS, when given, is the file
/// system to read. True when written without errors.
bool buildBlockPch(std::shared_ptr<CompilerInvocation> PI, const std::string &Out, DiagnosticConsumer *Diags,
                   std::shared_ptr<PCHContainerOperations> Ops, IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                   BlockPchAction &Act) {
  FrontendOptions &PFO = PI->getFrontendOpts();
  PFO.ProgramAction = frontend::GeneratePCH;
  PFO.OutputFile = Out;
  PFO.DisableFree = false;
  PI->getLangOpts().PCHInstantiateTemplates = true;
  PI->getDependencyOutputOpts() = DependencyOutputOptions();
  CompilerInstance Clang(std::move(Ops));
  Clang.setInvocation(std::move(PI));
  Clang.createDiagnostics(Diags, /*ShouldOwnClient=*/true);
  if (FS)
    Clang.createFileManager(std::move(FS));
  return Clang.ExecuteAction(Act) && !Clang.getDiagnostics().hasErrorOccurred();
}

/// Watches a second reading of the block with its PCH loaded: whether it declares anything, and
/// whether every macro it defines or #undefs ends as it was before the reading.
class RereadAction : public SyntaxOnlyAction {
public:
  unsigned Decls = 0;
  bool MacrosRestored = true;

protected:
  struct Counter : ASTConsumer {
    explicit Counter(unsigned &Decls) : Decls(Decls) {}
    bool HandleTopLevelDecl(DeclGroupRef G) override {
      for (Decl *D : G)
        if (!D->isFromASTFile() && !D->isImplicit())
          ++Decls;
      return true;
    }
    unsigned &Decls;
  };
  struct Macros : PPCallbacks {
    Macros(Preprocessor &PP, SourceManager &SM) : PP(PP), SM(SM) {}
    void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind, FileID) override {
      if (Reason != EnterFile || Started || SM.getFileID(Loc) != SM.getMainFileID())
        return;
      Started = true;
      for (const auto &KV : PP.macros())
        if (MacroInfo *MI = PP.getMacroInfo(KV.first))
          Before[KV.first] = MI;
    }
    void MacroDefined(const Token &Name, const MacroDirective *) override { touch(Name); }
    void MacroUndefined(const Token &Name, const MacroDefinition &, const MacroDirective *) override { touch(Name); }
    void touch(const Token &Name) {
      // The predefines (the compiler's and the command line's) are read again in every TU.
      if (Started && SM.getFileID(SM.getExpansionLoc(Name.getLocation())) != PP.getPredefinesFileID())
        if (const IdentifierInfo *II = Name.getIdentifierInfo())
          Touched.insert(II);
    }
    Preprocessor &PP;
    SourceManager &SM;
    bool Started = false;
    llvm::DenseMap<const IdentifierInfo *, const MacroInfo *> Before;
    llvm::SmallPtrSet<const IdentifierInfo *, 8> Touched;
  };
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<Counter>(Decls);
  }
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    auto M = std::make_unique<Macros>(CI.getPreprocessor(), CI.getSourceManager());
    Watch = M.get();
    CI.getPreprocessor().addPPCallbacks(std::move(M));
    return SyntaxOnlyAction::BeginSourceFileAction(CI);
  }
  void EndSourceFileAction() override {
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    for (const IdentifierInfo *II : Watch->Touched) {
      const MacroInfo *Was = Watch->Before.lookup(II);
      const MacroInfo *Is = PP.getMacroInfo(II);
      if ((Was == nullptr) != (Is == nullptr) || (Was && !Is->isIdenticalTo(*Was, PP, /*Syntactically=*/true)))
        MacrosRestored = false;
    }
    SyntaxOnlyAction::EndSourceFileAction();
  }

private:
  Macros *Watch = nullptr;
};

/// Whether the TU's own reading of the block, after the PCH of that block is loaded, changes
/// nothing: it declares nothing and leaves every macro as it was. A header without an include
/// guard is read again there (libstdc++'s <cmath> and <cstdlib> include the C header and define
/// and #undef a macro before their guard); when that reading is a no-op the PCH is still exact.
bool rereadIsNoop(const CompilerInvocation &Inv, StringRef Pch, StringRef BlockPath,
                  std::shared_ptr<PCHContainerOperations> Ops, IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  auto RI = std::make_shared<CompilerInvocation>(Inv);
  FrontendOptions &FO = RI->getFrontendOpts();
  InputKind Kind = FO.Inputs[0].getKind();
  FO.Inputs.clear();
  FO.Inputs.emplace_back(BlockPath, Kind);
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  FO.OutputFile.clear();
  FO.DisableFree = false;
  RI->getPreprocessorOpts().ImplicitPCHInclude = Pch.str();
  RI->getDependencyOutputOpts() = DependencyOutputOptions();
  CompilerInstance Clang(std::move(Ops));
  Clang.setInvocation(std::move(RI));
  Clang.createDiagnostics(new IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  Clang.createFileManager(std::move(FS));
  RereadAction Act;
  return Clang.ExecuteAction(Act) && !Clang.getDiagnostics().hasErrorOccurred() && Act.Decls == 0 &&
         Act.MacrosRestored;
}

std::string hex(ArrayRef<uint8_t> Bytes) { return toHex(Bytes, /*LowerCase=*/true); }

} // namespace

PchUse preparePch(const CompilerInvocation &Inv, FileManager &Files, std::shared_ptr<PCHContainerOperations> Ops,
                  StringRef CacheDir) {
  PchUse U;
  const FrontendOptions &FO = Inv.getFrontendOpts();
  const PreprocessorOptions &PPO = Inv.getPreprocessorOpts();
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile()) {
    U.Why = "not a single input file";
    return U;
  }
  if (!PPO.ImplicitPCHInclude.empty() || !PPO.Includes.empty() || !PPO.MacroIncludes.empty() ||
      !PPO.RemappedFiles.empty() || !PPO.RemappedFileBuffers.empty() ||
      // Clang modules (-fmodules); C++20 alone sets Modules and CPlusPlusModules but not ImplicitModules.
      (Inv.getLangOpts().Modules && (Inv.getLangOpts().ImplicitModules || !Inv.getLangOpts().CPlusPlusModules))) {
    U.Why = "the command line already uses -include, a PCH or modules";
    return U;
  }
  StringRef Main = FO.Inputs[0].getFile();
  auto Buf = Files.getVirtualFileSystem().getBufferForFile(Main);
  if (!Buf) {
    U.Why = "cannot read the main file";
    return U;
  }
  std::optional<std::vector<SearchDir>> Dirs = searchDirs(Inv, Files);
  std::vector<std::string> Block = leadingSystemIncludes((*Buf)->getBuffer());
  // A main file whose own block has no libtorch include (a project header first, say): the block
  // the preprocessor meets through the project's headers (IncludeChain). Blocks that name
  // libtorch in the main file keep to it, so that they share the PCH of the torch.h-first files.
  // So do blocks that start with a project header found through -I (`#include <libtorch.h>`,
  // the project's own, then `<torch/torch.h>`): its headers come first, and a PCH of the main
  // file's block would have to hold a file of the user's.
  std::vector<std::string> Guards, Undefs;
  std::vector<size_t> GuardAt, UndefAt;
  auto HasLibtorch = [](const std::vector<std::string> &B) {
    return std::any_of(B.begin(), B.end(), [](const std::string &H) { return libtorchName(H); });
  };
  bool ProjectFirst = Dirs && !Block.empty() && projectHeader(*Dirs, Block[0], Files);
  if (Dirs && !Inv.getLangOpts().MSVCCompat && (!HasLibtorch(Block) || ProjectFirst)) {
    IncludeChain C(*Dirs, Files.getVirtualFileSystem());
    C.walk(cachePath(Main, Files), /*IsMain=*/true);
    if (!C.Block.empty() && (C.Block.size() > Block.size() || !C.Headers.empty()) &&
        (!HasLibtorch(Block) || HasLibtorch(C.Block))) {
      Block = std::move(C.Block);
      Guards = std::move(C.Guards);
      Undefs = std::move(C.Undefs);
      GuardAt = std::move(C.GuardAt);
      UndefAt = std::move(C.UndefAt);
    } else if (Block.empty()) {
      U.Why = "no leading #include <...> block" + (C.Stop.empty() ? std::string() : ": " + C.Stop);
      return U;
    }
  }
  // A header no folder of the search holds (a library that is not installed: OpenCV, cxxopts)
  // is left to the TU, which recovers from it (a stand-in, synthesised declarations, or nothing:
  // Recovery.h), instead of ending the block before libtorch. The TU then meets it after the
  // PCH's headers, not before them: its declarations are torchlint's own, which neither define
  // anything libtorch looks at nor depend on the order. Once the header is installed it is a
  // member of the block again (a new PCH).
  if (Dirs) {
    size_t Before = Block.size();
    llvm::erase_if(Block, [&](const std::string &H) {
      return !sys::path::is_absolute(H) &&
             std::none_of(Dirs->begin(), Dirs->end(), [&](const SearchDir &D) { return D.Kind != "q" && holds(D, H); });
    });
    if (Block.empty() && Before > 0) {
      U.Why = "no header of the leading #include <...> block is found";
      return U;
    }
  }
  if (Block.empty()) {
    U.Why = "no leading #include <...> block";
    return U;
  }

  // The key: compiler, torchlint, the cc1 command line less the input's name and the header
  // search directories, and (below) the block. The directories are not in the key: the PCHs of a
  // key are variants, each valid for the TUs whose directories resolve the block's headers as its
  // build did (sharedResolution), so TUs that differ only in unrelated -I folders share one.
  CompilerInvocation Keyed(Inv);
  if (Dirs)
    Keyed.getHeaderSearchOpts().UserEntries.clear();
  BLAKE3 Base;
  auto Feed = [&](StringRef S) {
    Base.update(S);
    Base.update(StringRef("\0", 1));
  };
  // The PCH's own format (PchFormat), then what the manifest and the decisions around the PCH
  // mean. Format 2: templates instantiated into the PCH; 3: variants by resolution; 4: the
  // identifiers the block's headers looked at, for the guard macros of an include chain; 5: the
  // macros defined at its end, for the #undefs of one; 6: without the block's vtable uses.
  // Manifest 2: a block with a header that has no include guard is kept whole when reading it
  // again changes nothing (rereadIsNoop), where format 6's manifests truncated it.
  Feed(std::string("torchlint-pch-") + PchFormat);
  Feed("manifest-2");
  Feed(getClangFullVersion());
  Feed(TORCHLINT_VERSION);
  std::vector<std::string> Args = Keyed.getCC1CommandLine();
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-main-file-name") {
      ++I;
      continue;
    }
    // Where the compiler ran changes nothing the PCH holds (the directories are absolute above).
    if (A == Main || A.starts_with("-fdebug-compilation-dir") || A.starts_with("-fcoverage-compilation-dir"))
      continue;
    Feed(A);
  }
  if (!Dirs) // header maps or frameworks: the whole search (as given) and where it runs, in the key
    if (auto CWD = Files.getVirtualFileSystem().getCurrentWorkingDirectory())
      Feed(*CWD);

  // Precompile the libtorch part of the block: up to its last libtorch include (what follows,
  // <vector> and the like, is mostly skipped as already included), so that TUs whose blocks differ
  // only after it share one PCH. A block without libtorch is precompiled whole.
  size_t Keep = Block.size();
  for (size_t I = Block.size(); I > 0; --I) {
    if (libtorchName(Block[I - 1])) {
      Keep = I;
      break;
    }
  }
  // An include chain's guard macros must be names the PCH's headers never looked at; only those
  // met before a header of the precompiled part count (the others come after it in the TU too).
  // A clash ends the precompiled part before the macro (a new PCH, of the headers before it), as
  // the walk once ended at every #define: f2-nerf's project header defines `None`, which
  // libtorch's headers use, after <string> but before <torch/torch.h>.
  enum class Clear { Yes, No, Shorter };
  // The macros of Names (met at At) before the precompiled part's end, and where a name is first met.
  auto MetBefore = [](const std::vector<std::string> &Names, const std::vector<size_t> &At, size_t End) {
    std::vector<std::string> Out;
    for (size_t I = 0; I < Names.size(); ++I)
      if (At[I] < End)
        Out.push_back(Names[I]);
    return Out;
  };
  auto FirstMet = [](const std::vector<std::string> &Names, const std::vector<size_t> &At, const std::string &Name,
                     size_t Bound) {
    for (size_t I = 0; I < Names.size(); ++I)
      if (Names[I] == Name)
        Bound = std::min(Bound, At[I]);
    return Bound;
  };
  auto GuardsClear = [&](StringRef Dir) {
    std::optional<std::string> Clash =
        guardClash(Dir, MetBefore(Guards, GuardAt, Keep), MetBefore(Undefs, UndefAt, Keep));
    if (Clash && Clash->empty())
      return Clear::Yes;
    if (Clash) {
      size_t At = FirstMet(Undefs, UndefAt, *Clash, FirstMet(Guards, GuardAt, *Clash, Keep));
      if (At > 0 && At < Keep) {
        Keep = At;
        return Clear::Shorter;
      }
    }
    U.Why = Clash ? "the macro " + *Clash + " that a project header defines (an include guard, a constant) or #undefs before the block, or the class it forward-declares there, is a name the precompiled headers use"
                  : "cannot read " + Dir.str() + "/idents";
    return Clear::No;
  };
  for (int Round = 0; Round < 8 && Keep > 0; ++Round) {
    std::string Text;
    for (size_t I = 0; I < Keep; ++I)
      Text += "#include <" + Block[I] + ">\n";
    BLAKE3 H = Base;
    H.update(Text);
    SmallString<256> Group(CacheDir);
    sys::path::append(Group, "pch", hex(H.final<16>()));
    // The variant built under directories that resolve the block as this TU's do, else a new one.
    BLAKE3 V;
    for (const SearchDir &D : Dirs ? *Dirs : std::vector<SearchDir>()) {
      V.update(D.Path + "\n" + D.Kind);
      V.update(StringRef("\0", 1));
    }
    SmallString<256> Dir(Group);
    sys::path::append(Dir, hex(V.final<8>()));
    std::error_code EC;
    for (sys::fs::directory_iterator It(Group, EC), End; Dirs && !EC && It != End; It.increment(EC)) {
      Manifest Other;
      if (It->path() != Dir && readManifest(It->path() + "/manifest.json", Other) && depsUnchanged(Other) &&
          sharedResolution(Other, *Dirs)) {
        Dir = It->path();
        break;
      }
    }
    std::string ManifestPath = (Dir + "/manifest.json").str();
    std::string PchPath = (Dir + "/h.pch").str();
    std::string BlockPath = (Dir + "/block.h").str();

    Manifest M;
    if (readManifest(ManifestPath, M) && depsUnchanged(M)) {
      if (M.Status == "ok" && sys::fs::exists(PchPath)) {
        Clear C = GuardsClear(Dir);
        if (C == Clear::Shorter)
          continue;
        if (C == Clear::No)
          return U;
        U.Path = PchPath;
        for (Dep &D : M.Deps)
          U.Deps.push_back(std::move(D.Path));
        return U;
      }
      if (M.Status == "truncate" && M.Keep < Keep) {
        Keep = M.Keep;
        continue;
      }
      if (M.Status == "none") {
        U.Why = M.Why;
        return U;
      }
    }

    if (sys::fs::create_directories(Dir)) {
      U.Why = "cannot create " + std::string(Dir);
      return U;
    }
    LockFileManager Lock(PchPath);
    switch (Lock.getState()) {
    case LockFileManager::LFS_Error:
      U.Why = "cannot lock " + PchPath;
      return U;
    case LockFileManager::LFS_Shared:
      // Another process builds it: wait, then read its manifest.
      if (Lock.waitForUnlock(1800) == LockFileManager::Res_Timeout) {
        U.Why = "timed out waiting for another process to build " + PchPath;
        return U;
      }
      continue;
    case LockFileManager::LFS_Owned:
      break;
    }
    // Owned: someone may have finished between our check and the lock.
    Manifest M2;
    if (readManifest(ManifestPath, M2) && depsUnchanged(M2) && M2.Status != "ok")
      continue;
    if (M2.Status == "ok" && depsUnchanged(M2) && sys::fs::exists(PchPath))
      continue;

    sys::fs::remove(ManifestPath);
    if (!writeFileAtomically(BlockPath, Text)) {
      U.Why = "cannot write " + BlockPath;
      return U;
    }
    std::string Tmp = PchPath + ".tmp" + std::to_string(sys::Process::getProcessId());
    auto PI = std::make_shared<CompilerInvocation>(Inv);
    PI->getFrontendOpts().Inputs.clear();
    PI->getFrontendOpts().Inputs.emplace_back(BlockPath, FO.Inputs[0].getKind().getHeader());
    auto *Diags = new TextDiagnosticBuffer();
    BlockPchAction Act;
    Act.Block = BlockPath;
    bool OK = buildBlockPch(PI, Tmp, Diags, Ops, Files.getVirtualFileSystemPtr(), Act);

    Manifest Out;
    Out.Deps = Act.Deps;
    if (Dirs) {
      Out.Dirs = *Dirs;
      for (const std::string &N : Act.Names) {
        std::vector<unsigned> In;
        for (size_t I = 0; I < Dirs->size(); ++I)
          if (holds((*Dirs)[I], N))
            In.push_back(static_cast<unsigned>(I));
        Out.Names.emplace_back(N, std::move(In));
      }
    }
    // Precompile only the includes before the first that cannot be: a header missing under it (a
    // CPU-only libtorch's CUDA headers, say: the TU parses the rest itself and recovers,
    // Recovery.h), or one that is not guarded or enters the user's files.
    size_t Truncate = Keep;
    if (!OK && Act.FirstMissing >= 0)
      Truncate = static_cast<size_t>(Act.FirstMissing);
    else if (OK && Act.Count == Keep && Act.Good < Keep &&
             !(Act.UserFree && rereadIsNoop(Inv, Tmp, BlockPath, Ops, Files.getVirtualFileSystemPtr())))
      Truncate = Act.Good;
    if (Truncate < Keep) {
      sys::fs::remove(Tmp);
      Out.Status = "truncate";
      Out.Keep = static_cast<unsigned>(Truncate);
      writeManifest(ManifestPath, Out);
      Keep = Truncate;
      continue;
    }
    if (!OK || Act.Count != Keep) {
      Out.Status = "none";
      Out.Why = "the include block does not compile on its own";
      if (Diags->err_begin() != Diags->err_end())
        Out.Why += ": " + Diags->err_begin()->second;
      sys::fs::remove(Tmp);
      writeManifest(ManifestPath, Out);
      U.Why = Out.Why;
      return U;
    }
    if (sys::fs::rename(Tmp, PchPath)) {
      sys::fs::remove(Tmp);
      U.Why = "cannot write " + PchPath;
      return U;
    }
    if (!writeFileAtomically((Dir + "/idents").str(), Act.Idents) ||
        !writeFileAtomically((Dir + "/macros").str(), Act.Macros)) {
      U.Why = "cannot write " + std::string(Dir) + "/idents";
      return U;
    }
    Out.Status = "ok";
    writeManifest(ManifestPath, Out);
    Clear C = GuardsClear(Dir);
    if (C == Clear::Shorter)
      continue;
    if (C == Clear::No)
      return U;
    U.Path = PchPath;
    U.Built = true;
    for (Dep &D : Out.Deps)
      U.Deps.push_back(std::move(D.Path));
    return U;
  }
  if (U.Why.empty())
    U.Why = "no include of the block can be precompiled exactly";
  return U;
}

int pchMain(int argc, const char **argv, StringRef ResourceDir) {
  auto Usage = [] {
    errs() << "usage: torchlint pch HEADER -o OUT -- COMPILER FLAGS (the flags of the TUs that will load it, "
              "e.g. -std=c++17 -isystem <libtorch>/include -isystem <libtorch>/include/torch/csrc/api/include)\n";
    return 2;
  };
  std::string Header, Out;
  std::vector<std::string> Flags;
  int I = 1;
  for (; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "-o" && I + 1 < argc)
      Out = argv[++I];
    else if (A.consume_front("-o") && !A.empty())
      Out = A.str();
    else if (A == "-h" || A == "--help")
      return Usage(), 0;
    else if (Header.empty() && !A.starts_with("-"))
      Header = A.str();
    else {
      errs() << "torchlint pch: error: unexpected argument '" << A << "'\n";
      return Usage();
    }
  }
  for (; I < argc; ++I)
    Flags.push_back(argv[I]);
  if (Header.empty() || Out.empty())
    return Usage();
  if (!sys::fs::exists(Header)) {
    errs() << "torchlint pch: error: '" << Header << "': no such file\n";
    return 2;
  }
  // The flags are a compiler's, for TUs; the header is compiled as one (a later -x wins).
  std::vector<std::string> Args = {"clang++", ("-resource-dir=" + ResourceDir).str()};
  for (const std::string &F : Flags)
    if (F != "-c" && F != "-fsyntax-only")
      Args.push_back(F);
  std::string Tmp = Out + ".tmp" + std::to_string(sys::Process::getProcessId());
  Args.insert(Args.end(), {"-x", "c++-header", Header, "-o", Tmp});
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());
  auto DiagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags = CompilerInstance::createDiagnostics(
      DiagOpts.get(), new TextDiagnosticPrinter(errs(), DiagOpts.get()), /*ShouldOwnClient=*/true);
  CreateInvocationOptions CIO;
  CIO.Diags = Diags;
  std::shared_ptr<CompilerInvocation> Inv = createInvocation(CArgs, CIO);
  if (!Inv || Inv->getFrontendOpts().Inputs.size() != 1) {
    errs() << "torchlint pch: error: these flags do not make a PCH of '" << Header << "'\n";
    return 2;
  }
  // (createInvocation parses as -fsyntax-only: buildBlockPch sets the action and the output.)
  BlockPchAction Act;
  Act.Block = Header;
  auto *Printer = new TextDiagnosticPrinter(errs(), &Inv->getDiagnosticOpts());
  if (!buildBlockPch(Inv, Tmp, Printer, std::make_shared<PCHContainerOperations>(), nullptr, Act)) {
    sys::fs::remove(Tmp);
    errs() << "torchlint pch: error: '" << Header << "' does not compile with these flags; no PCH written\n";
    return 2;
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Out)) {
    sys::fs::remove(Tmp);
    errs() << "torchlint pch: error: cannot write '" << Out << "': " << EC.message() << "\n";
    return 2;
  }
  return 0;
}

} // namespace torchlint
