#include "utils/AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace torchlint {

bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text, AtomicWriteError *Err,
                         llvm::function_ref<bool(llvm::StringRef Temp)> BeforeRename) {
  auto Fail = [&](AtomicWriteError::StepKind Step, llvm::StringRef Temp, std::error_code EC) {
    if (!Temp.empty())
      llvm::sys::fs::remove(Temp);
    if (Err)
      *Err = {Step, Temp.str(), EC};
    return false;
  };
  llvm::SmallString<256> Model(Path);
  Model += AtomicTempSuffix;
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return Fail(AtomicWriteError::CreateTemp, "", EC);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error(); // or the stream's destructor aborts
      return Fail(AtomicWriteError::Write, Temp, EC);
    }
  }
  if (BeforeRename && !BeforeRename(Temp))
    return Fail(AtomicWriteError::Abandoned, Temp, std::error_code());
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
    return Fail(AtomicWriteError::Rename, Temp, EC);
  return true;
}

} // namespace torchlint
