import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = "<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\nRoute::get('albums', 'albums/index');\n$route = Route::map($route);\n";

/** A fresh application holding ROUTES and a fresh client, for each test of the suite. */
function withAppAndClient(): { root: string; client: LspClient } {
  const ctx = {} as { root: string; client: LspClient };
  beforeEach(() => {
    ctx.root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-limits-'));
    fs.mkdirSync(path.join(ctx.root, 'application', 'config'), { recursive: true });
    fs.writeFileSync(path.join(ctx.root, 'application', 'config', 'routes.php'), ROUTES);
    ctx.client = new LspClient();
  });
  afterEach(async () => {
    await ctx.client.shutdown();
    fs.rmSync(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}

describe('limits are reported when hit (ciRoutes.maxFileSize)', function () {
  this.timeout(30_000);
  const ctx = withAppAndClient();

  it('says so at the top of a route file over the limit, and in the log', async () => {
    ctx.client.settings = { maxFileSize: 64 };
    await ctx.client.initialize(ctx.root);
    const uri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
    const p = await ctx.client.waitForDiagnostics(uri, (d) => d.diagnostics.some((x) => x.code === 'evaluation-limit'));
    assert.equal(p.diagnostics.length, 1, 'nothing else is analysed');
    const d = p.diagnostics[0];
    assert.equal(d.range.start.line, 0);
    assert.equal(d.range.start.character, 0);
    assert.match(typeof d.message === 'string' ? d.message : d.message.value, /larger than ciRoutes\.maxFileSize \(64 bytes\): it is not analysed/);
    // The log says it too: once when the open document is skipped, once for the file on disk at indexing.
    const deadline = Date.now() + 15_000; // a deadline for a hang, not a speed requirement
    while (ctx.client.logs.filter((l) => /maxFileSize/.test(l)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lines = ctx.client.logs.filter((l) => /maxFileSize/.test(l));
    assert.ok(lines.some((l) => l.includes('routes.php') && /not analysed/.test(l)), `a log line for the open document: ${JSON.stringify(ctx.client.logs)}`);
    assert.ok(lines.some((l) => /route file not indexed: .*routes\.php.* over the limit of 64 bytes/.test(l)), `a log line for the index: ${JSON.stringify(ctx.client.logs)}`);
  });

  it('does not take the names of a route file over the limit for unknown', async () => {
    ctx.client.settings = { maxFileSize: 64 };
    await ctx.client.initialize(ctx.root);
    const view = pathToFileURL(path.join(ctx.root, 'application', 'views', 'nav.php')).toString();
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: view, languageId: 'php', version: 1, text: "<a href=\"<?= Route::named('photos') ?>\">Photos</a>\n" } });
    const p = await ctx.client.waitForDiagnostics(view, (d) => d.version === 1);
    assert.deepStrictEqual(p.diagnostics, []);
    assert.ok(ctx.client.logs.some((l) => /route file not indexed: .*routes\.php.*Route::named\(\) is not checked until then/.test(l)), JSON.stringify(ctx.client.logs));
  });

  it('analyses the file normally under the default limit', async () => {
    await ctx.client.initialize(ctx.root);
    const uri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
    const p = await ctx.client.waitForDiagnostics(uri);
    assert.ok(!p.diagnostics.some((x) => x.code === 'evaluation-limit'));
    assert.ok(!ctx.client.logs.some((l) => /maxFileSize/.test(l)));
  });
});

describe('the outline stays within ciRoutes.maxOutlineSymbols', function () {
  this.timeout(30_000);
  const ctx = withAppAndClient();

  const outlineOf = async (settings: Record<string, unknown>) => {
    ctx.client.settings = settings;
    await ctx.client.initialize(ctx.root);
    const uri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
    await ctx.client.waitForDiagnostics(uri);
    return (await ctx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as { name: string; children?: unknown[] }[];
  };

  it('lists the top level first and says in the log that the outline was cut', async () => {
    const symbols = await outlineOf({ maxOutlineSymbols: 3 });
    assert.deepEqual(symbols.map((s) => [s.name, s.children?.length ?? 0]), [["Route::get('photos')", 0], ["Route::get('albums')", 0], ['Route::map($route)', 0]]);
    assert.ok(ctx.client.logs.some((l) => /routes\.php: the outline lists its first 3 symbols.*ciRoutes\.maxOutlineSymbols/.test(l)), JSON.stringify(ctx.client.logs));
  });

  it('says it once per opening of the document: again after it was closed and opened', async () => {
    await outlineOf({ maxOutlineSymbols: 3 });
    const uri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    const cut = () => ctx.client.logs.filter((l) => /the outline lists its first 3 symbols/.test(l)).length;
    await ctx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(cut(), 1, 'asked again while open: not said again');
    await ctx.client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 2, text: `${ROUTES}// reopened\n` } });
    await ctx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(cut(), 2, JSON.stringify(ctx.client.logs));
  });

  it('lists everything under the default limit, without a word in the log', async () => {
    const symbols = await outlineOf({});
    assert.deepEqual(symbols.map((s) => [s.name, s.children?.length ?? 0]), [["Route::get('photos')", 1], ["Route::get('albums')", 1], ['Route::map($route)', 0]]);
    assert.ok(!ctx.client.logs.some((l) => /maxOutlineSymbols/.test(l)));
  });

  it('after edits, lists the version edited (the server prepares outlines when idle, and an edit drops the one under way)', async () => {
    await outlineOf({});
    const uri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    type Symbol = { name: string; range: { start: { line: number } } };
    let text = ROUTES;
    for (let version = 2; version <= 6; version++) {
      // Each edit adds a line at the top and a route: every range moves down.
      text = `<?php\n// edit ${version}\n${text.slice('<?php\n'.length).replace('$route = Route::map', `Route::get('v${version}', 'v/x');\n$route = Route::map`)}`;
      await ctx.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
      if (version % 2 === 0) await ctx.client.waitForDiagnostics(uri, (p) => p.version === version);
    }
    const symbols = (await ctx.client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Symbol[];
    const lines = text.split('\n');
    // A symbol's range starts on the line of its call: ranges of an earlier version would be lines above.
    for (const s of symbols) assert.ok(lines[s.range.start.line].includes(s.name.replace(/\)$/, '')), `${s.name} at line ${s.range.start.line}: ${lines[s.range.start.line]}`);
    assert.deepEqual(symbols.map((s) => s.name).slice(-2), ["Route::get('v6')", 'Route::map($route)']);
    assert.equal(symbols.length, 8);
  });
});
