// Analysing real code as it is found (issue 14):
//  - a missing header that is not libtorch's (spdlog, cxxopts, the CUDA runtime, a vendored
//    header) is a recoverable error, as in an IDE: the include is skipped and the rest of the file
//    is analysed; the driver says once per file which headers were missing (partial analysis);
//  - no finding rests on code with errors: code whose types are unknown because of a missing
//    header is never judged (restsOnErrors);
//  - libtorch's own headers are never the user's code, wherever they are installed and however
//    they are included (-isystem or -I).
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <atomic>
#include <memory>
#include <initializer_list>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Expr;
class Stmt;
class Preprocessor;
class SourceLocation;
class SourceManager;
} // namespace clang

namespace torchlint {

struct RunResult;

/// The name of an #include that belongs to libtorch (torch/, ATen/, c10/, caffe2/).
bool isLibtorchHeaderName(llvm::StringRef Spelled);
/// A libtorch header that every libtorch program can rely on: a libtorch name that is not
/// specific to a GPU backend (c10/cuda/..., ATen/cuda/..., hip, mps, xpu), which a CPU-only
/// libtorch lacks. A missing core header means libtorch itself was not found: a hard error.
bool isLibtorchCoreHeaderName(llvm::StringRef Spelled);

/// True for a file of a libtorch installation: its path is <root>/{torch,ATen,c10,caffe2}/...
/// where <root> holds c10/macros/Macros.h (Debian's /usr/include, a wheel's torch/include, an
/// unpacked libtorch's include). Cached per directory.
bool isLibtorchFile(llvm::StringRef Path);
/// Library code, never reported: a system header, or a libtorch header included with -I.
bool isLibraryLocation(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Turns on the recovery for the TU of PP (idempotent; every torchlint check calls it): a missing
/// header that is not a libtorch core header is an error instead of a fatal error, and the error
/// limit is lifted from then on, so that the parse goes on. The stand-in headers (stand-ins/, for
/// command-line parsers, OpenCV, JSON) are searched after every other folder: an include only
/// they can serve is still reported as a missing header ("...; " StandInUsedText), but the code
/// that uses it is typed. With Strict, a missing header stays fatal and no stand-in is used.
void setUpIncludeRecovery(clang::Preprocessor &PP, bool Strict);
/// The same; and when the file includes a header that no folder serves and Synthesize (not
/// Strict, no $TORCHLINT_NO_SYNTHESIS), the names the file cannot resolve are declared first
/// (Synthesis.h: a few syntax-only parses of the same file, before the real one); an include
/// they serve is reported as missing ("...; " SynthUsedText " (<names>)").
void setUpIncludeRecovery(clang::Preprocessor &PP, bool Strict, bool Synthesize);
/// Whether a TU's synthesised declarations' folder is removed when the TU ends (On: a front end
/// that gives each TU its own FileManager, as torchlint's CLI and language server do) or when the
/// process ends (the default: clang-tidy keeps one FileManager for all the files of its run, which
/// would take a new folder's headers for removed ones that had the same inodes).
void setSynthesisFoldersRemovedWithTheirTU(bool On);

/// True when Loc lies in an expression that contains errors (clang's RecoveryExpr and everything
/// built on it: a call whose callee, argument or object has an unknown type) or in an invalid
/// declaration. Only TUs with errors pay for it.
bool restsOnErrors(clang::ASTContext &Ctx, clang::SourceLocation Loc);
/// True when the user code of the function around Loc (Function) or of the whole TU contains
/// code with errors: a finding that says "X is missing" cannot be trusted there, since X may be
/// in the code that could not be typed.
bool scopeHasErrors(clang::ASTContext &Ctx, clang::SourceLocation Loc, bool WholeTU);
/// True when the innermost function around Loc holds code with compiler errors; code typed only
/// through synthesised declarations is complete and does not count. Not in a function: the TU.
bool functionHasRealErrors(clang::ASTContext &Ctx, clang::SourceLocation Loc);
/// True when code with compiler errors could change how the statement At runs in its function
/// (a guard declared before it that torchlint cannot see): an error in a statement before At in a
/// block around it, a statement clang dropped there, or an error in an expression At is part of.
/// Errors inside an earlier block, branch or loop (a guard there ends with it), after At, or in
/// the function's signature do not count (issue 24: the scope of distrust is the code that rests
/// on the error; OpenSpiel's episode loop holds an ambiguous call in its chance-node branch).
bool errorsCouldCover(clang::ASTContext &Ctx, const clang::Stmt *At);
/// True when a function holding code with compiler errors (or such code outside any function)
/// names one of Names as an identifier in its text: it may call that function where nothing sees
/// it (inside a guard, say).
bool erroneousCodeNames(clang::ASTContext &Ctx, llvm::ArrayRef<std::string> Names);

/// An expression typed only through synthesised declarations (Synthesis.h): its value is unknown.
bool isSynthesizedExpr(const clang::Expr *E);
/// True when code with errors names declaration D (a variable, parameter or field), or code typed
/// only through synthesised declarations is given it: what D holds may be set there, unseen.
/// A check whose finding says something is absent asks it of the declarations it rests on.
bool declRestsOnErrors(clang::ASTContext &Ctx, const clang::Decl *D);
/// True when the innermost function around Loc (the TU, outside functions) holds a statement that
/// clang dropped for its errors (it named an unknown namespace): what it named is not known.
bool functionHasDroppedCode(clang::ASTContext &Ctx, clang::SourceLocation Loc);

/// The scope of distrust of a finding that says something is absent, narrowed to what it rests
/// on (issue 24): true when any of Evidence (the expressions the finding follows: a module's
/// construction, its options, the variable used) has errors or names a declaration that code
/// with errors names or that unknown code is given (declRestsOnErrors), or names a variable or
/// field and the function around it holds a statement clang dropped. Code elsewhere in the file
/// with errors does not matter. A check that asks it keeps TorchCheck::evidence() at Expression.
bool evidenceRestsOnErrors(clang::ASTContext &Ctx, std::initializer_list<const clang::Stmt *> Evidence);

/// The user's functions that hold code with compiler errors (code typed only through synthesised
/// declarations is not counted: it is judged), as "name() (line N)" at their locations.
std::vector<std::pair<clang::SourceLocation, std::string>> unjudgedFunctions(clang::ASTContext &Ctx);
/// Reports once per TU, as a compiler error at the first of them, which functions hold code that
/// was not judged ("" UnjudgedText "main() (line 40), Logger::log() (logger.hpp:88)": a line of the
/// main file, or a header's name and line); nothing when none.
void reportUnjudgedCode(clang::ASTContext &Ctx);
extern const char *const UnjudgedText;

/// The folder of the stand-in headers: $TORCHLINT_STAND_INS, else <prefix>/share/torchlint/stand-ins
/// of an installed binary or plugin, else <torchlintHome()>/stand-ins.
std::string standInDirectory();
/// The end of the message of an include served by a stand-in.
extern const char *const StandInUsedText;
/// The end of the message of a libtorch header missing from a libtorch whose other headers were
/// found (`torch/linalg.h` with the 2.x headers): a missing header like any other, not "libtorch
/// not found".
extern const char *const LibtorchOtherVersionText;

/// "'spdlog/spdlog.h' file not found" -> "spdlog/spdlog.h"
std::optional<std::string> missingHeaderOf(llvm::StringRef CompilerMessage);

/// R holds the results of one TU (main file MainFile). When headers were missing, folds its
/// compiler errors (consequences of the missing headers) into one input problem
/// (RunResult::Errors): "'<file>': analysed partially: headers not found: ...". A missing libtorch
/// core header becomes the error that says how to point torchlint at libtorch, and the TU's
/// findings are dropped. With Strict, only the latter; a TU without missing headers is unchanged.
void foldPartialAnalysis(RunResult &R, llvm::StringRef MainFile, bool Strict);
/// The same, with the policy of issue 24 (docs/reliability.md, "Partial analysis"): a TU whose
/// every statement was typed (each missing header served by a stand-in or by synthesised
/// declarations, no other compiler error) gets a notice (RunResult::Notices), not an input
/// problem; a TU with code left unjudged gets an input problem naming the functions, or, with
/// AllowPartial (--allow-partial), a notice.
void foldPartialAnalysis(RunResult &R, llvm::StringRef MainFile, bool Strict, bool AllowPartial);

/// torch/extension.h without Python's headers (issue 24). The header a libtorch C++ extension is
/// told to include is torch/all.h (the C++ API) plus torch/python.h (pybind11 and Python.h). A
/// build without Python's include folder (a newcomer's first run, a C++-only libtorch) would drop
/// more than a thousand errors in pybind11 on the file and leave it partly unjudged. When Args
/// (a compile command's arguments, relative folders from Directory) find torch/extension.h in
/// one of their include folders or the system's (/usr/local/include, /usr/include; not with
/// -nostdinc) and Python.h in none, the path of that torch/extension.h, which
/// the front end then reads as TorchExtensionCxxPart; otherwise "".
std::string pythonlessTorchExtension(const std::vector<std::string> &Args, llvm::StringRef Directory);
/// What torch/extension.h is read as then: its C++ part.
extern const char *const TorchExtensionCxxPart;
/// The file system a TU is read through (the CLI's and the language server's): Base, plus, when
/// the TU's compile command (Args, Directory) needs it (pythonlessTorchExtension), that
/// torch/extension.h served as TorchExtensionCxxPart. Read is then set to a flag that becomes
/// true when the TU reads the header (so that only a file that reaches it gets the notice), and
/// is null otherwise.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
withPythonlessTorchExtension(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
                             const std::vector<std::string> &Args, llvm::StringRef Directory,
                             std::shared_ptr<std::atomic<bool>> &Read);
/// The notice for File when it read torch/extension.h that way.
std::string pythonlessTorchExtensionNotice(llvm::StringRef File);

/// The message for a TU that cannot find libtorch's headers.
std::string libtorchNotFoundMessage(llvm::StringRef Header);

} // namespace torchlint
