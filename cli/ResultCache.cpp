#include "cli/ResultCache.h"
#include "cli/PchCache.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "utils/AtomicFile.h"
#include "utils/JsonFile.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace torchlint {

std::string defaultCacheDir() {
  if (auto D = sys::Process::GetEnv("TORCHLINT_CACHE_DIR"))
    if (!D->empty())
      return *D;
  SmallString<256> P;
  if (auto X = sys::Process::GetEnv("XDG_CACHE_HOME"); X && !X->empty())
    P = *X;
  else if (!sys::path::home_directory(P))
    P = sys::path::get_separator() == "/" ? "/tmp" : ".";
  else
    sys::path::append(P, ".cache");
  sys::path::append(P, "torchlint");
  return std::string(P);
}

namespace {

int64_t mtimeNs(const sys::fs::file_status &St) {
  return static_cast<int64_t>(St.getLastModificationTime().time_since_epoch().count());
}

bool hashFile(StringRef Path, uint64_t &H) {
  auto B = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return false;
  H = xxh3_64bits((*B)->getBuffer());
  return true;
}

/// The torchlint binary: a rebuilt binary (new or changed checks) must not reuse old results.
std::string selfIdentity() {
  static std::string Id = [] {
    std::string Self = sys::fs::getMainExecutable("torchlint", (void *)&selfIdentity);
    sys::fs::file_status St;
    if (sys::fs::status(Self, St))
      return Self;
    return Self + ":" + std::to_string(St.getSize()) + ":" + std::to_string(mtimeNs(St));
  }();
  return Id;
}

} // namespace

std::string ResultCache::key(const clang::tooling::CompilationDatabase &DB, StringRef File,
                             const clang::tidy::ClangTidyOptions &Effective) const {
  BLAKE3 H;
  auto Feed = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Feed("torchlint-result-2"); // 2: the compiler found in PATH
  Feed(TORCHLINT_VERSION);
  Feed(LLVM_VERSION_STRING);
  Feed(selfIdentity());
  Feed(File);
  uint64_t Content = 0;
  if (!hashFile(File, Content))
    return {};
  Feed(std::to_string(Content));
  for (const clang::tooling::CompileCommand &C : DB.getCompileCommands(File)) {
    Feed(C.Directory);
    Feed(C.Filename);
    for (const std::string &A : C.CommandLine)
      Feed(A);
    // A compiler named without a folder: the one PATH finds now (Accel.cpp runs that one).
    if (!C.CommandLine.empty())
      Feed(resolveCompiler(C.CommandLine.front()));
  }
  Feed(clang::tidy::configurationAsText(Effective));
  return toHex(H.final<16>(), /*LowerCase=*/true);
}

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> P(Dir);
  sys::path::append(P, "results", Key.substr(0, 2), Key + ".json");
  return std::string(P);
}

bool ResultCache::lookup(StringRef Key, RunResult &Out, std::string *Summary) const {
  if (Key.empty())
    return false;
  std::optional<json::Value> V = readJsonFile(entryPath(Key));
  if (!V)
    return false;
  const json::Object *O = V->getAsObject();
  const json::Array *Deps = O ? O->getArray("deps") : nullptr;
  auto Result = O ? O->getString("result") : std::nullopt;
  if (!Deps || !Result)
    return false;
  auto Sum = O->getString("summary");
  if (Summary && !Sum)
    return false; // analysed without the project model: analyse again
  // A header that was missing is there now: the analysis would differ.
  if (const json::Array *Absent = O->getArray("absent"))
    for (const json::Value &A : *Absent) {
      auto P = A.getAsString();
      if (!P || sys::fs::exists(*P))
        return false;
    }
  for (const json::Value &D : *Deps) {
    const json::Array *T = D.getAsArray();
    if (!T || T->size() != 4)
      return false;
    auto Path = (*T)[0].getAsString();
    auto Size = (*T)[1].getAsInteger(), MTime = (*T)[2].getAsInteger();
    auto Hash = (*T)[3].getAsString();
    if (!Path || !Size || !MTime || !Hash)
      return false;
    sys::fs::file_status St;
    if (sys::fs::status(*Path, St) || static_cast<int64_t>(St.getSize()) != *Size)
      return false;
    if (mtimeNs(St) == *MTime)
      continue;
    uint64_t H;
    if (!hashFile(*Path, H) || utohexstr(H) != *Hash)
      return false;
  }
  RunResult R;
  std::string Err;
  if (!readJson(*Result, R, Err))
    return false;
  if (Summary)
    *Summary = Sum->str();
  Out.FilesAnalyzed += R.FilesAnalyzed;
  for (Finding &F : R.Findings)
    Out.Findings.push_back(std::move(F));
  for (std::string &E : R.Errors)
    Out.Errors.push_back(std::move(E));
  for (std::string &N : R.Notices)
    Out.Notices.push_back(std::move(N));
  return true;
}

void ResultCache::store(StringRef Key, const RunResult &R, ArrayRef<std::string> Deps, ArrayRef<std::string> Absent,
                        StringRef Summary) const {
  // Compiler errors and partial analyses are results as well: what the TU read is in Deps, and
  // every header it missed is in Absent, where it would be found once installed.
  if (Key.empty())
    return;
  json::Array A;
  for (const std::string &D : Deps) {
    sys::fs::file_status St;
    uint64_t H;
    if (sys::fs::status(D, St) || !hashFile(D, H))
      return; // a file that vanished while we ran: do not cache
    A.push_back(json::Array{D, static_cast<int64_t>(St.getSize()), mtimeNs(St), utohexstr(H)});
  }
  std::string Result;
  {
    raw_string_ostream OS(Result);
    writeJson(OS, R);
  }
  std::string Path = entryPath(Key);
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return;
  json::Array Abs;
  for (const std::string &P : Absent) {
    if (sys::fs::exists(P))
      return; // installed while we ran
    Abs.push_back(P);
  }
  json::Object Entry{{"deps", std::move(A)}, {"absent", std::move(Abs)}, {"result", Result}};
  if (!Summary.empty())
    Entry["summary"] = Summary.str();
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Entry));
  writeFileAtomically(Path, Text); // when it fails, the next run analyses the file again
}

} // namespace torchlint
