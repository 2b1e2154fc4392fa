#include "core/Catalog.h"
#include "core/InstallLayout.h"
#include "llvm/Support/Process.h"

namespace torchlint {

static const CheckInfo Table[] = {
#define TORCHLINT_CHECK(Name, Class, Level, Category, Summary, Description, Seed, Fixable, PerCall)                    \
  {Name, Class, Level, Category, Summary, Description, Seed, Fixable, PerCall},
#include "CatalogTable.inc"
#undef TORCHLINT_CHECK
};

llvm::ArrayRef<CheckInfo> catalog() { return Table; }

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &C : Table)
    if (C.Name == Name)
      return &C;
  return nullptr;
}

std::string defaultChecksGlob(int MaxLevel) {
  std::string Glob = "-*";
  for (const CheckInfo &C : Table) {
    if (C.Level == "manual")
      continue;
    if (MaxLevel == 0 && C.Level != "0")
      continue;
    Glob += ",";
    Glob += C.Name.str();
  }
  return Glob;
}

std::string torchlintHome() {
  if (auto Env = llvm::sys::Process::GetEnv("TORCHLINT_HOME"))
    return *Env;
  if (std::optional<std::string> Installed = installedDataDir()) // <prefix>/share/torchlint
    return *Installed;
  return TORCHLINT_SOURCE_DIR;
}

} // namespace torchlint
