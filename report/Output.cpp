#include "core/Catalog.h"
#include "core/Findings.h"
#include "report/ReportCommon.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace torchlint {

unsigned RunResult::findingCount() const {
  unsigned N = 0;
  for (const Finding &F : Findings)
    if (!F.isCompilerError())
      ++N;
  return N;
}

bool RunResult::hasErrors() const {
  if (!Errors.empty())
    return true;
  for (const Finding &F : Findings)
    if (F.isCompilerError())
      return true;
  return false;
}

int RunResult::exitCode() const { return (findingCount() ? 1 : 0) | (hasErrors() ? 2 : 0); }

void RunResult::sort() {
  auto Key = [](const Finding &F) { return std::tie(F.File, F.Line, F.Column, F.Check, F.Message); };
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) { return Key(A) == Key(B); }),
                 Findings.end());
}

namespace {
struct FileCache {
  std::mutex M;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
  // Offsets at which each line starts, built once per file: a position lookup is a binary search,
  // not a scan from the start of the file (10,000 findings in one file would be quadratic).
  std::map<const llvm::MemoryBuffer *, std::vector<unsigned>> LineStarts;
  const std::vector<unsigned> &lines(const llvm::MemoryBuffer *B) {
    std::lock_guard<std::mutex> L(M);
    auto [It, New] = LineStarts.try_emplace(B);
    if (New) {
      llvm::StringRef Text = B->getBuffer();
      It->second.push_back(0);
      for (size_t I = Text.find('\n'); I != llvm::StringRef::npos; I = Text.find('\n', I + 1))
        It->second.push_back(unsigned(I + 1));
    }
    return It->second;
  }
  const llvm::MemoryBuffer *get(llvm::StringRef Path) {
    std::lock_guard<std::mutex> L(M);
    auto It = Files.find(Path.str());
    if (It != Files.end())
      return It->second.get();
    auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    auto &Slot = Files[Path.str()];
    if (B)
      Slot = std::move(*B);
    return Slot.get();
  }
};
FileCache &fileCache() {
  static FileCache C;
  return C;
}
} // namespace

bool offsetToLineColumn(llvm::StringRef File, unsigned Offset, unsigned &Line, unsigned &Column) {
  const llvm::MemoryBuffer *B = fileCache().get(File);
  if (!B || Offset > B->getBufferSize())
    return false;
  const std::vector<unsigned> &Starts = fileCache().lines(B);
  size_t Index = std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin(); // >= 1
  Line = unsigned(Index);
  Column = 1 + Offset - Starts[Index - 1];
  return true;
}

std::string sourceLine(llvm::StringRef File, unsigned Line) {
  const llvm::MemoryBuffer *B = fileCache().get(File);
  if (!B || Line == 0)
    return {};
  const std::vector<unsigned> &Starts = fileCache().lines(B);
  if (Line > Starts.size())
    return {};
  llvm::StringRef Text = B->getBuffer().substr(Starts[Line - 1]);
  return Text.substr(0, Text.find('\n')).rtrim("\r").str();
}

static void caretLines(llvm::raw_ostream &OS, llvm::StringRef File, unsigned Line, unsigned Column, bool Color) {
  std::string Src = sourceLine(File, Line);
  if (Src.empty())
    return;
  OS << Src << "\n";
  std::string Pad;
  for (unsigned I = 1; I < Column && I - 1 < Src.size(); ++I)
    Pad += Src[I - 1] == '\t' ? '\t' : ' ';
  OS << Pad;
  if (Color)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << "^";
  if (Color)
    OS.resetColor();
  OS << "\n";
}

