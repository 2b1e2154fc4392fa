// GitLab Code Quality report (--format=codequality, issue 19): a JSON array of
// {description, check_name, fingerprint, severity, location:{path, lines:{begin}}}, the subset of
// the Code Climate issue format that GitLab reads (docs.gitlab.com: ci/testing/code_quality).
#pragma once
#include "core/Findings.h"

namespace torchlint {
/// Paths are made relative to Opts.Root (GitLab wants them relative to the repository root).
void writeCodeQuality(llvm::raw_ostream &OS, const RunResult &R, const ReportOptions &Opts);
} // namespace torchlint
