#include "cli/ProjectFlags.h"
#include "cli/CompileDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "utils/Paths.h"
#include <algorithm>
#include <map>
#include <mutex>

namespace torchlint {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

namespace {

std::string join(StringRef A, StringRef B) {
  llvm::SmallString<256> P(A);
  path::append(P, B);
  return std::string(P);
}

bool isBuildFileName(StringRef N) {
  return N == "CMakeLists.txt" || N == "meson.build" || N == "WORKSPACE" || N == "WORKSPACE.bazel" ||
         N == "MODULE.bazel";
}

bool holdsBuildFile(StringRef Dir) {
  for (const char *N : {"CMakeLists.txt", "meson.build", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel"})
    if (fs::exists(join(Dir, N)))
      return true;
  return false;
}

/// A folder the scan does not enter: hidden ones (.git), build outputs, package caches.
bool skippedFolder(StringRef N) {
  return N.starts_with(".") || N.starts_with("build") || N == "out" || N.starts_with("cmake-build-") ||
         N == "node_modules" || N == "__pycache__" || N.starts_with("bazel-") || N == "CMakeFiles";
}

bool isHeaderName(StringRef N) {
  return N.ends_with(".h") || N.ends_with(".hpp") || N.ends_with(".hh") || N.ends_with(".hxx") || N.ends_with(".cuh") ||
         N.ends_with(".inl") || N.ends_with(".ipp");
}

std::string relativeTo(StringRef Root, StringRef P) {
  if (isWithin(P, Root) && !path::is_separator(Root.back()))
    return P.drop_front(Root.size() + 1).str();
  return P.str();
}

std::string normalized(StringRef P) {
  llvm::SmallString<256> S(P);
  path::remove_dots(S, true);
  while (S.size() > 1 && path::is_separator(S.back()))
    S.pop_back();
  return std::string(S);
}

/// The line (1-based) of Offset in Text.
unsigned lineOf(StringRef Text, size_t Offset) { return 1 + Text.take_front(Offset).count('\n'); }

/// What the scan collects: the build files and the folders holding headers.
struct Scan {
  std::vector<std::string> CMakeFiles, MesonFiles, BazelFiles; // BUILD, BUILD.bazel, .bazelrc
  std::vector<std::string> HeaderDirs;
  bool Truncated = false;
};

Scan scanProject(StringRef Root) {
  Scan S;
  unsigned Budget = 20000;
  std::vector<std::pair<std::string, unsigned>> Todo = {{Root.str(), 0}};
  for (const char *Rc : {".bazelrc", "user.bazelrc"})
    if (fs::is_regular_file(join(Root, Rc)))
      S.BazelFiles.push_back(join(Root, Rc));
  for (size_t Next = 0; Next < Todo.size(); ++Next) {
    auto [Dir, Depth] = Todo[Next];
    std::error_code EC;
    std::vector<std::string> Subdirs, Files;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
      if (!Budget--) {
        S.Truncated = true;
        return S;
      }
      StringRef Name = path::filename(It->path());
      fs::file_type T = It->type();
      if (T == fs::file_type::directory_file) {
        if (!skippedFolder(Name) && Depth < 12)
          Subdirs.push_back(It->path());
      } else if (T == fs::file_type::regular_file || T == fs::file_type::symlink_file) {
        Files.push_back(Name.str());
      }
    }
    std::sort(Files.begin(), Files.end());
    std::sort(Subdirs.begin(), Subdirs.end());
    bool Headers = false;
    for (const std::string &F : Files) {
      if (F == "CMakeLists.txt")
        S.CMakeFiles.push_back(join(Dir, F));
      else if (F == "meson.build")
        S.MesonFiles.push_back(join(Dir, F));
      else if (F == "BUILD" || F == "BUILD.bazel")
        S.BazelFiles.push_back(join(Dir, F));
      Headers |= isHeaderName(F);
    }
    if (Headers)
      S.HeaderDirs.push_back(Dir);
    for (std::string &D : Subdirs)
      Todo.push_back({std::move(D), Depth + 1});
  }
  return S;
}

/// Records what a build file says.
struct Collector {
  ProjectFlags &Out;
  llvm::StringSet<> Seen;
  void standard(int Std, StringRef File, StringRef Text, size_t Offset, StringRef What) {
    if (Std <= Out.Std)
      return;
    Out.Std = Std;
    Out.StdFrom = relativeTo(Out.Root, File) + ":" + std::to_string(lineOf(Text, Offset)) + " (" + What.str() + ")";
  }
  void include(StringRef Dir, StringRef File) {
    std::string D = normalized(Dir);
    if (D.empty() || !fs::is_directory(D))
      return;
    Out.IncludeListings.push_back({D, normalized(path::parent_path(File))});
    if (!Seen.insert(D).second)
      return;
    Out.IncludeDirs.push_back(D);
    std::string From = relativeTo(Out.Root, File);
    if (!llvm::is_contained(Out.IncludesFrom, From))
      Out.IncludesFrom.push_back(From);
  }
};

/// "-std=c++20", "-std=gnu++2a", "/std:c++20" anywhere in Text.
void flagStandards(Collector &C, StringRef File, StringRef Text) {
  llvm::Regex Re("[-/]std[=:](c|gnu)\\+\\+([0-9][0-9a-z])");
  StringRef Rest = Text;
  llvm::SmallVector<StringRef> M;
  while (Re.match(Rest, &M)) {
    size_t Off = M[0].data() - Text.data();
    C.standard(parseCxxStd(M[1].str() + "++" + M[2].str()), File, Text, Off, M[0].trim());
    Rest = Text.drop_front(Off + M[0].size());
  }
}

// ---- CMake ----------------------------------------------------------------------------------

struct CMakeCommand {
  std::string Name; // lower case
  std::vector<std::string> Args;
  size_t Offset;
};

/// CMake's command syntax, enough for set(), include_directories() and friends: comments (also
/// bracket comments), quoted and bracket arguments, nested parentheses.
std::vector<CMakeCommand> parseCMake(StringRef T) {
  std::vector<CMakeCommand> Out;
  size_t I = 0, N = T.size();
  // At '[': a bracket argument "[=*[ ... ]=*]": {content begin, content end, end}; npos if not one.
  struct Bracket {
    size_t Begin = std::string::npos, End = 0, After = 0;
  };
  auto BracketAt = [&](size_t At) -> Bracket {
    size_t J = At + 1, Eq = 0;
    while (J < N && T[J] == '=')
      ++J, ++Eq;
    if (J >= N || T[J] != '[')
      return {};
    std::string Close = "]" + std::string(Eq, '=') + "]";
    size_t E = T.find(Close, J + 1);
    if (E == StringRef::npos)
      return {J + 1, N, N};
    return {J + 1, E, E + Close.size()};
  };
  while (I < N) {
    char Ch = T[I];
    if (Ch == '#') {
      Bracket B = I + 1 < N && T[I + 1] == '[' ? BracketAt(I + 1) : Bracket();
      size_t Eol = T.find('\n', I);
      I = B.Begin != std::string::npos ? B.After : (Eol == StringRef::npos ? N : Eol);
      continue;
    }
    if (!(isalpha(static_cast<unsigned char>(Ch)) || Ch == '_')) {
      ++I;
      continue;
    }
    size_t Start = I;
    while (I < N && (isalnum(static_cast<unsigned char>(T[I])) || T[I] == '_'))
      ++I;
    std::string Name = T.slice(Start, I).lower();
    size_t J = I;
    while (J < N && (T[J] == ' ' || T[J] == '\t'))
      ++J;
    if (J >= N || T[J] != '(')
      continue;
    CMakeCommand Cmd{Name, {}, Start};
    I = J + 1;
    int Depth = 0;
    std::string Cur;
    bool HaveCur = false;
    auto Flush = [&] {
      if (HaveCur)
        Cmd.Args.push_back(Cur);
      Cur.clear();
      HaveCur = false;
    };
    while (I < N) {
      char C = T[I];
      if (C == '"') {
        size_t E = I + 1;
        while (E < N && T[E] != '"')
          E += T[E] == '\\' ? 2 : 1;
        Cur += T.slice(I + 1, std::min(E, N)).str();
        HaveCur = true;
        I = E + 1;
      } else if (C == '[' && !HaveCur && BracketAt(I).Begin != std::string::npos) {
        Bracket B = BracketAt(I);
        Cur += T.slice(B.Begin, B.End).str();
        HaveCur = true;
        I = B.After;
      } else if (C == '#') {
        Flush();
        size_t E = T.find('\n', I);
        I = E == StringRef::npos ? N : E;
      } else if (C == '(') {
        ++Depth;
        Cur += C;
        HaveCur = true;
        ++I;
      } else if (C == ')') {
        if (Depth == 0) {
          Flush();
          ++I;
          break;
        }
        --Depth;
        Cur += C;
        ++I;
      } else if (isspace(static_cast<unsigned char>(C))) {
        Flush();
        ++I;
      } else {
        Cur += C;
        HaveCur = true;
        ++I;
      }
    }
    Out.push_back(std::move(Cmd));
  }
  return Out;
}

/// ${VAR} replaced from Vars; generator expressions: $<BUILD_INTERFACE:x> is x, any other is
/// dropped. nullopt when a variable is unknown.
std::optional<std::string> expand(StringRef A, const std::map<std::string, std::string> &Vars) {
  std::string Out;
  size_t I = 0;
  while (I < A.size()) {
    if (A.substr(I).starts_with("${")) {
      size_t E = A.find('}', I);
      if (E == StringRef::npos)
        return std::nullopt;
      auto It = Vars.find(A.slice(I + 2, E).str());
      if (It == Vars.end())
        return std::nullopt;
      Out += It->second;
      I = E + 1;
    } else if (A.substr(I).starts_with("$<")) {
      // Matching '>' (generator expressions nest).
      int Depth = 0;
      size_t E = I;
      for (; E < A.size(); ++E) {
        if (A[E] == '<' && E > 0 && A[E - 1] == '$')
          ++Depth;
        else if (A[E] == '>' && --Depth == 0)
          break;
      }
      StringRef G = A.slice(I + 2, E);
      if (G.consume_front("BUILD_INTERFACE:") || G.consume_front("BUILD_LOCAL_INTERFACE:")) {
        std::optional<std::string> In = expand(G, Vars);
        if (!In)
          return std::nullopt;
        Out += *In;
      } else {
        return std::nullopt;
      }
      I = E + 1;
    } else {
      Out += A[I++];
    }
  }
  return Out;
}

void readCMake(Collector &C, const std::vector<std::string> &Files) {
  std::map<std::string, std::string> Global; // set(VAR value) with one value, in reading order
  StringRef Root = C.Out.Root;
  Global["CMAKE_SOURCE_DIR"] = Root.str();
  Global["PROJECT_SOURCE_DIR"] = Root.str();
  Global["CMAKE_HOME_DIRECTORY"] = Root.str();
  // The top-level CMakeLists.txt first (the scan is breadth first), then the others.
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    std::string Dir = path::parent_path(File).str();
    std::map<std::string, std::string> Vars = Global;
    Vars["CMAKE_CURRENT_SOURCE_DIR"] = Dir;
    Vars["CMAKE_CURRENT_LIST_DIR"] = Dir;
    auto Resolve = [&](StringRef A) -> std::optional<std::string> {
      std::optional<std::string> E = expand(A, Vars);
      if (!E || E->empty())
        return std::nullopt;
      if (path::is_relative(*E))
        return join(Dir, *E);
      return E;
    };
    for (const CMakeCommand &Cmd : parseCMake(Text)) {
      const auto &A = Cmd.Args;
      // -std=c++20 in any argument: set(CMAKE_CXX_FLAGS ...), add_compile_options(), generator
      // expressions ($<$<COMPILE_LANGUAGE:CXX>:-std=c++20>).
      for (const std::string &V : A) {
        static const llvm::Regex Re("[-/]std[=:](c|gnu)\\+\\+([0-9][0-9a-z])");
        llvm::SmallVector<StringRef> M;
        if (Re.match(V, &M))
          C.standard(parseCxxStd(M[1].str() + "++" + M[2].str()), File, Text, Cmd.Offset, M[0]);
      }
      if (Cmd.Name == "project" && !A.empty()) {
        Vars[A[0] + "_SOURCE_DIR"] = Dir;
        Global[A[0] + "_SOURCE_DIR"] = Dir;
        Vars["PROJECT_SOURCE_DIR"] = Dir;
      } else if (Cmd.Name == "set" && A.size() >= 2) {
        if (A[0] == "CMAKE_CXX_STANDARD") {
          if (int Std = parseCxxStd("c++" + A[1]))
            C.standard(Std, File, Text, Cmd.Offset, "CMAKE_CXX_STANDARD " + A[1]);
        } else {
          // set(VAR a b ${OTHER}) is the list "a;b;..."; an element naming a variable the scan does
          // not know (${TORCH_INCLUDE_DIRS}, found at configure time) is left out.
          std::string List;
          bool Any = false;
          for (size_t K = 1; K < A.size(); ++K) {
            if (A[K] == "CACHE" || A[K] == "PARENT_SCOPE")
              break;
            if (std::optional<std::string> V = expand(A[K], Vars)) {
              List += (Any ? ";" : "") + *V;
              Any = true;
            }
          }
          if (Any) {
            Vars[A[0]] = List;
            Global[A[0]] = List;
          }
        }
      } else if (Cmd.Name == "set_property" || Cmd.Name == "set_target_properties") {
        for (size_t K = 0; K + 1 < A.size(); ++K)
          if (A[K] == "CXX_STANDARD")
            if (int Std = parseCxxStd("c++" + A[K + 1]))
              C.standard(Std, File, Text, Cmd.Offset, "CXX_STANDARD " + A[K + 1]);
      } else if (Cmd.Name == "target_compile_features") {
        for (const std::string &V : A)
          if (StringRef(V).starts_with("cxx_std_"))
            if (int Std = parseCxxStd("c++" + StringRef(V).drop_front(8).str()))
              C.standard(Std, File, Text, Cmd.Offset, V);
      } else if (Cmd.Name == "include_directories" || Cmd.Name == "target_include_directories") {
        size_t K = Cmd.Name == "target_include_directories" ? 1 : 0;
        for (; K < A.size(); ++K) {
          StringRef V = A[K];
          if (V == "AFTER" || V == "BEFORE" || V == "SYSTEM" || V == "PUBLIC" || V == "PRIVATE" || V == "INTERFACE")
            continue;
          llvm::SmallVector<StringRef> Parts; // a ;-list in one argument
          V.split(Parts, ';', -1, false);
          for (StringRef P : Parts) {
            std::optional<std::string> E = expand(P, Vars);
            if (!E)
              continue;
            llvm::SmallVector<StringRef> Items; // a variable holding a list
            StringRef(*E).split(Items, ';', -1, false);
            for (StringRef I : Items)
              if (std::optional<std::string> D = Resolve(I))
                C.include(*D, File);
          }
        }
      }
    }
  }
}

// ---- meson and Bazel ------------------------------------------------------------------------

/// The string literals ('x' or "x") of Text.
std::vector<std::string> stringLiterals(StringRef Text) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    char Q = Text[I];
    if (Q != '\'' && Q != '"')
      continue;
    size_t E = Text.find(Q, I + 1);
    if (E == StringRef::npos)
      break;
    Out.push_back(Text.slice(I + 1, E).str());
    I = E;
  }
  return Out;
}

