// Synthesised declarations for libraries that are missing and have no stand-in (issue 24).
//
// A training program that includes spdlog, Boost.program_options, absl or glm, none of them
// installed, loses every statement that mentions them: `auto loader =
// make_data_loader(MNIST(vm["data"].as<std::string>()))` is invalid, and with it the loop over the
// loader. The hand-written stand-ins (stand-ins/) cover six libraries; this covers the rest, in the
// spirit of the work on completing partial programs (PsycheC for C), for C++: from what the file
// uses but cannot resolve, declarations are synthesised and the file is parsed again.
//
//  - What is unresolved comes from clang's errors ("use of undeclared identifier 'spdlog'", "no
//    member named 'value' in namespace 'boost::program_options'", "unknown type name", "no template
//    named", "no member named 'count' in '__torchlint_synth::__value'") and from the qualified name
//    written at the error (`boost::program_options::value<float>(`): namespaces as written,
//    `namespace po = boost::program_options;` followed, templates where the code writes `<...>`.
//  - What is declared is permissive: one type, `__torchlint_synth::__value`, that converts from and
//    to any type, and whose members, calls, subscripts, dereferences, iteration and operators give
//    the same type; `f<T>(...)` and `x.as<T>()` give `__typed<T>`, which converts only to T (so that
//    `MNIST(vm["data"].as<std::string>())` picks the constructor from a string). Unknown names are
//    variables of that type, unknown types aliases of it, unknown templates alias templates of it.
//  - Where: a header written to a temporary folder (searched after every other folder and before the
//    stand-ins), served for each missing include; an installed header and a stand-in always win.
//    Nothing is declared in std or libtorch's namespaces. The folder goes with its TU in
//    torchlint's front ends and when the process ends in clang-tidy (Recovery.h,
//    setSynthesisFoldersRemovedWithTheirTU: clang-tidy's one FileManager per run knows files by
//    inode, and would read a later TU's header with a removed one's size).
//  - Bounded: a few parses (SynthesisMaxRounds), each learning from the last one's errors; the
//    declarations kept are those of the synthesised parse with the fewest errors.
//  - Honest: an include served by it is still reported as a missing header (SynthUsedText), and no
//    finding rests on the synthesised types' semantics (Recovery.h: restsOnErrors treats
//    expressions of those types as unknown).
#pragma once
#include "llvm/ADT/StringRef.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace torchlint {

/// The namespace of the permissive types, and the file name of the synthesised header.
extern const char *const SynthNamespace;   // "__torchlint_synth"
extern const char *const SynthHeaderName;  // "__torchlint_synthesized.h"
/// The end of the message of an include served by synthesised declarations.
extern const char *const SynthUsedText;
/// Parses after the first one, at most. Four: a simulator library used as MuJoCo programs use
/// theirs reveals one layer per parse (its namespace, its types, their members, then a function
/// whose arguments named them: clang says nothing of a callee while the arguments have errors);
/// a file stops as soon as a parse has no error or teaches nothing new.
constexpr unsigned SynthesisMaxRounds = 4;

/// One compiler error, with the text around it: Before (the source before the error's location,
/// up to its line's start or a few lines), At (from the location to a few lines after).
struct SynthDiag {
  std::string Message;
  std::string Before, At;
};

/// What has been learnt about the names a file cannot resolve, and the header that declares them.
class DeclarationSynthesis {
public:
  /// Learns from one parse's errors. True when something new was learnt.
  bool learn(const std::vector<SynthDiag> &Errors);
  /// Learns the namespace aliases a file declares (`namespace po = boost::program_options;`).
  void learnAliases(llvm::StringRef FileText);
  bool empty() const;
  /// The synthesised header (self-contained, include-guarded, a system header).
  std::string header() const;
  /// The names declared, qualified, for the note ("boost::program_options::value", "__value::count").
  std::vector<std::string> names() const;
  /// S ends with `.name<...>(...)` (what is written before a member access whose base is not a
  /// class): name, else "".
  static std::string trailingTemplateCall(llvm::StringRef S);

private:
  struct Node {
    std::map<std::string, Node> Children;
    bool Namespace = false, Value = false, Type = false, FunctionTemplate = false;
    std::string TemplateParams; // a type template: "class, auto" ("" when not one)
  };
  /// Declares Path (qualified components); the last one of kind K.
  enum class Kind { Namespace, Value, Type, FunctionTemplate, TypeTemplate };
  bool declare(const std::vector<std::string> &Path, Kind K, const std::string &Params = "");
  bool declareMember(const std::string &Name, bool Template);
  /// S follows a synthesised value (`(args).as<int>()->name`): every member the postfix chain
  /// names is one of the permissive types' (a member of one gives one), learnt at once.
  bool postfixMembers(llvm::StringRef S, llvm::StringRef Lead = "");
  bool fromChain(std::vector<std::string> Qualifier, llvm::StringRef At, std::string Name, int Hint,
                 llvm::StringRef Before);
  /// Qual: the enclosing namespaces ("::glm"); Types gets the qualified name of each type declared.
  void emit(std::string &Out, const std::string &Name, const Node &N, const std::string &Indent,
            std::map<std::string, bool> &Members, const std::string &Qual, std::vector<std::string> &Types) const;
  void collectNames(const Node &N, const std::string &Prefix, std::vector<std::string> &Out) const;
  Node Root;
  std::map<std::string, bool> Members; // of __value and __typed: name -> written as a template
  /// Member templates whose result the code uses as an object (toml++'s
  /// `cfg["n"].value<int64_t>().value()`, an optional): they give __typed<T>, not the number T.
  std::set<std::string> ObjectMembers;

  std::map<std::string, std::vector<std::string>> Aliases;
  /// Bare names (`desc`, `color`: unqualified, not called) unknown in the last parse: often only
  /// the consequence of an unknown type in their declaration, so declared only when still unknown
  /// in the next parse. Seen: this parse's.
  std::set<std::string> Pending, Seen;
  /// Standard headers the file uses without including them, that a missing library's header
  /// included for it (`std::ofstream` used with only yaml-cpp's headers including <fstream>):
  /// included by the synthesised header.
  std::set<std::string> StdHeaders;
  /// Function-like macros written where a member or namespace-level declaration starts
  /// (`MSGPACK_DEFINE_MAP(a, b)` in a struct): defined to expand to nothing.
  std::set<std::string> DeclarationMacros;
  /// Names in capitals written as a statement's start and followed by `<<` (`PLOG_INFO << loss;`):
  /// a logging library's stream macro, declared as a std::ostream.
  std::set<std::string> StreamMacros;
  bool learnStd(llvm::StringRef Name);
};

/// Writes the synthesised header and, for each missing header name, a header of that name that
/// includes it, into Dir (created). False when a file cannot be written.
bool writeSynthesisDirectory(const std::string &Dir, const DeclarationSynthesis &S,
                             const std::vector<std::string> &MissingHeaders);

/// A missing header that a synthesised header may stand for: a relative path without "..".
bool synthesisMayServe(llvm::StringRef HeaderName);

} // namespace torchlint
