// A minimal VS Code client for `torchlint lsp`: starts the server over stdio for C and C++ files.
// It runs beside the clangd extension; each shows its own diagnostics and code actions.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("torchlint");
  const server = {
    command: config.get("path", "torchlint"),
    args: ["lsp", ...config.get("arguments", [])],
    transport: TransportKind.stdio,
  };
  client = new LanguageClient("torchlint", "torchlint", server, {
    documentSelector: [
      { scheme: "file", language: "cpp" },
      { scheme: "file", language: "c" },
    ],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
