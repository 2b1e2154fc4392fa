#include "report/ReportCommon.h"
#include "utils/JsonFile.h"
#include "core/Catalog.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace torchlint {

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (Root.empty())
    return Path.str();
  llvm::StringRef R = Root.rtrim('/');
  if (Path.starts_with(R) && Path.size() > R.size() + 1 && Path[R.size()] == '/')
    return Path.substr(R.size() + 1).str();
  return Path.str();
}

std::string uriEncode(llvm::StringRef Path) {
  std::string U;
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-_.~").contains(C))
      U += C;
    else
      U += llvm::formatv("%{0:X-2}", static_cast<unsigned char>(C)).str();
  }
  return U;
}

std::string uriDecode(llvm::StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned V;
    if (S[I] == '%' && I + 2 < S.size() && !S.substr(I + 1, 2).getAsInteger(16, V)) {
      Out += static_cast<char>(V);
      I += 2;
    } else {
      Out += S[I];
    }
  }
  return Out;
}

std::string fileUri(llvm::StringRef Path, bool Dir) {
  std::string U = "file://" + uriEncode(Path);
  if (Dir && (U.empty() || U.back() != '/'))
    U += '/';
  return U;
}

static const llvm::MemoryBuffer *fileBuffer(llvm::StringRef File) {
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Cache;
  auto &Slot = Cache[File.str()];
  if (!Slot)
    if (auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false))
      Slot = std::move(*B);
  return Slot.get();
}

std::vector<std::string> sourceLines(llvm::StringRef File, unsigned First, unsigned Last) {
  std::vector<std::string> Out;
  const llvm::MemoryBuffer *B = fileBuffer(File);
  if (!B || First == 0)
    return Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  B->getBuffer().split(Lines, '\n');
  for (unsigned L = First; L <= Last && L <= Lines.size(); ++L)
    Out.push_back(Lines[L - 1].rtrim("\r").str());
  return Out;
}

std::string fixDiff(const Finding &F, llvm::StringRef DisplayName) {
  if (F.Fixes.empty())
    return {};
  std::string Out;
  std::map<std::string, std::vector<Replacement>> ByFile;
  for (const Replacement &Rp : F.Fixes)
    ByFile[Rp.File].push_back(Rp);
  for (auto &[File, Reps] : ByFile) {
    const llvm::MemoryBuffer *B = fileBuffer(File);
    if (!B)
      return {};
    llvm::StringRef Text = B->getBuffer();
    std::sort(Reps.begin(), Reps.end(), [](const Replacement &A, const Replacement &B) { return A.Offset < B.Offset; });
    unsigned Begin = Reps.front().Offset, End = 0;
    for (const Replacement &Rp : Reps) {
      if (Rp.Offset + Rp.Length > Text.size())
        return {};
      End = std::max(End, Rp.Offset + Rp.Length);
    }
    // Widen to whole lines.
    size_t NL = Text.rfind('\n', Begin); // last newline before Begin
    size_t LB = NL == llvm::StringRef::npos ? 0 : NL + 1;
    size_t LE = Text.find('\n', End);
    if (LE == llvm::StringRef::npos)
      LE = Text.size();
    std::string Old = Text.slice(LB, LE).str(), New;
    unsigned Pos = LB;
    for (const Replacement &Rp : Reps) {
      if (Rp.Offset < Pos)
        return {}; // overlapping replacements: not shown
      New += Text.slice(Pos, Rp.Offset).str() + Rp.Text;
      Pos = Rp.Offset + Rp.Length;
    }
    New += Text.slice(Pos, LE).str();
    unsigned FirstLine = 1 + Text.substr(0, LB).count('\n');
    llvm::SmallVector<llvm::StringRef> OldL, NewL;
    llvm::StringRef(Old).split(OldL, '\n');
    llvm::StringRef(New).split(NewL, '\n');
    std::string Name = ByFile.size() == 1 ? DisplayName.str() : File;
    Out += "--- a/" + Name + "\n+++ b/" + Name + "\n";
    Out += llvm::formatv("@@ -{0},{1} +{0},{2} @@\n", FirstLine, OldL.size(), NewL.size()).str();
    for (llvm::StringRef L : OldL)
      Out += "-" + L.rtrim("\r").str() + "\n";
    for (llvm::StringRef L : NewL)
      Out += "+" + L.rtrim("\r").str() + "\n";
  }
  return Out;
}

std::vector<CheckCount> countByCheck(const RunResult &R) {
  std::map<std::string, CheckCount> M;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError())
      continue;
    CheckCount &C = M[F.Check];
    C.Check = F.Check;
    ++C.Total;
    (F.Level == "warning" ? C.Warnings : C.Remarks)++;
    if (!F.Fixes.empty())
      ++C.Fixable;
  }
  std::vector<CheckCount> Out;
  for (auto &KV : M)
    Out.push_back(KV.second);
  std::stable_sort(Out.begin(), Out.end(), [](const CheckCount &A, const CheckCount &B) { return A.Total > B.Total; });
  return Out;
}

std::vector<FileCount> countByFile(const RunResult &R) {
  std::map<std::string, FileCount> M;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError())
      continue;
    FileCount &C = M[F.File];
    C.File = F.File;
    ++C.Total;
    (F.Level == "warning" ? C.Warnings : C.Remarks)++;
  }
  std::vector<FileCount> Out;
  for (auto &KV : M)
    Out.push_back(KV.second);
  std::stable_sort(Out.begin(), Out.end(), [](const FileCount &A, const FileCount &B) { return A.Total > B.Total; });
  return Out;
}

