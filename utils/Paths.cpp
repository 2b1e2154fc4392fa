#include "utils/Paths.h"
#include "llvm/Support/Path.h"

namespace torchlint {

namespace {
llvm::StringRef withoutTrailingSeparators(llvm::StringRef Dir) {
  while (Dir.size() > 1 && llvm::sys::path::is_separator(Dir.back()))
    Dir = Dir.drop_back();
  return Dir;
}
} // namespace

bool isWithin(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty())
    return false;
  Dir = withoutTrailingSeparators(Dir);
  if (!Path.starts_with(Dir) || Path.size() <= Dir.size())
    return false;
  // The root folder "/" ends in its separator already.
  if (llvm::sys::path::is_separator(Dir.back()))
    return true;
  return llvm::sys::path::is_separator(Path[Dir.size()]) && Path.size() > Dir.size() + 1;
}

bool isSameOrWithin(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty())
    return false;
  return withoutTrailingSeparators(Path) == withoutTrailingSeparators(Dir) || isWithin(Path, Dir);
}

} // namespace torchlint
