import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { ROOT } from '../helpers/paths';

/**
 * An edit of the main route file re-checks only the open module route files whose checks read
 * what it changed (their module's URIs' keys, targets into the module, the places their findings
 * point at), and no other (Modular Extensions' router, two modules open).
 */
describe("language server: a main route file's edit re-checks only the module route files it can change", function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let mainUri: string;
  let shopUri: string;
  let usersUri: string;
  let mainText: string;
  let version = 1;
  const mainFirst = (uri: string): Diagnostic[] => (client.publications(uri).at(-1)?.diagnostics ?? []).filter((d) => d.code === 'unreachable-route' && /main routes file/.test(String(d.message)));
  const editMain = async (text: string) => {
    mainText = text;
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: mainUri, version: ++version }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(mainUri, (p) => p.version === version);
  };
  // Long enough for the module files' pass after the main file's publication (it is deferred by 50 ms).
  const settle = () => new Promise((r) => setTimeout(r, 1000));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-module-main-reads-'));
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'hmvc-apps', 'mx-app'), dir, { recursive: true });
    const files = {
      main: path.join(dir, 'application', 'config', 'routes.php'),
      shop: path.join(dir, 'application', 'modules', 'shop', 'config', 'routes.php'),
      users: path.join(dir, 'application', 'modules', 'users', 'config', 'routes.php'),
    };
    [mainUri, shopUri, usersUri] = [files.main, files.shop, files.users].map((f) => pathToFileURL(f).toString());
    mainText = fs.readFileSync(files.main, 'utf8');
    client = new LspClient();
    await client.initialize(dir);
    for (const file of Object.values(files)) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(file).toString(), languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
      await client.waitForDiagnostics(pathToFileURL(file).toString());
    }
    await settle();
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves both alone when the edit changes nothing either reads', async () => {
    const before = [client.publications(shopUri).length, client.publications(usersUri).length];
    // A key no URI of either module matches, and a target that leads into neither.
    await editMain(mainText.replace("$route['summary'] = 'reports/summary';", "$route['summaries'] = 'reports/all';"));
    await settle();
    assert.deepEqual([client.publications(shopUri).length, client.publications(usersUri).length], before);
  });

  it('re-checks the module whose URIs a new main key takes, and points at that key', async () => {
    const usersBefore = client.publications(usersUri).length;
    const shopBefore = client.publications(shopUri).length;
    await editMain(`${mainText}$route['shop'] = 'pages/shop';\n`);
    await client.waitForDiagnostics(shopUri, (p) => client.publications(shopUri).indexOf(p) >= shopBefore && mainFirst(shopUri).length === 1);
    await settle();
    assert.equal(client.publications(usersUri).length, usersBefore, 'users was checked again');
    const [taken] = mainFirst(shopUri);
    const mainLine = mainText.split('\n').findIndex((l) => l.startsWith("$route['shop'] ="));
    assert.deepEqual(
      taken!.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line, r.message]),
      [[mainUri, mainLine, "matched first in the main routes: 'shop'"]],
    );
    assert.match(String(taken!.message), new RegExp(`'shop' \\(line ${mainLine + 1}\\)`));
  });

  it('re-checks a module whose findings point into the main file when its lines move, and only that one', async () => {
    const usersBefore = client.publications(usersUri).length;
    const shopBefore = client.publications(shopUri).length;
    await editMain(mainText.replace('<?php\n', '<?php\n\n// moved down a line\n'));
    await client.waitForDiagnostics(shopUri, (p) => client.publications(shopUri).indexOf(p) >= shopBefore);
    await settle();
    assert.equal(client.publications(usersUri).length, usersBefore, 'users was checked again');
    const mainLine = mainText.split('\n').findIndex((l) => l.startsWith("$route['shop'] ="));
    assert.deepEqual(mainFirst(shopUri).map((d) => d.relatedInformation?.[0]?.location.range.start.line), [mainLine]);
  });
});

/** A module route file's edit that changes its keys re-checks the open main route files of its own application only. */
describe("language server: a module route file's new keys re-check only its application's main files", function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  const uriOf = (app: string, ...rest: string[]) => pathToFileURL(path.join(dir, app, 'application', ...rest)).toString();

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-module-keys-reach-'));
    for (const app of ['one', 'two']) fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'hmvc-apps', 'mx-app'), path.join(dir, app), { recursive: true });
    client = new LspClient();
    await client.initialize(dir);
    for (const app of ['one', 'two']) {
      for (const rest of [['config', 'routes.php'], ['modules', 'shop', 'config', 'routes.php']]) {
        const uri = uriOf(app, ...rest);
        await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(path.join(dir, app, 'application', ...rest), 'utf8') } });
        await client.waitForDiagnostics(uri);
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("re-checks the edited module's main file, not the other application's", async () => {
    const shopOne = uriOf('one', 'modules', 'shop', 'config', 'routes.php');
    const [mainOne, mainTwo] = [uriOf('one', 'config', 'routes.php'), uriOf('two', 'config', 'routes.php')];
    const [oneBefore, twoBefore] = [client.publications(mainOne).length, client.publications(mainTwo).length];
    const text = `${fs.readFileSync(path.join(dir, 'one', 'application', 'modules', 'shop', 'config', 'routes.php'), 'utf8')}$route['shop/new'] = 'cart/fresh';\n`;
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: shopOne, version: 2 }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(mainOne, (p) => client.publications(mainOne).indexOf(p) >= oneBefore);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(client.publications(mainTwo).length, twoBefore, "the other application's main file was checked again");
  });
});

/** A module's key with a dash in its first segments is judged by the main file's translate_uri_dashes: toggling it re-checks the module. */
describe("language server: a main file's translate_uri_dashes re-checks the open module files with dashed keys", function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-module-dashes-'));
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'hmvc-apps', 'mx-app'), dir, { recursive: true });
    client = new LspClient();
    await client.initialize(dir);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports the dashed key once the main file translates dashes', async () => {
    const mainFile = path.join(dir, 'application', 'config', 'routes.php');
    const shopFile = path.join(dir, 'application', 'modules', 'shop', 'config', 'routes.php');
    const [mainUri, shopUri] = [mainFile, shopFile].map((f) => pathToFileURL(f).toString());
    const mainText = fs.readFileSync(mainFile, 'utf8');
    const shopText = `${fs.readFileSync(shopFile, 'utf8')}$route['shop/my-cart'] = 'cart';\n`;
    for (const [uri, text] of [[mainUri, mainText], [shopUri, shopText]]) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
      await client.waitForDiagnostics(uri);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const dashes = () => (client.publications(shopUri).at(-1)?.diagnostics ?? []).filter((d) => /translate_uri_dashes/.test(String(d.message))).length;
    assert.equal(dashes(), 0, 'translate_uri_dashes is FALSE yet');
    assert.ok(!mainText.includes("$route['translate_uri_dashes'] = TRUE;"));
    const text = mainText.replace("$route['translate_uri_dashes'] = FALSE;", "$route['translate_uri_dashes'] = TRUE;");
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: mainUri, version: 2 }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(shopUri, () => dashes() === 1);
  });
});
