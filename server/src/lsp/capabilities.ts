import { CodeActionKind, TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver';

/** What the server answers `initialize` with. */
export function initializeResult(): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      hoverProvider: true,
      definitionProvider: true,
      completionProvider: { triggerCharacters: ["'", '"', ':', '(', '/'], resolveProvider: true },
      signatureHelpProvider: { triggerCharacters: ['(', ','] },
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
      inlayHintProvider: true,
      documentLinkProvider: { resolveProvider: false },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      // Each analysis' last publication is followed by `ciRoutes/analysisTiming` (benchmarks wait for it);
      // `ciRoutes/workspaceRoutes` answers, and `ciRoutes/routesChanged` says when to ask again.
      experimental: { analysisTiming: true, workspaceRoutes: true },
    },
    serverInfo: { name: 'ci-routes-language-server', version: '0.1.0' },
  };
}
