import { VERSION } from '../host/version';
import { CodeActionKind, TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver';

/** What the server answers `initialize` with; `analysisTiming` when the client asked for it. */
export function initializeResult(analysisTiming = false): InitializeResult {
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
      // Each analysis' last publication is followed by `ciRoutes/analysisTiming` (benchmarks wait
      // for it), for clients that ask (`initializationOptions.analysisTiming`): lsp-mode warns of
      // every notification it does not know. `ciRoutes/workspaceRoutes` answers, and
      // `ciRoutes/routesChanged` then says when to ask again (never to a client that did not ask).
      experimental: { ...(analysisTiming ? { analysisTiming: true } : {}), workspaceRoutes: true },
    },
    serverInfo: { name: 'ci-routes-language-server', version: VERSION },
  };
}
