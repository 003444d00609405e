import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const ROUTES = "<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\n$route = Route::map($route);\n";

/** The server's log lines about following changes on disk: `followed N change event(s) on disk: … R route file(s) read again`. */
function followed(client: LspClient): { events: number; routeFiles: number }[] {
  return client.logs.flatMap((l) => {
    const m = /followed ([\d,]+) change events? on disk: .*?(\d+) route files? read again/.exec(l);
    return m ? [{ events: Number(m[1].replace(/,/g, '')), routeFiles: Number(m[2]) }] : [];
  });
}

async function until(cond: () => boolean, what: string, client: LspClient): Promise<void> {
  const deadline = Date.now() + 60_000; // a deadline for a hang, not a speed requirement
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what} never happened; log: ${client.logs.slice(-10).join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A server on `root`, once its first scan has read the one route file. Notifications sent together
 * must reach it within the quiet time: a long one, so that a loaded machine does not split a burst
 * (the default is 100 ms).
 */
async function startedOn(root: string): Promise<LspClient> {
  const client = new LspClient();
  await client.initialize(root, { debounceMs: 0, watchedFilesQuietMs: 2000 });
  await until(() => client.logs.some((l) => /indexed 1 route file/.test(l)), 'the first scan', client);
  return client;
}

describe('file-change events are coalesced', function () {
  this.timeout(120_000);
  let root: string;
  let client: LspClient;
  let uri: string;
  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-watched-'));
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
    fs.writeFileSync(path.join(root, 'application', 'config', 'routes.php'), ROUTES);
    uri = pathToFileURL(path.join(root, 'application', 'config', 'routes.php')).toString();
    client = await startedOn(root);
  });
  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const total = (f: { events: number; routeFiles: number }[], k: 'events' | 'routeFiles') => f.reduce((n, x) => n + x[k], 0);

  it('2,000 events for one file in one notification read it again once', async () => {
    const changes = Array.from({ length: 2_000 }, () => ({ uri, type: FileChangeType.Changed }));
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.method, { changes });
    await until(() => total(followed(client), 'events') >= 2_000, 'following the 2,000 events', client);
    // The server answers meanwhile and after: a request round trip, then nothing more was read.
    await client.connection.sendRequest('workspace/symbol', { query: 'photos' });
    assert.deepEqual(followed(client), [{ events: 2_000, routeFiles: 1 }]);
  });

  it('2,000 notifications of one event each, sent together, read the file again once', async () => {
    for (let i = 0; i < 2_000; i++) void client.connection.sendNotification(DidChangeWatchedFilesNotification.method, { changes: [{ uri, type: FileChangeType.Changed }] });
    await until(() => total(followed(client), 'events') >= 2_000, 'following the 2,000 events', client);
    await client.connection.sendRequest('workspace/symbol', { query: 'photos' });
    assert.equal(total(followed(client), 'events'), 2_000);
    assert.equal(total(followed(client), 'routeFiles'), 1, JSON.stringify(followed(client)));
  });

  it('a change then a deletion of the file is one deletion: its names are gone', async () => {
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri, type: FileChangeType.Changed }] });
    fs.rmSync(path.join(root, 'application', 'config', 'routes.php'));
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri, type: FileChangeType.Deleted }] });
    await until(() => total(followed(client), 'events') >= 2, 'following the 2 events', client);
    const symbols = (await client.connection.sendRequest('workspace/symbol', { query: 'photos' })) as unknown[];
    assert.deepEqual(symbols, []);
  });
});

