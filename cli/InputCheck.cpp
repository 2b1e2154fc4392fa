#include "cli/InputCheck.h"
#include "cli/ProjectFlags.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "core/Catalog.h"
#include "cli/CompileDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <set>

namespace torchlint {

namespace {

std::string oneLine(llvm::StringRef S) {
  std::string Out;
  for (char C : S.trim())
    Out += (C == '\n' || C == '\r') ? ' ' : C;
  return Out;
}

std::string quoted(llvm::StringRef F) { return "'" + F.str() + "'"; }

/// The compile_commands.json the driver will read, or "" when it reads none (flags after --,
/// compile_flags.txt, or no database at all: torchlint's defaults).
std::string jsonDatabasePath(const std::vector<std::string> &Inputs, const InputCheckOptions &Opts,
                             std::string &Error) {
  namespace fs = llvm::sys::fs;
  if (Opts.HaveFixedFlags)
    return "";
  if (!Opts.BuildPath.empty()) {
    const std::string &B = Opts.BuildPath;
    if (!fs::exists(B)) {
      Error = quoted(B) + ": no such build directory or compilation database (-p); no file analysed";
      return "";
    }
    if (!fs::is_directory(B)) {
      if (llvm::sys::path::filename(B) == "compile_commands.json")
        return B;
      if (llvm::sys::path::filename(B) != "compile_flags.txt")
        Error = quoted(B) + ": -p takes a build directory, a compile_commands.json or a "
                            "compile_flags.txt; no file analysed";
      return "";
    }
    llvm::SmallString<256> P(B), T(B);
    llvm::sys::path::append(P, "compile_commands.json");
    llvm::sys::path::append(T, "compile_flags.txt");
    if (fs::exists(P))
      return std::string(P);
    if (!fs::exists(T))
      Error = quoted(B) + ": no compile_commands.json or compile_flags.txt in this directory (-p); "
                          "no file analysed";
    return "";
  }
  if (Inputs.empty())
    return "";
  // Where the driver looks (cli/ProjectFlags.h: where clangd does); a compile_flags.txt is not checked.
  std::string Found = findCompileDatabase(Inputs.front()).Path;
  return llvm::sys::path::filename(Found) == "compile_commands.json" ? Found : "";
}

/// The compile_commands.json at DBPath, loaded without interpolation (to see which files really
/// have a command), or null with Error set (one line: it cannot be parsed, or it has no entries).
std::shared_ptr<const clang::tooling::JSONCompilationDatabase> loadJsonDatabase(const std::string &DBPath,
                                                                                std::string &Error) {
  std::string Err;
  auto Raw = jsonDatabase(DBPath, Err); // the parse the driver and the discovery share (CompileDatabase.h)
  if (!Raw)
    Error = quoted(DBPath) + ": cannot read the compilation database: " + oneLine(Err) + "; no file analysed";
  else if (Raw->getAllCompileCommands().empty())
    Error = quoted(DBPath) + ": the compilation database has no entries; no file analysed";
  else
    return Raw;
  return nullptr;
}

} // namespace

std::vector<std::string> checkInputs(const std::vector<std::string> &Files, const InputCheckOptions &Opts,
                                     RunResult &R) {
  namespace fs = llvm::sys::fs;
  std::vector<std::string> Inputs, Given; // absolute; as the user wrote it
  std::set<std::string> Seen;
  for (const std::string &F : Files) {
    fs::file_status St;
    if (std::error_code EC = fs::status(F, St)) {
      R.Errors.push_back(quoted(F) + ": " +
                         (EC == std::errc::no_such_file_or_directory ? "no such file" : EC.message()));
      continue;
    }
    if (St.type() == fs::file_type::directory_file) {
      R.Errors.push_back(quoted(F) + ": is a directory; pass the source files (or -p with a build directory)");
      continue;
    }
    if (St.type() != fs::file_type::regular_file) {
      R.Errors.push_back(quoted(F) + ": not a regular file; not analysed");
      continue;
    }
    // Readable, and text: a NUL byte in the first 64 KiB marks a binary file (as git and grep do).
    int FD;
    if (std::error_code EC = fs::openFileForRead(F, FD)) {
      R.Errors.push_back(quoted(F) + ": cannot read: " + EC.message());
      continue;
    }
    char Buf[65536];
    llvm::Expected<size_t> N =
        fs::readNativeFileSlice(fs::convertFDToNativeFile(FD), llvm::MutableArrayRef<char>(Buf, sizeof Buf), 0);
    fs::closeFile(FD);
    if (!N) {
      R.Errors.push_back(quoted(F) + ": cannot read: " + llvm::toString(N.takeError()));
      continue;
    }
    if (llvm::StringRef(Buf, *N).contains('\0')) {
      R.Errors.push_back(quoted(F) + ": binary file (contains NUL bytes); not analysed");
      continue;
    }
    llvm::SmallString<256> Abs(F);
    fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, true);
    if (Seen.insert(std::string(Abs)).second) {
      Inputs.push_back(std::string(Abs));
      Given.push_back(F);
    }
  }

