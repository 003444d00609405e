import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Polls until `fn` returns a value (the server works asynchronously). */
async function eventually<T>(fn: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the CI Routes extension in VS Code', () => {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const routes = vscode.Uri.file(path.join(folder, 'application', 'config', 'routes.php'));

  before(async () => {
    const doc = await vscode.workspace.openTextDocument(routes);
    await vscode.window.showTextDocument(doc);
  });

  it('publishes diagnostics for the broken route file', async () => {
    const diags = await eventually(() => {
      const d = vscode.languages.getDiagnostics(routes).filter((x) => x.source === 'ci-routes');
      return d.some((x) => x.code === 'duplicate-route') ? d : undefined;
    }, 'ci-routes diagnostics');
    assert.ok(diags.some((d) => d.code === 'undefined-route-method'));
  });

  it('hovers resources() with the routes it produces', async () => {
    const doc = await vscode.workspace.openTextDocument(routes);
    const line = doc.getText().split('\n').findIndex((l) => l.includes("Route::resources('articles'"));
    const hovers = await eventually(async () => {
      const h = (await vscode.commands.executeCommand('vscode.executeHoverProvider', routes, new vscode.Position(line, 9))) as vscode.Hover[];
      return h.length ? h : undefined;
    }, 'a hover');
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    assert.match(text, /7 routes/);
  });

  it('completes route names in Route::named(\'', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'php', content: "<?php\nredirect(Route::named('" });
    const list = (await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(1, 23))) as vscode.CompletionList;
    assert.ok(list.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'login'));
  });

  it('shows the routes explorer and tests a URL', async () => {
    // Show Routes (the route table's command) reveals the explorer and answers what it shows.
    const routes = await eventually(async () => {
      const r = (await vscode.commands.executeCommand('ciRoutes.showRouteTable')) as { applications: { files: { name: string }[] }[] } | undefined;
      return r?.applications.length ? r : undefined;
    }, 'the workspace routes');
    assert.deepEqual(routes.applications[0]?.files.map((f) => f.name), ['application/config/routes.php', 'application/modules/blog/config/routes.php']);
    // The broken file stops PHP (Route::resource()): the request ends in that error.
    const result = (await vscode.commands.executeCommand('ciRoutes.testUrl', 'GET /articles/12')) as { error?: string } | undefined;
    assert.match(result?.error ?? '', /Route::resource\(\)/);
  });
});
