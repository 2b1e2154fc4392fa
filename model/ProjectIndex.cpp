#include "model/ProjectIndex.h"
#include "core/SummariesJson.h"
#include "utils/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <mutex>
#include <vector>

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace torchlint::model {

bool writeIndex(llvm::StringRef Path, llvm::StringRef Database, const std::map<std::string, std::string> &Summaries,
                std::string &Err) {
  llvm::json::Value Doc = llvm::json::Object{{"format", IndexFormat},
                                             {"torchlint", TORCHLINT_VERSION},
                                             {"database", Database},
                                             {"summaries", summariesJson(Summaries)}};
  std::string Text;
  llvm::raw_string_ostream(Text) << Doc;
  AtomicWriteError E;
  if (!writeFileAtomically(Path, Text, &E)) {
    Err = "cannot write '" + (E.Step == AtomicWriteError::Write ? E.Temp : Path.str()) + "': " + E.EC.message();
    return false;
  }
  return true;
}

std::optional<std::string> findIndex(llvm::StringRef MainFile) {
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("TORCHLINT_INDEX")) {
    if (Env->empty() || *Env == "none")
      return std::nullopt;
    return *Env;
  }
  llvm::SmallString<256> Abs(MainFile);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, true);
  auto Join = [](llvm::StringRef A, llvm::StringRef B) {
    llvm::SmallString<256> P(A);
    path::append(P, B);
    return std::string(P);
  };
  for (llvm::StringRef D = path::parent_path(Abs); !D.empty(); D = path::parent_path(D)) {
    if (std::string P = Join(D, IndexFileName); fs::is_regular_file(P))
      return P;
    std::vector<std::string> Found;
    std::error_code EC;
    for (fs::directory_iterator It(D, EC), End; It != End && !EC; It.increment(EC)) {
      llvm::StringRef N = path::filename(It->path());
      if (N.starts_with("build") || N == "out" || N.starts_with("cmake-build-"))
        if (std::string P = Join(It->path(), IndexFileName); fs::is_regular_file(P))
          Found.push_back(P);
    }
    if (!Found.empty()) {
      std::sort(Found.begin(), Found.end());
      return Found.front();
    }
    if (fs::exists(Join(D, ".git")))
      break; // the repository root
  }
  return std::nullopt;
}

const ProjectModel *loadIndex(llvm::StringRef Path, std::string &Err) {
  struct Loaded {
    std::unique_ptr<ProjectModel> Model;
    std::string Err;
    llvm::sys::TimePoint<> Modified;
  };
  static std::mutex Mu;
  // Models stay alive for the process (checks hold pointers to them); a rewritten index (the
  // language server runs for hours) is read again.
  static std::map<std::string, std::vector<Loaded>> Cache;
  std::lock_guard<std::mutex> Lock(Mu);
  fs::file_status St;
  llvm::sys::TimePoint<> Modified = fs::status(Path, St) ? llvm::sys::TimePoint<>() : St.getLastModificationTime();
  std::vector<Loaded> &Versions = Cache[Path.str()];
  bool New = Versions.empty() || Versions.back().Modified != Modified;
  if (New)
    Versions.emplace_back().Modified = Modified;
  Loaded &L = Versions.back();
  if (New) {
    auto Fail = [&](const std::string &Why) { L.Err = "the project index '" + Path.str() + "' " + Why; };
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
    llvm::Expected<llvm::json::Value> V =
        Buf ? llvm::json::parse((*Buf)->getBuffer())
            : llvm::Expected<llvm::json::Value>(llvm::createStringError(Buf.getError(), "%s",
                                                                        Buf.getError().message().c_str()));
    const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
    if (!V) {
      Fail("cannot be read: " + llvm::toString(V.takeError()));
    } else if (!O || !O->getArray("summaries")) {
      Fail("is not a torchlint index");
    } else if (O->getInteger("format") != IndexFormat) {
      Fail("was written by another torchlint version (" +
           O->getString("torchlint").value_or("unknown").str() + "); run `torchlint index -p BUILD` again");
    } else {
      L.Model = std::make_unique<ProjectModel>();
      for (const llvm::json::Value &E : *O->getArray("summaries")) {
        const llvm::json::Object *EO = E.getAsObject();
        const llvm::json::Value *S = EO ? EO->get("summary") : nullptr;
        std::string File = EO && EO->getString("file") ? EO->getString("file")->str() : "?";
        L.Model->addJson(S ? *S : llvm::json::Value(nullptr), File);
      }
      L.Model->finish();
    }
  }
  Err = L.Err;
  return L.Model.get();
}

} // namespace torchlint::model
