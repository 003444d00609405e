import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, ResponseError } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = "<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\nRoute::get('albums/(:num)', 'albums/show/$1');\n$route = Route::map($route);\n";
const VIEW = "<a href=\"<?= Route::named('photos') ?>\">Photos</a>\n";

const INVALID_PARAMS = -32602;
const SERVER_NOT_INITIALIZED = -32002;
const INVALID_REQUEST = -32600;

/** A fresh application (a route file and a view on disk) and a fresh client, for each test. */
function withAppAndClient(): { root: string; client: LspClient; routesUri: string; viewUri: string } {
  const ctx = {} as { root: string; client: LspClient; routesUri: string; viewUri: string };
  beforeEach(() => {
    ctx.root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-edge-'));
    fs.mkdirSync(path.join(ctx.root, 'application', 'config'), { recursive: true });
    fs.mkdirSync(path.join(ctx.root, 'application', 'views'), { recursive: true });
    fs.writeFileSync(path.join(ctx.root, 'application', 'config', 'routes.php'), ROUTES);
    fs.writeFileSync(path.join(ctx.root, 'application', 'views', 'nav.php'), VIEW);
    ctx.routesUri = pathToFileURL(path.join(ctx.root, 'application', 'config', 'routes.php')).toString();
    ctx.viewUri = pathToFileURL(path.join(ctx.root, 'application', 'views', 'nav.php')).toString();
    ctx.client = new LspClient();
  });
  afterEach(async () => {
    await ctx.client.shutdown();
    fs.rmSync(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}

/** The answer to a request: its result, or the error's code. */
async function answer(client: LspClient, method: string, params: unknown): Promise<{ result?: unknown; code?: number; message?: string }> {
  try {
    return { result: await client.connection.sendRequest(method, params) };
  } catch (e) {
    if (e instanceof ResponseError) return { code: e.code, message: e.message };
    throw e;
  }
}

/** Errors the server logged (a handler that threw, an analysis that failed). */
function loggedFailures(client: LspClient): string[] {
  return client.logs.filter((l) => /failed|TypeError|Error:/.test(l));
}

async function openRoutes(client: LspClient, uri: string): Promise<void> {
  await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
  await client.waitForDiagnostics(uri, (p) => p.version === 1);
}

describe('the server validates what the client sends at its edge', function () {
  this.timeout(60_000);
  const ctx = withAppAndClient();

  it('survives didOpen with text that is not a string, or a malformed uri or version, and keeps answering', async () => {
    // The default debounce: the analyses of the malformed documents would run later, in timers.
    await ctx.client.initialize(ctx.root, {});
    const send = (params: unknown) => ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type.method, params);
    await send({ textDocument: { uri: ctx.routesUri, languageId: 'php', version: 1, text: 42 } });
    await send({ textDocument: { uri: ctx.viewUri, languageId: 'php', version: 1, text: { a: 1 } } });
    await send({ textDocument: { uri: 42, languageId: 'php', version: 1, text: ROUTES } });
    await send({ textDocument: { uri: { path: '/x' }, languageId: 'php', version: 1, text: ROUTES } });
    await send({ textDocument: { uri: ctx.routesUri, languageId: 'php', version: 'one', text: ROUTES } });
    await send({ textDocument: null });
    await send(null);
    // Requests on the document meanwhile, and once the timers have run (the view's analysis waits for it).
    for (const uri of [ctx.routesUri, ctx.viewUri]) await answer(ctx.client, 'textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 10 } });
    const other = pathToFileURL(path.join(ctx.root, 'application', 'modules', 'blog', 'config', 'routes.php')).toString();
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: other, languageId: 'php', version: 1, text: ROUTES } });
    await ctx.client.waitForDiagnostics(other, (p) => p.version === 1);
    await new Promise((r) => setTimeout(r, 400)); // past the debounce: a malformed document's analysis would have run by now
    assert.ok(ctx.client.alive, `the server died: ${ctx.client.stderr}`);
    const hover = await answer(ctx.client, 'textDocument/hover', { textDocument: { uri: other }, position: { line: 1, character: 10 } });
    assert.equal(hover.code, undefined, hover.message);
    assert.ok(hover.result, 'the valid document still gets hovers');
    // The malformed opens were refused: the route file is not open with a number for its text.
    const refused = await answer(ctx.client, 'ciRoutes/routeTable', { uri: ctx.routesUri });
    assert.equal(refused.result, null);
    assert.deepEqual(loggedFailures(ctx.client), []);
    assert.equal(ctx.client.stderr, '');
  });

  it('survives didChange with malformed content changes, and the document keeps its text', async () => {
    await ctx.client.initialize(ctx.root, {});
    await openRoutes(ctx.client, ctx.routesUri);
    const send = (params: unknown) => ctx.client.connection.sendNotification(DidChangeTextDocumentNotification.type.method, params);
    const doc = { uri: ctx.routesUri, version: 2 };
    await send({ textDocument: doc, contentChanges: [{ text: 5 }] });
    await send({ textDocument: doc, contentChanges: [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }] });
    await send({ textDocument: doc, contentChanges: [{ range: { start: { line: 0.5, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }] });
    await send({ textDocument: doc, contentChanges: [{ range: { start: { line: 0 }, end: { line: 0, character: 0 } }, text: 'x' }] });
    await send({ textDocument: doc, contentChanges: 'all of it' });
    await send({ textDocument: doc, contentChanges: [null] });
    await send({ textDocument: { uri: ctx.routesUri, version: null }, contentChanges: [{ text: 'x' }] });
    await send({ textDocument: { uri: 7, version: 2 }, contentChanges: [{ text: 'x' }] });
    await new Promise((r) => setTimeout(r, 400)); // past the debounce
    assert.ok(ctx.client.alive, `the server died: ${ctx.client.stderr}`);
    const table = (await answer(ctx.client, 'ciRoutes/routeTable', { uri: ctx.routesUri })).result as { methods: { method: string; rows: { uri: string }[] }[] };
    assert.deepEqual(table.methods.find((m) => m.method === 'GET')?.rows.map((r) => r.uri), ['photos', 'albums/(:num)'], 'no malformed change was applied');
    // A valid change after them is applied.
    await send({ textDocument: { uri: ctx.routesUri, version: 3 }, contentChanges: [{ text: ROUTES.replace("'photos', 'photos/index'", "'pictures', 'photos/index'") }] });
    await ctx.client.waitForDiagnostics(ctx.routesUri, (p) => p.version === 3);
    assert.deepEqual(loggedFailures(ctx.client), []);
  });

  it('answers requests with malformed or out-of-range positions and params with InvalidParams or an answer, never a handler error', async () => {
    await ctx.client.initialize(ctx.root);
    await openRoutes(ctx.client, ctx.routesUri);
    await ctx.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: ctx.viewUri, languageId: 'php', version: 1, text: VIEW } });
    await ctx.client.waitForDiagnostics(ctx.viewUri, (p) => p.version === 1);
    const positions: unknown[] = [
      { line: -1, character: 0 },
      { line: 0, character: -5 },
      { line: 1e15, character: 0 },
      { line: 2 ** 31 - 1, character: 2 ** 31 - 1 },
      { line: 1000, character: 1000 },
      { line: 1.5, character: 0 },
      { line: 0 },
      { character: 3 },
      { line: '1', character: 0 },
      { line: NaN, character: 0 },
      null,
      'here',
    ];
    const ranges: unknown[] = [
      ...positions.map((p) => ({ start: p, end: { line: 0, character: 0 } })),
      { start: { line: 3, character: 0 }, end: { line: 0, character: 0 } },
      { start: { line: 0, character: 0 } },
      null,
    ];
    const requests: [string, unknown][] = [];
    for (const uri of [ctx.routesUri, ctx.viewUri]) {
      const textDocument = { uri };
      for (const position of positions) {
        requests.push(['textDocument/hover', { textDocument, position }]);
        requests.push(['textDocument/completion', { textDocument, position }]);
        requests.push(['textDocument/signatureHelp', { textDocument, position }]);
        requests.push(['textDocument/definition', { textDocument, position }]);
        requests.push(['textDocument/references', { textDocument, position, context: { includeDeclaration: true } }]);
        requests.push(['textDocument/prepareRename', { textDocument, position }]);
        requests.push(['textDocument/rename', { textDocument, position, newName: 'renamed' }]);
      }
      for (const range of ranges) {
        requests.push(['textDocument/inlayHint', { textDocument, range }]);
        requests.push(['textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } }]);
      }
      requests.push(['textDocument/references', { textDocument, position: { line: 1, character: 40 } }]);
      requests.push(['textDocument/rename', { textDocument, position: { line: 1, character: 40 }, newName: 42 }]);
      requests.push(['textDocument/codeAction', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [{ source: 'ci-routes', data: { fixes: 'none' } }] } }]);
      requests.push(['textDocument/codeAction', { textDocument, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: null }]);
      for (const method of ['textDocument/documentSymbol', 'textDocument/codeLens', 'textDocument/documentLink']) {
        requests.push([method, { textDocument }]);
        requests.push([method, { textDocument: { uri: 5 } }]);
        requests.push([method, { textDocument: null }]);
        requests.push([method, {}]);
      }
    }
    for (const method of ['textDocument/hover', 'textDocument/completion', 'textDocument/documentSymbol', 'textDocument/codeLens', 'textDocument/inlayHint', 'textDocument/documentLink', 'ciRoutes/routeTable', 'ciRoutes/testUrl']) {
      requests.push([method, null]);
      requests.push([method, [1, 2, 3]]);
      requests.push([method, { textDocument: { uri: { evil: true } }, position: { line: 0, character: 0 } }]);
    }
    requests.push(['workspace/symbol', { query: 5 }]);
    requests.push(['workspace/symbol', {}]);
    requests.push(['completionItem/resolve', null]);
    requests.push(['completionItem/resolve', { label: 5, data: [1, 0] }]);
    requests.push(['ciRoutes/routeTable', { uri: 5 }]);
    requests.push(['ciRoutes/routeTable', {}]);
    requests.push(['ciRoutes/testUrl', { uri: ctx.routesUri, method: 5, url: 'photos' }]);
    requests.push(['ciRoutes/testUrl', { uri: ctx.routesUri, method: 'GET', url: { path: 'photos' } }]);
    requests.push(['ciRoutes/testUrl', { uri: ctx.routesUri, method: 'GET' }]);
    requests.push(['ciRoutes/testUrl', { uri: ctx.routesUri, method: 'BREW', url: 'photos' }]);

    const wrong: string[] = [];
    for (const [method, params] of requests) {
      const a = await answer(ctx.client, method, params);
      // Rename refuses a position that is not on a route name with InvalidRequest and a message: an answer, not a failure.
      const refusal = method === 'textDocument/rename' && a.code === INVALID_REQUEST && /^Place the cursor on a route name/.test(a.message ?? '');
      if (a.code !== undefined && a.code !== INVALID_PARAMS && !refusal) wrong.push(`${method} ${JSON.stringify(params)}: error ${a.code} ${a.message}`);
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${requests.length} requests got a handler error`);
    // Quick fixes come back from the client in the diagnostics' data: malformed ones make no actions.
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    for (const data of [{ fixes: 'none' }, { fixes: [{ title: 5, edits: [] }] }, { fixes: [{ title: 'x', preferred: true, edits: [{ range: null, newText: 'y' }] }] }]) {
      const actions = await answer(ctx.client, 'textDocument/codeAction', { textDocument: { uri: ctx.routesUri }, range: zero, context: { diagnostics: [{ range: zero, message: 'm', source: 'ci-routes', data }] } });
      assert.deepEqual(actions.result, [], JSON.stringify(data));
    }
    // Out-of-range but well-formed positions are clamped to the document, as the protocol says.
    const clamped = await answer(ctx.client, 'textDocument/hover', { textDocument: { uri: ctx.routesUri }, position: { line: 1000, character: 1000 } });
    assert.equal(clamped.code, undefined);
    const negative = await answer(ctx.client, 'textDocument/hover', { textDocument: { uri: ctx.routesUri }, position: { line: -1, character: 0 } });
    assert.equal(negative.code, INVALID_PARAMS, 'a negative line is not a position');
    assert.ok(ctx.client.alive);
    const hover = await answer(ctx.client, 'textDocument/hover', { textDocument: { uri: ctx.routesUri }, position: { line: 1, character: 10 } });
    assert.ok(hover.result, 'the server still answers');
    assert.deepEqual(loggedFailures(ctx.client), []);
  });
});

describe('requests before initialize', function () {
  this.timeout(30_000);
  const ctx = withAppAndClient();

  it('get ServerNotInitialized (-32002), then the server initializes normally', async () => {
    for (const [method, params] of [
      ['textDocument/hover', { textDocument: { uri: ctx.routesUri }, position: { line: 0, character: 0 } }],
      ['ciRoutes/routeTable', { uri: ctx.routesUri }],
      ['workspace/symbol', { query: '' }],
      ['no/suchMethod', {}],
    ] as const) {
      const a = await answer(ctx.client, method, params);
      assert.equal(a.code, SERVER_NOT_INITIALIZED, `${method}: ${JSON.stringify(a)}`);
    }
    await ctx.client.initialize(ctx.root);
    await openRoutes(ctx.client, ctx.routesUri);
    const hover = await answer(ctx.client, 'textDocument/hover', { textDocument: { uri: ctx.routesUri }, position: { line: 1, character: 10 } });
    assert.ok(hover.result);
    const unknown = await answer(ctx.client, 'no/suchMethod', {});
    assert.equal(unknown.code, -32601, 'MethodNotFound once initialized');
  });
});
