// The JSON array of project-model summaries that a project-mode shard's report (JSON "summaries",
// SARIF run property "torchlint/summaries") and the project index (model/ProjectIndex) carry:
// [{"file": path, "summary": <the TU's summary JSON>}...]. Written once here, below both report/
// and model/, so both write the same bytes.
#pragma once
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace torchlint {

/// The entries of Summaries (pairs of a file and its summary as JSON text: RunResult::Summaries,
/// the CLI's map), in their order. A summary that is not JSON is left out (a reader would leave it
/// out anyway).
template <typename Range> llvm::json::Array summariesJson(const Range &Summaries) {
  llvm::json::Array A;
  for (const auto &[File, Text] : Summaries) {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
    if (!V) {
      llvm::consumeError(V.takeError());
      continue;
    }
    A.push_back(llvm::json::Object{{"file", File}, {"summary", std::move(*V)}});
  }
  return A;
}

} // namespace torchlint
