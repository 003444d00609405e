import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/**
 * An editor opened on a folder inside an application (application/config/, application/): the
 * route files the application's router reads may lie outside the workspace folder, where the
 * server reads nothing. Route names they may declare must not become false unknown-route-name errors.
 */
for (const opened of [['application', 'config'], ['application']]) {
  describe(`language server: the example app with ${opened.join('/')}/ as the workspace folder`, function () {
    this.timeout(30_000);
    let client: LspClient;
    let root: string;

    before(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-inner-folder-'));
      fs.cpSync(EXAMPLE_APP, root, { recursive: true });
      client = new LspClient();
      await client.initialize(path.join(root, ...opened));
    });
    after(async () => {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    });

    it('reports no unknown-route-name error on the clean example', async () => {
      const file = path.join(root, 'application', 'config', 'routes.php');
      const uri = pathToFileURL(file).toString();
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
      const p = await client.waitForDiagnostics(uri);
      // Let the workspace scan finish and publish again if it would.
      await new Promise((r) => setTimeout(r, 1500));
      const all = [p, ...client.publications(uri)].flatMap((x) => x.diagnostics);
      assert.deepStrictEqual(all.filter((d) => d.code === 'unknown-route-name' && (d.severity ?? 1) <= 2).map((d) => d.message), []);
    });
  });
}

/**
 * Without the example's require (which alone leaves names unchecked when APPPATH cannot be read):
 * a name only a module route file declares, used in a PHP file of the opened folder.
 */
describe('language server: a name declared by a module route file outside the workspace folder', function () {
  this.timeout(30_000);
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-inner-folder-'));
    fs.cpSync(EXAMPLE_APP, root, { recursive: true });
    const main = path.join(root, 'application', 'config', 'routes.php');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace(/^require .*$/m, ''));
    fs.appendFileSync(path.join(root, 'application', 'modules', 'blog', 'config', 'routes.php'), "\nRoute::any('blog/latest', 'posts/latest', array('as' => 'blog_latest'));\n$route = Route::map($route);\n");
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  async function menuDiagnostics(opened: string[], text: string) {
    const client = new LspClient();
    try {
      await client.initialize(path.join(root, ...opened));
      const file = path.join(root, 'application', 'config', 'menu.php');
      const uri = pathToFileURL(file).toString();
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
      await client.waitForDiagnostics(uri);
      await new Promise((r) => setTimeout(r, 1500));
      return { found: client.publications(uri).at(-1)?.diagnostics.filter((d) => d.code === 'unknown-route-name').map((d) => String(d.message)) ?? [], logs: client.logs };
    } finally {
      await client.shutdown();
    }
  }

  it('is no error when the module lies outside the folder, and the log says why', async () => {
    const { found, logs } = await menuDiagnostics(['application', 'config'], "<?php\necho Route::named('blog_latest');\n");
    assert.deepStrictEqual(found, []);
    assert.ok(logs.some((l) => /reaches beyond the workspace folders/.test(l)), logs.join('\n'));
  });

  it('is known when the application folder is open, and a name declared nowhere is still an error', async () => {
    assert.deepStrictEqual((await menuDiagnostics(['application'], "<?php\necho Route::named('blog_latest');\n")).found, []);
    const { found } = await menuDiagnostics(['application'], "<?php\necho Route::named('blog_lates');\n");
    assert.equal(found.length, 1);
    assert.match(found[0], /'blog_lates'/);
  });
});
