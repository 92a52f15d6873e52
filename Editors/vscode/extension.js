// The pipesh extension's client: starts `pipesh lsp` (the `pipesh.path` setting names the
// executable) for .pipe files; everything it shows comes from that server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("pipesh").get("path") || "pipesh";
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "pipe" },
      { scheme: "untitled", language: "pipe" },
    ],
  };
  client = new LanguageClient("pipesh", "pipesh", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("pipesh.path")) {
        await client.stop();
        const restarted = vscode.workspace.getConfiguration("pipesh").get("path") || "pipesh";
        client = new LanguageClient("pipesh", "pipesh", { command: restarted, args: ["lsp"] }, clientOptions);
        await client.start();
      }
    })
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