/// The text between the parenthesis or bracket at Open and its match.
StringRef balanced(StringRef Text, size_t Open) {
  char O = Text[Open], Cl = O == '(' ? ')' : ']';
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    if (Text[I] == O)
      ++Depth;
    else if (Text[I] == Cl && --Depth == 0)
      return Text.slice(Open + 1, I);
  }
  return Text.drop_front(Open + 1);
}

void readMeson(Collector &C, const std::vector<std::string> &Files) {
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    std::string Dir = path::parent_path(File).str();
    llvm::Regex Std("cpp_std[ \t]*=[ \t]*(c|gnu|vc)\\+\\+([0-9][0-9a-z]|latest)");
    llvm::SmallVector<StringRef> M;
    for (StringRef Rest = Text; Std.match(Rest, &M);) {
      size_t Off = M[0].data() - Text.data();
      std::string Flavour = M[1] == "vc" ? "c" : M[1].str();
      C.standard(parseCxxStd(Flavour + "++" + M[2].str()), File, Text, Off, M[0]);
      Rest = Text.drop_front(Off + M[0].size());
    }
    flagStandards(C, File, Text);
    for (size_t P = Text.find("include_directories("); P != StringRef::npos;
         P = Text.find("include_directories(", P + 1)) {
      if (P > 0 && (isalnum(static_cast<unsigned char>(Text[P - 1])) || Text[P - 1] == '_'))
        continue;
      StringRef Args = balanced(Text, P + strlen("include_directories"));
      // Keyword arguments (is_system: true) carry no strings that are folders.
      for (const std::string &S : stringLiterals(Args))
        C.include(path::is_relative(S) ? join(Dir, S) : S, File);
    }
  }
}

