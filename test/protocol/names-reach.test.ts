import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

/**
 * A route name added in one file: the open route files whose Route::named() lookups it can judge
 * otherwise are checked again, and no other (three applications in one workspace, so that nothing
 * but the names ties them).
 */
describe('language server: a route name added re-checks only the open route files it can change', function () {
  this.timeout(30_000);
  let root: string;
  let client: LspClient;
  const files: Record<string, string> = {
    one: "<?php\nRoute::get('home', 'pages/home', ['as' => 'home']);\n$route = Route::map($route);\n",
    // Asks for a name that stays known: nothing an added name does changes its findings.
    two: "<?php\nRoute::get('start', 'pages/start', ['as' => 'start']);\n$route['go'] = Route::named('home');\n$route = Route::map($route);\n",
    // Asks for the name about to be added.
    three: "<?php\nRoute::get('later', 'pages/later', ['as' => 'later']);\n$route['go'] = Route::named('fresh');\n$route = Route::map($route);\n",
  };
  const uriOf = (app: string) => pathToFileURL(path.join(root, app, 'application', 'config', 'routes.php')).toString();
  const unknownNames = (app: string) => (client.publications(uriOf(app)).at(-1)?.diagnostics ?? []).filter((d) => d.code === 'unknown-route-name').length;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-names-reach-'));
    for (const [app, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(root, app, 'application', 'config'), { recursive: true });
      fs.writeFileSync(path.join(root, app, 'application', 'config', 'routes.php'), text);
    }
    client = new LspClient();
    await client.initialize(root);
    for (const [app, text] of Object.entries(files)) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(app), languageId: 'php', version: 1, text } });
      await client.waitForDiagnostics(uriOf(app));
    }
    // The workspace index done and its names complete: what the open files were analysed against.
    await client.waitForDiagnostics(uriOf('three'), (p) => p.diagnostics.some((d) => d.code === 'unknown-route-name' && (d.severity ?? 1) === 1));
    await new Promise((r) => setTimeout(r, 1500));
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('re-checks the file that asks for the new name, and leaves the one that asks for another alone', async () => {
    assert.equal(unknownNames('three'), 1);
    const twoBefore = client.publications(uriOf('two')).length;
    const threeBefore = client.publications(uriOf('three')).length;
    const text = files.one.replace('$route = ', "Route::get('f', 'pages/f', ['as' => 'fresh']);\n$route = ");
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf('one'), version: 2 }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(uriOf('three'), (p) => client.publications(uriOf('three')).indexOf(p) >= threeBefore && !p.diagnostics.some((d) => d.code === 'unknown-route-name'));
    // Whatever would follow for the other file has had its time (the names' pass checks both at once).
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(unknownNames('two'), 0);
    assert.equal(client.publications(uriOf('two')).length, twoBefore, `two was published again: ${JSON.stringify(client.publications(uriOf('two')).slice(twoBefore))}`);
  });
});