std::map<std::string, ProbeResult> loadProbeResults(llvm::StringRef ProbeDir) {
  std::map<std::string, ProbeResult> Best;
  std::map<std::string, std::vector<ProbeResult>> All;
  if (ProbeDir.empty() || !llvm::sys::fs::is_directory(ProbeDir))
    return Best;
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(ProbeDir, EC), E; It != E && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".json")
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  auto isGpu = [](llvm::StringRef Device) { return !Device.empty() && !Device.starts_with_insensitive("cpu"); };
  for (const std::string &Path : Files) {
    std::optional<llvm::json::Value> V = readJsonFile(Path);
    if (!V)
      continue;
    const llvm::json::Object *Root = V->getAsObject();
    const llvm::json::Array *Cases = Root ? Root->getArray("cases") : nullptr;
    if (!Cases)
      continue;
    std::string Device = Root->getString("device").value_or("").str();
    for (const char *Key : {"gpu", "device_name"}) // optional: the GPU's name
      if (auto Name = Root->getString(Key))
        Device = Name->str();
    llvm::SmallString<256> Rel("docs/probe/");
    llvm::sys::path::append(Rel, llvm::sys::path::filename(Path));
    for (const llvm::json::Value &CV : *Cases) {
      const llvm::json::Object *C = CV.getAsObject();
      if (!C)
        continue;
      auto Check = C->getString("check");
      auto Speedup = C->getNumber("speedup");
      if (!Check || !Speedup || *Speedup <= 0)
        continue;
      if (auto Eq = C->getBoolean("equivalent"); Eq && !*Eq)
        continue;
      ProbeResult P;
      P.Check = Check->str();
      P.Case = C->getString("name").value_or("").str();
      P.Device = Device;
      P.Source = std::string(Rel);
      P.Speedup = *Speedup;
      // "counts_cited": false: counted syncs a CUDA run would not have (the probe says why).
      bool Cited = C->getBoolean("counts_cited").value_or(true);
      auto counted = [Cited](const llvm::json::Object *Side) {
        const llvm::json::Object *K = Cited && Side ? Side->getObject("counted") : nullptr;
        return K ? K->getNumber("syncs_per_step").value_or(-1) : -1;
      };
      if (const auto *B = C->getObject("before")) {
        P.BeforeMs = B->getNumber("median_ms").value_or(0);
        P.BeforeSyncs = counted(B);
      }
      if (const auto *A = C->getObject("after")) {
        P.AfterMs = A->getNumber("median_ms").value_or(0);
        P.AfterSyncs = counted(A);
      }
      All[P.Check].push_back(std::move(P));
    }
  }
  // Per check: the GPU runs if there are any, else the CPU ones; of those, the run with the median
  // speedup (the lower of the two middle ones). The highest would cite a run's noise: steps under
  // ~2 ms are set by the host's launch rate, which differs from one machine's lease to the next.
  for (auto &[Check, Runs] : All) {
    bool AnyGpu = std::any_of(Runs.begin(), Runs.end(), [&](const ProbeResult &P) { return isGpu(P.Device); });
    std::vector<ProbeResult> Pool;
    for (ProbeResult &P : Runs)
      if (isGpu(P.Device) == AnyGpu)
        Pool.push_back(std::move(P));
    std::stable_sort(Pool.begin(), Pool.end(),
                     [](const ProbeResult &A, const ProbeResult &B) { return A.Speedup < B.Speedup; });
    Best[Check] = std::move(Pool[(Pool.size() - 1) / 2]);
  }
  return Best;
}

std::string describeProbe(const ProbeResult &P) {
  std::string S = P.Speedup >= 1.0 ? llvm::formatv("measured {0:F1}x faster", P.Speedup).str()
                                   : llvm::formatv("measured {0:F2}x (no speedup)", P.Speedup).str();
  if (P.BeforeMs > 0 && P.AfterMs > 0)
    S += llvm::formatv(" ({0:F2} ms -> {1:F2} ms per step)", P.BeforeMs, P.AfterMs).str();
  if (!P.Device.empty())
    S += " on " + P.Device;
  S += " (" + P.Source + ")";
  if (P.AfterSyncs >= 0 && P.BeforeSyncs > P.AfterSyncs) {
    double D = P.BeforeSyncs - P.AfterSyncs;
    S += llvm::formatv("; removes {0} host-device sync{1} per step, counted by the probe",
                       D == double(int64_t(D)) ? llvm::formatv("{0}", int64_t(D)).str()
                                               : llvm::formatv("{0:F2}", D).str(),
                       D == 1 ? "" : "s")
             .str();
  }
  return S;
}

void readSummaries(const llvm::json::Array &A, RunResult &Out) {
  for (const llvm::json::Value &V : A) {
    const llvm::json::Object *O = V.getAsObject();
    const llvm::json::Value *S = O ? O->get("summary") : nullptr;
    std::optional<llvm::StringRef> File = O ? O->getString("file") : std::nullopt;
    if (!S || !File)
      continue;
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << *S;
    OS.flush();
    Out.Summaries.emplace_back(File->str(), std::move(Text));
  }
}

} // namespace torchlint