void readBazel(Collector &C, const std::vector<std::string> &Files) {
  for (const std::string &File : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    StringRef Text = (*Buf)->getBuffer();
    flagStandards(C, File, Text);
    if (path::filename(File).ends_with("bazelrc"))
      continue;
    std::string Pkg = path::parent_path(File).str();
    // includes = ["include"] and strip_include_prefix = "include": relative to the package.
    llvm::Regex Inc("(includes|strip_include_prefix)[ \t]*=[ \t]*");
    llvm::SmallVector<StringRef> M;
    for (StringRef Rest = Text; Inc.match(Rest, &M);) {
      size_t Off = M[0].data() - Text.data() + M[0].size();
      StringRef Value = Text.drop_front(Off);
      std::vector<std::string> Lits;
      if (Value.starts_with("["))
        Lits = stringLiterals(balanced(Text, Off));
      else if (Value.starts_with("\"") || Value.starts_with("'"))
        Lits = stringLiterals(Value.take_until([](char Ch) { return Ch == '\n' || Ch == ','; }));
      for (const std::string &L : Lits)
        C.include(StringRef(L).starts_with("/") ? join(C.Out.Root, StringRef(L).drop_front()) : join(Pkg, L), File);
      Rest = Text.drop_front(Off);
    }
    // copts = ["-Iinclude"]: relative to the workspace root.
    for (const std::string &L : stringLiterals(Text))
      if (StringRef(L).starts_with("-I") && L.size() > 2)
        C.include(path::is_relative(StringRef(L).drop_front(2)) ? join(C.Out.Root, StringRef(L).drop_front(2))
                                                                : StringRef(L).drop_front(2).str(),
                  File);
  }
}

