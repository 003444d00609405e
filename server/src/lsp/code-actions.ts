import { CodeActionKind, type CodeAction, type Connection } from 'vscode-languageserver';
import { fixesIn } from './param-checks';

/** Quick fixes: those the server attached to its own diagnostics, as it wrote them. */
export function registerCodeActions(connection: Connection): void {
  connection.onCodeAction((params) => {
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      if (d.source !== 'ci-routes') continue;
      // The fixes come back from the client: those not as the server wrote them are ignored.
      for (const fix of fixesIn(d.data)) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          isPreferred: fix.preferred,
          edit: { changes: { [params.textDocument.uri]: fix.edits } },
        });
      }
    }
    return actions;
  });
}