  std::string DBError;
  std::string DBPath = jsonDatabasePath(Inputs, Opts, DBError);
  if (!DBError.empty()) {
    R.Errors.push_back(DBError);
    return {};
  }
  if (DBPath.empty() || Inputs.empty())
    return Inputs;
  std::string Err;
  auto Raw = loadJsonDatabase(DBPath, Err);
  if (!Raw) {
    R.Errors.push_back(Err);
    return {};
  }
  std::vector<std::string> Known;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const std::string &F = Inputs[I];
    if (Raw->getCompileCommands(F).empty())
      R.Errors.push_back(quoted(Given[I]) + ": not in the compilation database " + quoted(DBPath) +
                         "; not analysed (its flags would be guessed from another file)");
    else
      Known.push_back(F);
  }
  return Known;
}

std::string buildPathProblem(const std::string &BuildPath) {
  if (BuildPath.empty())
    return "";
  std::string Error;
  std::string DBPath = jsonDatabasePath({}, {BuildPath, false}, Error);
  if (!Error.empty() || DBPath.empty())
    return Error;
  std::string Err;
  return loadJsonDatabase(DBPath, Err) ? "" : Err;
}

std::vector<std::string> unknownCheckNames(llvm::StringRef Glob) {
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef> Parts;
  Glob.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    P.consume_front("-");
    P = P.trim();
    if (P.empty() || P.contains('*') || !P.starts_with("torch-"))
      continue;
    if (!findCheck(P))
      Out.push_back(P.str());
  }
  return Out;
}

std::vector<std::string> unknownChecksInConfigFiles(const std::vector<std::string> &Files) {
  using namespace clang::tidy;
  std::vector<std::string> Out;
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  FileOptionsProvider Provider(ClangTidyGlobalOptions(), Defaults, ClangTidyOptions(), llvm::vfs::getRealFileSystem());
  std::set<std::pair<std::string, std::string>> Done;
  std::set<std::string> Dirs;
  for (const std::string &F : Files) {
    if (!Dirs.insert(llvm::sys::path::parent_path(F).str()).second)
      continue; // the same directory sees the same configuration
    for (const auto &[Opts, Source] : Provider.getRawOptions(F)) {
      if (!Opts.Checks || Source == FileOptionsProvider::OptionsSourceTypeDefaultBinary)
        continue;
      for (const std::string &Name : unknownCheckNames(*Opts.Checks))
        if (Done.insert({Source, Name}).second)
          Out.push_back("unknown check '" + Name + "' in " + Source + "; see --list-checks");
    }
  }
  return Out;
}

void collapseCompilerErrors(RunResult &R) {
  std::map<std::string, std::pair<size_t, unsigned>> First; // file -> (index, more)
  unsigned TooMany = 0;
  std::vector<Finding> Kept;
  Kept.reserve(R.Findings.size());
  for (Finding &F : R.Findings) {
    if (!F.isCompilerError()) {
      Kept.push_back(std::move(F));
      continue;
    }
    // "too many errors emitted, stopping now" (no location) only says that more were dropped.
    if (F.File.empty() && llvm::StringRef(F.Message).starts_with("too many errors emitted")) {
      ++TooMany;
      continue;
    }
    auto [It, New] = First.try_emplace(F.File, Kept.size(), 0u);
    if (New)
      Kept.push_back(std::move(F));
    else
      ++It->second.second;
  }
  for (auto &[File, IM] : First)
    if (IM.second || TooMany)
      Kept[IM.first].Message += " (and " + std::to_string(IM.second) + (TooMany ? " or more" : " more") + " error" +
                                (IM.second == 1 && !TooMany ? "" : "s") + " in this file)";
  R.Findings = std::move(Kept);
}

} // namespace torchlint
