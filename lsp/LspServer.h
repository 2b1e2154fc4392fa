// `torchlint lsp`: a Language Server Protocol 3.17 server over stdio that runs beside clangd and
// publishes torchlint's findings (diagnostics with the check's page, notes, fix-its as quick fixes,
// NOLINT suppression) for the documents the editor has open, analysed from the editor's buffers.
// See docs/editors.md.
#pragma once

namespace torchlint {

/// argv[0] is "lsp"; the options are described by `torchlint lsp --help`. Returns the process exit
/// code (0 after shutdown and exit, 1 on exit without shutdown or at end of input without exit).
int lspMain(int argc, const char **argv);

} // namespace torchlint