/// Does the JSON database at Path hold a command for File?
bool listsFile(StringRef Path, StringRef File) {
  std::string Err;
  auto DB = jsonDatabase(Path, Err); // parsed once: the driver then reads the one found (CompileDatabase.h)
  return DB && !DB->getCompileCommands(File).empty();
}

} // namespace

int parseCxxStd(StringRef S) {
  S = S.trim();
  if (!S.consume_front("c++") && !S.consume_front("gnu++"))
    return 0;
  if (S == "latest")
    return 26;
  static const std::pair<const char *, int> Known[] = {
      {"98", 98}, {"03", 98}, {"0x", 11}, {"11", 11}, {"1y", 14}, {"14", 14}, {"1z", 17}, {"17", 17},
      {"2a", 20}, {"20", 20}, {"2b", 23}, {"23", 23}, {"2c", 26}, {"26", 26}};
  for (const auto &[Sp, N] : Known)
    if (S == Sp)
      return N == 98 ? 0 : N; // older than 11: nothing libtorch can be parsed with
  return 0;
}

std::string projectRoot(StringRef File) {
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  std::string Dir = path::parent_path(Abs).str();
  for (StringRef D = Dir; !D.empty(); D = path::parent_path(D)) {
    if (fs::exists(join(D, ".git")))
      return D.str();
    if (D == path::root_path(D))
      break;
  }
  std::string Top;
  for (StringRef D = Dir; !D.empty(); D = path::parent_path(D)) {
    if (holdsBuildFile(D))
      Top = D.str();
    else if (!Top.empty())
      break;
    if (D == path::root_path(D))
      break;
  }
  return Top.empty() ? Dir : Top;
}

