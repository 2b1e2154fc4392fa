#include "cli/Progress.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace torchlint {

Progress::Progress(unsigned Total, bool Allowed) : Total(Total), Start(std::chrono::steady_clock::now()) {
  auto Env = llvm::sys::Process::GetEnv("TORCHLINT_PROGRESS");
  Enabled = Allowed && (Env ? *Env == "1" : llvm::sys::Process::StandardErrIsDisplayed());
}

void Progress::update(unsigned Done, unsigned Findings, bool FindingsKnown) {
  if (!Enabled)
    return;
  double Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::string Eta = "--:--";
  if (Done > 0 && Done < Total) {
    unsigned S = static_cast<unsigned>(Elapsed / Done * (Total - Done) + 0.5);
    Eta = llvm::formatv("{0}:{1:d2}", S / 60, S % 60).str();
  } else if (Done >= Total) {
    Eta = "0:00";
  }
  llvm::errs() << "\r\x1b[K" << llvm::formatv("torchlint: {0}/{1} files", Done, Total);
  if (FindingsKnown)
    llvm::errs() << llvm::formatv(", {0} finding{1}", Findings, Findings == 1 ? "" : "s");
  llvm::errs() << ", ETA " << Eta;
  llvm::errs().flush();
  Shown = true;
}

void Progress::finish() {
  if (Enabled && Shown) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
  Shown = false;
}

void appendProgress(llvm::StringRef File, unsigned Findings) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC, llvm::sys::fs::OF_Append);
  if (!EC)
    OS << "1 " << Findings << "\n";
}

void readProgress(llvm::StringRef File, unsigned &Done, unsigned &Findings) {
  auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false,
                                       /*IsVolatile=*/true);
  if (!B)
    return;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*B)->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines) {
    auto [D, F] = L.split(' ');
    unsigned DN = 0, FN = 0;
    if (D.getAsInteger(10, DN) || F.trim().getAsInteger(10, FN))
      continue; // a line being written
    Done += DN;
    Findings += FN;
  }
}

} // namespace torchlint
