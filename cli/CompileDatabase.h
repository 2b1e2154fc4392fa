// One parse of each compile_commands.json per process. The input checks (cli/InputCheck.h: which
// files have a command), the discovery (cli/ProjectFlags.h findCompileDatabase: which build
// folder lists the file) and the driver's database (cli/Driver.cpp makeDatabase) all read it
// here: a database of 10,000 entries is parsed once at start-up, not three or four times. The
// language server (lsp/) reads it here too, and gets a new parse when the file changes.
#pragma once
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace torchlint {

/// The compile_commands.json at Path as written (no commands inferred for files it does not
/// list), parsed on the first call for Path and shared by the later ones while the file is
/// unchanged (its time and size: the language server sees a re-run of CMake); null with Err set
/// when it cannot be read or parsed (also remembered while the file is unchanged).
std::shared_ptr<const clang::tooling::JSONCompilationDatabase> jsonDatabase(llvm::StringRef Path, std::string &Err);

/// The shared parse of the compile_commands.json at Path as a database of its own (LLVM's wrappers
/// own the database they wrap); null with Err set.
std::unique_ptr<clang::tooling::CompilationDatabase> jsonDatabaseAsWritten(llvm::StringRef Path, std::string &Err);

/// What clang's CompilationDatabase::loadFromDirectory makes of the compile_commands.json at Path
/// (commands inferred for files it does not list, response files expanded, target and driver
/// mode from the compiler's name), built on the shared parse; null with Err set.
std::unique_ptr<clang::tooling::CompilationDatabase> interpolatedJsonDatabase(llvm::StringRef Path, std::string &Err);

/// How many times this process has parsed a compile_commands.json (--accel-log says it).
unsigned jsonDatabaseParses();

} // namespace torchlint