DatabaseFound findCompileDatabase(StringRef File) {
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, true);
  std::string Root = projectRoot(Abs);
  bool InRepo = true;
  for (StringRef D = path::parent_path(Abs); !D.empty(); D = path::parent_path(D)) {
    for (const char *N : {"compile_commands.json", "compile_flags.txt"})
      if (fs::is_regular_file(join(D, N)))
        return {join(D, N), D == path::parent_path(Abs) ? "next to the source" : "in " + D.str()};
    if (InRepo) {
      // build*/, out/, cmake-build-*/ of this folder: the one listing the file, else the newest.
      std::vector<std::string> Found;
      std::error_code EC;
      for (fs::directory_iterator It(D, EC), End; It != End && !EC; It.increment(EC)) {
        StringRef N = path::filename(It->path());
        if ((N.starts_with("build") || N == "out" || N.starts_with("cmake-build-")) &&
            fs::is_regular_file(join(It->path(), "compile_commands.json")))
          Found.push_back(join(It->path(), "compile_commands.json"));
      }
      std::sort(Found.begin(), Found.end());
      // Only one that lists the file: a build folder of another configuration (a stale build/,
      // one without this example) must not refuse the file that flags guessed would analyse.
      std::string Pick;
      for (const std::string &F : Found)
        if (listsFile(F, Abs)) {
          Pick = F;
          break;
        }
      if (!Pick.empty()) {
        std::string Why = "in " + path::filename(path::parent_path(Pick)).str() + "/ below " + D.str();
        if (Found.size() > 1)
          Why += ", the one of " + std::to_string(Found.size()) + " there that lists the file";
        return {Pick, Why};
      }
    }
    if (D == Root)
      InRepo = false;
    if (D == path::root_path(D))
      break;
  }
  return {};
}