describe('files a closed route file includes, changed on disk', function () {
  this.timeout(120_000);
  let root: string;
  let client: LspClient;
  const part = (i: number) => path.join(root, 'application', 'config', 'routes', `part${i}.php`);
  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-includers-'));
    fs.mkdirSync(path.join(root, 'application', 'config', 'routes'), { recursive: true });
    const includes = Array.from({ length: 50 }, (_, i) => `require APPPATH . 'config/routes/part${i}.php';`).join('\n');
    fs.writeFileSync(path.join(root, 'application', 'config', 'routes.php'), `<?php\n${includes}\n$route = Route::map($route);\n`);
    for (let i = 0; i < 50; i++) fs.writeFileSync(part(i), `<?php\nRoute::get('old${i}', 'pages/show/${i}', array('as' => 'old${i}'));\n`);
    client = await startedOn(root);
  });
  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('read the includer again once per batch, and its routes are the new ones', async () => {
    for (let i = 0; i < 50; i++) fs.writeFileSync(part(i), `<?php\nRoute::get('new${i}', 'pages/show/${i}', array('as' => 'new${i}'));\n`);
    const changes = Array.from({ length: 50 }, (_, i) => ({ uri: pathToFileURL(part(i)).toString(), type: FileChangeType.Changed }));
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.method, { changes });
    await until(() => followed(client).length > 0, 'following the 50 events', client);
    assert.deepEqual(followed(client), [{ events: 50, routeFiles: 1 }]);
    const symbols = (await client.connection.sendRequest('workspace/symbol', { query: 'new49' })) as { name: string }[];
    assert.ok(symbols.some((s) => s.name.includes('new49')), JSON.stringify(symbols));
  });
});

describe("composer.json's PHP version, followed on disk", function () {
  this.timeout(120_000);
  it('a change of require.php analyses the open route files again under the new version', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-composer-'));
    const file = path.join(root, 'application', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text = "<?php\n$route[implode(['blog', 'feed'], '/')] = 'blog/feed';\n";
    fs.writeFileSync(file, text);
    const composer = path.join(root, 'composer.json');
    fs.writeFileSync(composer, JSON.stringify({ require: { php: '^7.4' } }));
    const client = await startedOn(root);
    try {
      const uri = pathToFileURL(file).toString();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'php', version: 1, text } });
      const first = await client.waitForDiagnostics(uri);
      assert.ok(!first.diagnostics.some((d) => d.code === 'runtime-error'), 'PHP 7.4 takes the legacy order');
      client.clearDiagnostics(uri);
      fs.writeFileSync(composer, JSON.stringify({ require: { php: '^8.1' } }));
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.method, { changes: [{ uri: pathToFileURL(composer).toString(), type: FileChangeType.Changed }] });
      const second = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'runtime-error'));
      assert.match(String(second.diagnostics.find((d) => d.code === 'runtime-error')?.message), /implode\(\): Argument #2 \(\$array\) must be of type \?array, string given/);
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a file config/constants.php includes, followed on disk', function () {
  this.timeout(120_000);
  it('its change analyses the open route files again under the new constants', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-constants-'));
    const file = path.join(root, 'application', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text = "<?php\n$route[SHOP_PREFIX . '/(:num)'] = 'products/show/$1';\n$route['shop/(:num)'] = 'products/view/$1';\n";
    fs.writeFileSync(file, text);
    fs.writeFileSync(path.join(root, 'application', 'config', 'constants.php'), "<?php\ninclude_once(APPPATH . 'config/more_constants.php');\n");
    const more = path.join(root, 'application', 'config', 'more_constants.php');
    fs.writeFileSync(more, "<?php\ndefine('SHOP_PREFIX', 'store');\n");
    const client = await startedOn(root);
    try {
      const uri = pathToFileURL(file).toString();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'php', version: 1, text } });
      const first = await client.waitForDiagnostics(uri);
      // No controllers folder: missing-controller notes (information) only, beside no duplicate.
      assert.deepEqual(first.diagnostics.filter((d) => d.code !== 'missing-controller' || d.severity !== 3).map((d) => d.code), [], 'store/(:num) and shop/(:num) differ');
      client.clearDiagnostics(uri);
      fs.writeFileSync(more, "<?php\ndefine('SHOP_PREFIX', 'shop');\n");
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.method, { changes: [{ uri: pathToFileURL(more).toString(), type: FileChangeType.Changed }] });
      const second = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'duplicate-route'));
      assert.ok(second.diagnostics.some((d) => d.code === 'duplicate-route'));
    } finally {
      await client.shutdown();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