void writeText(llvm::raw_ostream &OS, const RunResult &R, bool Color) {
  auto Header = [&](llvm::StringRef File, unsigned Line, unsigned Col, llvm::StringRef Level, llvm::StringRef Msg,
                    llvm::StringRef Check) {
    if (Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    OS << File << ":" << Line << ":" << Col << ": ";
    if (Color)
      OS.changeColor(Level == "error" || Level == "fatal" ? llvm::raw_ostream::RED
                     : Level == "warning"                 ? llvm::raw_ostream::MAGENTA
                                                          : llvm::raw_ostream::CYAN,
                     true);
    OS << Level << ": ";
    if (Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    OS << Msg;
    if (!Check.empty())
      OS << " [" << Check << "]";
    if (Color)
      OS.resetColor();
    OS << "\n";
  };
  for (const std::string &E : R.Errors) {
    if (Color)
      OS.changeColor(llvm::raw_ostream::RED, true);
    OS << "torchlint: error: ";
    if (Color)
      OS.resetColor();
    OS << E << "\n";
  }
  for (const std::string &N : R.Notices)
    OS << "torchlint: note: " << N << "\n";
  for (const Finding &F : R.Findings) {
    Header(F.File, F.Line, F.Column, F.Level, F.Message, F.Check);
    caretLines(OS, F.File, F.Line, F.Column, Color);
    for (const Note &N : F.Notes) {
      Header(N.File, N.Line, N.Column, "note", N.Message, "");
      caretLines(OS, N.File, N.Line, N.Column, Color);
    }
  }
  unsigned N = R.findingCount();
  if (N)
    OS << N << (N == 1 ? " finding" : " findings") << " in " << R.FilesAnalyzed
       << (R.FilesAnalyzed == 1 ? " file" : " files") << ".\n";
}

static llvm::json::Value fixesJson(const std::vector<Replacement> &Fixes) {
  llvm::json::Array A;
  for (const Replacement &Rp : Fixes)
    A.push_back(
        llvm::json::Object{{"file", Rp.File}, {"offset", Rp.Offset}, {"length", Rp.Length}, {"replacement", Rp.Text}});
  return A;
}

void writeJson(llvm::raw_ostream &OS, const RunResult &R) {
  llvm::json::Array Fs;
  for (const Finding &F : R.Findings) {
    llvm::json::Array Notes;
    for (const Note &N : F.Notes)
      Notes.push_back(llvm::json::Object{
          {"message", N.Message}, {"file", N.File}, {"line", N.Line}, {"column", N.Column}, {"offset", N.Offset}});
    Fs.push_back(llvm::json::Object{{"check", F.Check},
                                    {"level", F.Level},
                                    {"message", F.Message},
                                    {"file", F.File},
                                    {"line", F.Line},
                                    {"column", F.Column},
                                    {"offset", F.Offset},
                                    {"notes", std::move(Notes)},
                                    {"fixes", fixesJson(F.Fixes)},
                                    {"fingerprint", F.Fingerprint}});
  }
  llvm::json::Array Errs, Notices;
  for (const std::string &E : R.Errors)
    Errs.push_back(E);
  for (const std::string &N : R.Notices)
    Notices.push_back(N);
  llvm::json::Object Root{{"tool", "torchlint"},
                          {"version", TORCHLINT_VERSION},
                          {"files_analyzed", R.FilesAnalyzed},
                          {"findings", std::move(Fs)},
                          {"errors", std::move(Errs)},
                          {"notices", std::move(Notices)}};
  if (!R.Summaries.empty())
    Root["summaries"] = summariesJson(R.Summaries);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
}

bool readJson(llvm::StringRef Text, RunResult &Out, std::string &Err) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    Err = llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *Root = V->getAsObject();
  if (!Root) {
    Err = "not a JSON object";
    return false;
  }
  if (auto N = Root->getInteger("files_analyzed"))
    Out.FilesAnalyzed += static_cast<unsigned>(*N);
  auto Str = [](const llvm::json::Object *O, llvm::StringRef K) {
    auto S = O->getString(K);
    return S ? S->str() : std::string();
  };
  auto Num = [](const llvm::json::Object *O, llvm::StringRef K) {
    auto S = O->getInteger(K);
    return S ? static_cast<unsigned>(*S) : 0u;
  };
  if (const auto *Fs = Root->getArray("findings"))
    for (const llvm::json::Value &FV : *Fs) {
      const llvm::json::Object *O = FV.getAsObject();
      if (!O)
        continue;
      Finding F;
      F.Check = Str(O, "check");
      F.Level = Str(O, "level");
      F.Message = Str(O, "message");
      F.File = Str(O, "file");
      F.Line = Num(O, "line");
      F.Column = Num(O, "column");
      F.Offset = Num(O, "offset");
      F.Fingerprint = Str(O, "fingerprint");
      if (const auto *Ns = O->getArray("notes"))
        for (const llvm::json::Value &NV : *Ns)
          if (const auto *NO = NV.getAsObject())
            F.Notes.push_back(
                {Str(NO, "message"), Str(NO, "file"), Num(NO, "line"), Num(NO, "column"), Num(NO, "offset")});
      if (const auto *Xs = O->getArray("fixes"))
        for (const llvm::json::Value &XV : *Xs)
          if (const auto *XO = XV.getAsObject())
            F.Fixes.push_back({Str(XO, "file"), Num(XO, "offset"), Num(XO, "length"), Str(XO, "replacement")});
      Out.Findings.push_back(std::move(F));
    }
  if (const auto *Es = Root->getArray("errors"))
    for (const llvm::json::Value &E : *Es)
      if (auto S = E.getAsString())
        Out.Errors.push_back(S->str());
  if (const auto *Ns = Root->getArray("notices"))
    for (const llvm::json::Value &N : *Ns)
      if (auto S = N.getAsString())
        Out.Notices.push_back(S->str());
  if (const auto *Ss = Root->getArray("summaries"))
    readSummaries(*Ss, Out);
  return true;
}

// writeSarif and readSarif: Sarif.cpp.

void writeYaml(llvm::raw_ostream &OS, const RunResult &R, llvm::StringRef MainFile) {
  clang::tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError())
      continue;
    clang::tooling::DiagnosticMessage M;
    M.Message = F.Message;
    M.FilePath = F.File;
    M.FileOffset = F.Offset;
    for (const Replacement &Rp : F.Fixes)
      llvm::consumeError(M.Fix[Rp.File].add(clang::tooling::Replacement(Rp.File, Rp.Offset, Rp.Length, Rp.Text)));
    clang::tooling::Diagnostic D(
        F.Check, M, {}, F.Level == "warning" ? clang::tooling::Diagnostic::Warning : clang::tooling::Diagnostic::Remark,
        "");
    TUD.Diagnostics.push_back(std::move(D));
  }
  llvm::yaml::Output Y(OS);
  Y << TUD;
}

} // namespace torchlint
