import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = "<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\n$route = Route::map($route);\n";
/** The most diagnostics the server publishes for one file, besides the entry that counts the rest. */
const CAP = 1000;

const messageOf = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : String(d.message));

describe('what the server publishes is bounded', function () {
  this.timeout(120_000);
  let root: string;
  let client: LspClient;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-bounded-'));
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
    fs.mkdirSync(path.join(root, 'application', 'views'), { recursive: true });
    fs.writeFileSync(path.join(root, 'application', 'config', 'routes.php'), ROUTES);
    client = new LspClient();
  });
  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a view with 100,000 unknown Route::named() calls gets at most the cap, and an entry saying how many more', async () => {
    await client.initialize(root);
    const uri = pathToFileURL(path.join(root, 'application', 'views', 'many.php')).toString();
    const text = `<?php\n${"Route::named('nope');\n".repeat(100_000)}`;
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const p = await client.waitForDiagnostics(uri, (d) => d.version === 1, 60_000);
    assert.equal(p.diagnostics.length, CAP + 1);
    assert.ok(p.diagnostics.slice(0, CAP).every((d) => d.code === 'unknown-route-name'));
    const last = p.diagnostics[CAP];
    assert.equal(messageOf(last), '99,000 more problems not shown (ci-routes lists at most 1,000 per file).');
    assert.equal(last.source, 'ci-routes');
  });

  it('a route file with more findings than the cap gets the cap, the most severe first, and an entry saying how many more', async () => {
    await client.initialize(root);
    const uri = pathToFileURL(path.join(root, 'application', 'config', 'routes.php')).toString();
    // 1,200 duplicate declarations (warnings), and one error at the end.
    const text = `<?php\n${"Route::get('photos', 'photos/index');\n".repeat(1_201)}Route::resource('x');\n$route = Route::map($route);\n`;
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const p = await client.waitForDiagnostics(uri, (d) => d.version === 1, 60_000);
    assert.equal(p.diagnostics.length, CAP + 1);
    assert.equal(p.diagnostics[0].code, 'undefined-route-method', 'the error is kept before the warnings');
    assert.match(messageOf(p.diagnostics[CAP]), /^\d[\d,]* more problems not shown \(ci-routes lists at most 1,000 per file\)\.$/);
  });

  it('a diagnostic lists at most 20 related places, and one more saying how many are left out', async () => {
    await client.initialize(root);
    const uri = pathToFileURL(path.join(root, 'application', 'config', 'routes.php')).toString();
    // 'x/[0-9][0-9]' is matched first by the 100 routes above it: one unreachable-route with 100 places.
    const literals = Array.from({ length: 100 }, (_, i) => `Route::get('x/${String(i).padStart(2, '0')}', 'photos/index');\n`).join('');
    const text = `<?php\n${literals}Route::get('x/[0-9][0-9]', 'photos/index');\n$route = Route::map($route);\n`;
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const p = await client.waitForDiagnostics(uri, (d) => d.version === 1 && d.diagnostics.some((x) => x.code === 'unreachable-route'), 60_000);
    const d = p.diagnostics.find((x) => x.code === 'unreachable-route')!;
    assert.equal(d.relatedInformation?.length, 21);
    // The why first (CodeIgniter takes the first match), then 19 of the 100 routes that match first.
    assert.match(d.relatedInformation?.[0].message ?? '', /^CodeIgniter uses the first route that matches/);
    assert.equal(d.relatedInformation?.[20].message, '81 more places not shown');
    assert.deepEqual(d.relatedInformation?.[20].location, { uri, range: d.range });
  });
});
