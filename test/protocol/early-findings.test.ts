import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = [
  '<?php',
  "Route::get('posts/(:any)', 'posts/show/$1');",
  "Route::get('posts/latest', 'posts/latest');",
  "Route::get('about', 'pages/about');",
  "Route::get('about', 'pages/company');",
  '$route = Route::map($route);',
  '',
].join('\n');

const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => String(d.code)).sort();

/**
 * A large file's first analysis publishes what the quick checks found before the inclusion
 * checks finish; the test server does so however short the analysis (earlyFindingsAfterMs 0).
 */
describe('language server: findings shown while the inclusion checks run', function () {
  this.timeout(30_000);
  let client: LspClient;
  let root: string;

  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-early-'));
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
    client = new LspClient();
    await client.initialize(root, { debounceMs: 0, earlyFindingsAfterMs: 0 });
  });

  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('publishes the quick checks’ findings first on open, then all of them; an edit publishes once', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
    await client.waitForDiagnostics(uri, (p) => p.version === 1 && codes(p).includes('unreachable-route'));
    const opening = client.publications(uri).filter((p) => p.version === 1);
    assert.equal(opening.length, 2, JSON.stringify(opening));
    assert.ok(codes(opening[0]).includes('duplicate-route') && !codes(opening[0]).includes('unreachable-route'), JSON.stringify(codes(opening[0])));
    assert.ok(codes(opening[1]).includes('duplicate-route'));
    assert.ok(client.logs.some((l) => l.startsWith(`[ci-routes] ${file}: `) && l.endsWith('finding(s) shown while the inclusion checks run')), client.logs.join('\n'));

    // Later analyses are incremental: showing fewer findings for a moment would only flicker.
    const edited = ROUTES.replace("'pages/company'", "'pages/team'");
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    await client.waitForDiagnostics(uri, (p) => p.version === 2 && codes(p).includes('unreachable-route'));
    assert.equal(client.publications(uri).filter((p) => p.version === 2).length, 1);
  });
});
