import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import type { MethodTimings } from '../../server/src/lsp/request-timings';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = ['<?php', "Route::get('about', 'pages/about', ['as' => 'about']);", '$route = Route::map($route);', ''].join('\n');

/** `ciRoutes/requestTimings`: handler times, recorded only when initializationOptions.requestTimings is true. */
describe('language server: request timings for benchmarks', function () {
  this.timeout(30_000);
  let root: string;
  let client: LspClient | undefined;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-timings-'));
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
  });

  afterEach(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function hoverTwiceAndRead(requestTimings: boolean): Promise<Record<string, MethodTimings>> {
    client = new LspClient();
    await client.initialize(root, { debounceMs: 0, requestTimings });
    const uri = pathToFileURL(path.join(root, 'application', 'config', 'routes.php')).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
    await client.waitForDiagnostics(uri, (p) => p.version === 1);
    const params = { textDocument: { uri }, position: { line: 1, character: 9 } };
    const hover = await client.connection.sendRequest('textDocument/hover', params);
    assert.ok(hover, 'the hover answers');
    await client.connection.sendRequest('textDocument/hover', params);
    await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    return client.connection.sendRequest('ciRoutes/requestTimings');
  }

  it('records each hover and outline handled, then forgets what it returned', async () => {
    const before = performance.timeOrigin + performance.now();
    const first = await hoverTwiceAndRead(true);
    const after = performance.timeOrigin + performance.now();
    assert.deepEqual(Object.keys(first).sort(), ['textDocument/documentSymbol', 'textDocument/hover']);
    const hovers = first['textDocument/hover'];
    assert.equal(hovers.ms.length, 2);
    assert.ok(hovers.ms.every((ms) => ms >= 0 && ms < 10_000), JSON.stringify(first));
    // Start times are on the epoch clock this process reads too, in the order handled.
    assert.equal(hovers.startedAt.length, 2);
    assert.ok(hovers.startedAt.every((t) => t >= before && t <= after) && hovers.startedAt[0] <= hovers.startedAt[1], JSON.stringify({ before, after, hovers }));
    assert.deepEqual(await client!.connection.sendRequest('ciRoutes/requestTimings'), {});
  });

  it('records nothing unless the client asked for it', async () => {
    assert.deepEqual(await hoverTwiceAndRead(false), {});
  });
});
