// The project index (issue 23): the summaries of every translation unit of a compile database in
// one file, `torchlint-index.json`, written by `torchlint index -p BUILD` beside the compile
// database. The clang-tidy plugin and the language server, which see one TU at a time, read it
// and decide what runs per training step from the whole project, as the CLI's project mode does
// (checkbase/TorchCheck.cpp); without one they decide from the TU alone and say so once.
//
// The file: {"format": IndexFormat, "torchlint": version, "database": path, "summaries":
// [{"file": path, "summary": <TUSummary JSON>}...]}. The model is merged when the file is read
// (milliseconds); a summary of another format is left out with a note, as in the CLI.
#pragma once
#include "model/ProjectModel.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>

namespace torchlint::model {

constexpr int IndexFormat = 1;
constexpr llvm::StringLiteral IndexFileName = "torchlint-index.json";

/// Writes the index of Summaries (file -> the TU's summary as JSON text) to Path, atomically (a
/// temporary file renamed over it). False with Err set when it cannot be written.
bool writeIndex(llvm::StringRef Path, llvm::StringRef Database, const std::map<std::string, std::string> &Summaries,
                std::string &Err);

/// The index that covers MainFile: $TORCHLINT_INDEX when set ("none": no index), else a
/// torchlint-index.json in the file's folder or a folder above it, or in their build*/, out/ or
/// cmake-build-*/ folders (where compile databases are found, cli/ProjectFlags.h), up to the
/// repository root (a folder holding .git). nullopt when there is none.
std::optional<std::string> findIndex(llvm::StringRef MainFile);

/// The merged model of the index at Path, read once per process; null with Err set when it
/// cannot be read or is of another format. Notes (summaries left out) are in the model's notes().
const ProjectModel *loadIndex(llvm::StringRef Path, std::string &Err);

} // namespace torchlint::model