namespace {
/// How many leading path components A and B share.
size_t sharedComponents(StringRef A, StringRef B) {
  size_t N = 0;
  for (auto I = path::begin(A), J = path::begin(B), IE = path::end(A), JE = path::end(B); I != IE && J != JE && *I == *J;
       ++I, ++J)
    ++N;
  return N;
}
ProjectFlags scanAndRead(StringRef File);
} // namespace

void nearestFirst(ProjectFlags &P, StringRef File) {
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  std::string Folder = normalized(path::parent_path(Abs));
  // First the folders that the build files at or above the file's folder list, in their order
  // (outer build files first, as a target inherits its directory's include_directories before
  // its own), even where a sibling's build file listed the same folder first (a folder shared by
  // two examples, listed in a different order by each); then every other folder as scanned.
  // (Every listed folder is one of IncludeDirs: Collector::include adds to both.)
  std::vector<std::string> Dirs;
  llvm::StringSet<> Taken;
  for (const auto &[D, Owner] : P.IncludeListings)
    if (isSameOrWithin(Folder, Owner) && Taken.insert(D).second)
      Dirs.push_back(D);
  for (const std::string &D : P.IncludeDirs)
    if (Taken.insert(D).second)
      Dirs.push_back(D);
  P.IncludeDirs = std::move(Dirs);
  std::stable_sort(P.HeaderDirs.begin(), P.HeaderDirs.end(), [&](const std::string &A, const std::string &B) {
    return sharedComponents(A, Folder) > sharedComponents(B, Folder);
  });
}

ProjectFlags guessProjectFlags(StringRef File) {
  // The scan and the build files are the project's, the order is the file's: the LSP server and
  // the CLI without a database ask once per file.
  static std::mutex M;
  static std::map<std::string, ProjectFlags> Done;
  std::string Root = projectRoot(File);
  ProjectFlags P;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Done.find(Root);
    if (It == Done.end())
      It = Done.emplace(Root, scanAndRead(File)).first;
    P = It->second;
  }
  nearestFirst(P, File);
  return P;
}

namespace {
ProjectFlags scanAndRead(StringRef File) {
  ProjectFlags P;
  P.Root = projectRoot(File);
  Scan S = scanProject(P.Root);
  P.Truncated = S.Truncated;
  Collector C{P, {}};
  readCMake(C, S.CMakeFiles);
  readMeson(C, S.MesonFiles);
  readBazel(C, S.BazelFiles);
  // Every folder with headers, and the include/ folders above them (<lib/x.h> from include/lib/).
  llvm::StringSet<> Seen;
  for (const std::string &D : P.IncludeDirs)
    Seen.insert(D);
  auto Add = [&](StringRef D) {
    if (P.HeaderDirs.size() < 256 && Seen.insert(D).second)
      P.HeaderDirs.push_back(D.str());
  };
  for (const std::string &D : S.HeaderDirs) {
    for (StringRef A = path::parent_path(D); A.size() > P.Root.size(); A = path::parent_path(A))
      if (path::filename(A) == "include")
        Add(A);
    Add(D);
  }
  return P;
}
} // namespace

} // namespace torchlint
