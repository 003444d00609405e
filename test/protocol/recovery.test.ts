import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeLensRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, type CodeLens, type DocumentSymbol } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/**
 * A fatal error hides nothing in the editor: the server's analysis goes on past it, so the other
 * findings, the outline and the lenses stay, and a view naming a route declared past it says why.
 */
describe('language server: recovery past a fatal error', function () {
  this.timeout(30_000);
  let dir: string;
  let client: LspClient;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-recovery-'));
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), path.join(dir, 'application'), { recursive: true });
    client = new LspClient();
    await client.initialize(dir);
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = async (file: string, text: string) => {
    const uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    return uri;
  };

  it('keeps the outline, the lenses and the other findings, and names the cause in views', async () => {
    const routes = path.join(dir, 'application', 'config', 'routes.php');
    const original = fs.readFileSync(routes, 'utf8');
    const symbolsOf = async (uri: string) => ((await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[]).length;
    const uri = await open(routes, original);
    await client.waitForDiagnostics(uri);
    const intactSymbols = await symbolsOf(uri);
    client.clearDiagnostics(uri);
    // The error first, a duplicate last.
    const broken = original.replace(/\n(Route::|\$route\[)/, "\nRoute::resource('photos');\n$1").replace('$route = Route::map($route);', "Route::get('contact', 'pages/other');\n$route = Route::map($route);");
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: broken }] });
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    const codes = published.diagnostics.map((d) => d.code);
    assert.ok(codes.includes('undefined-route-method'), codes.join(', '));
    const duplicate = published.diagnostics.find((d) => d.code === 'duplicate-route');
    assert.ok(duplicate, codes.join(', '));
    assert.match(String(duplicate.message), /PHP never gets here: it stops at line \d+/);
    assert.ok(intactSymbols > 5);
    assert.ok((await symbolsOf(uri)) >= intactSymbols, 'every declaration of the file is in the outline');
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
    // Only the declaration the duplicate replaces produces nothing now.
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(lenses.length > 5, titles.join(' | '));
    assert.deepEqual(titles.filter((t) => /^0 routes/.test(t)), ['0 routes · 1 replaced']);
    const view = await open(path.join(dir, 'application', 'views', 'menu.php'), "<?= site_url(Route::named('about')) ?>\n");
    const viewFindings = await client.waitForDiagnostics(view, (p) => p.diagnostics.length > 0);
    assert.match(String(viewFindings.diagnostics[0].message), /^'about' is declared in application\/config\/routes\.php at line \d+, after line \d+ where PHP stops \(Error: Call to undefined method Route::resource\(\)\)/);
  });
});
