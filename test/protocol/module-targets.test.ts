import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { ROOT } from '../helpers/paths';

const missing = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'missing-controller').map((d) => /^'([^']*)'/.exec(typeof d.message === 'string' ? d.message : d.message.value)?.[1]);

/** The language server judges targets as the application's router (Modular Extensions here) reads them. */
describe('language server: targets located by the HMVC router', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let main: string;
  let shop: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-module-targets-'));
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'hmvc-apps', 'mx-app'), dir, { recursive: true });
    main = path.join(dir, 'application', 'config', 'routes.php');
    shop = path.join(dir, 'application', 'modules', 'shop', 'config', 'routes.php');
    // Cart has no pay(): known once shop's routes file is known to leave shop/cart/pay alone.
    fs.appendFileSync(main, "$route['pay'] = 'shop/cart/pay';\n");
    client = new LspClient();
    await client.initialize(dir);
    for (const file of [main, shop]) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(file).toString(), languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
    }
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reads a module file's targets relative to its module", async () => {
    const p = await client.waitForDiagnostics(pathToFileURL(shop).toString(), (d) => d.version === 1);
    assert.deepEqual(missing(p), ['checkout/index']);
  });

  it("decides a main file's target into a module by that module's route keys, and again when they change", async () => {
    const uri = pathToFileURL(main).toString();
    await client.waitForDiagnostics(uri, (d) => missing(d).join() === 'reports/summary,shop/cart/pay');
    client.clearDiagnostics(uri);
    // A module route that may take shop/cart/pay elsewhere: the main file's target is no longer decided.
    const text = `${fs.readFileSync(shop, 'utf8')}$route['shop/cart/(:any)'] = 'cart/index';\n`;
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(shop).toString(), version: 2 }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(uri, (d) => missing(d).join() === 'reports/summary');
  });

  it("judges a module file's keys after the main routes, and again when the main routes change", async () => {
    const shopUri = pathToFileURL(shop).toString();
    const mainUri = pathToFileURL(main).toString();
    const mainFirst = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'unreachable-route' && /main routes file/.test(String(d.message))).map((d) => d.range.start.line + 1);
    await client.waitForDiagnostics(shopUri);
    // A one-segment catch-all in the main file takes `shop` (to pages/view/shop): the module's 'shop' is
    // never read (the main file's other routes into the module send other URIs: shop/cart/index, …).
    const base = fs.readFileSync(main, 'utf8');
    const mainText = `${base}$route['(:any)'] = 'pages/view/$1';\n`;
    client.clearDiagnostics(shopUri);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: mainUri, version: 2 }, contentChanges: [{ text: mainText }] });
    const shopLine = fs.readFileSync(shop, 'utf8').split('\n').findIndex((l) => l.startsWith("$route['shop'] =")) + 1;
    await client.waitForDiagnostics(shopUri, (d) => mainFirst(d).join() === String(shopLine));
    // Taken out again: the module's finding goes.
    client.clearDiagnostics(shopUri);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: mainUri, version: 3 }, contentChanges: [{ text: base }] });
    await client.waitForDiagnostics(shopUri, (d) => mainFirst(d).length === 0);
  });
});
