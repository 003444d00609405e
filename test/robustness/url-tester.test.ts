import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { ServerProcess } from './fuzz/server-process';

const CLI = path.resolve(__dirname, '..', '..', '..', 'bin', 'ci-routes.js');

// RE2 keys, then keys only a backtracking engine can run (look-around, back-reference).
const ROUTES = [
  '<?php',
  "Route::get('((a+)+)+$', 'c/m');",
  "Route::get('x/((a+)+)+\\\\1$', 'c/backref');",
  "Route::get('y/(?=(a+)+)((a+)+)+$', 'c/look');",
  "Route::get('photos/(:num)', 'gallery/show/$1');",
  '$route = Route::map($route);',
  '',
].join('\n');

const URIS: [string, string | null][] = [
  [`${'a'.repeat(30000)}!`, null], // disallowed character: CodeIgniter refuses it before routing
  [`${'a'.repeat(30000)}-`, null],
  ['a'.repeat(30000), '((a+)+)+$'],
  [`x/${'a'.repeat(40)}-`, null],
  [`x/${'a'.repeat(30000)}`, null],
  [`y/${'a'.repeat(200)}-`, null],
  ['x/aaaa', 'x/((a+)+)+\\1$'],
  ['photos/12', 'photos/(:num)'],
];

describe('catastrophic patterns in the URL tester', function () {
  this.timeout(60_000);
  let root: string;
  let file: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-redos-'));
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
    file = path.join(root, 'application', 'config', 'routes.php');
    fs.writeFileSync(file, ROUTES);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('ciRoutes/testUrl answers each URI over the protocol', async () => {
    const server = new ServerProcess(root);
    try {
      await server.initialize(root);
      const uri = pathToFileURL(file).toString();
      await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: ROUTES } });
      for (const [url, key] of URIS) {
        const r = (await server.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url })) as { matched_key: string | null } | null;
        assert.ok(r, `an answer for ${url.slice(0, 12)}…`);
        assert.equal(r.matched_key, key, `${url.slice(0, 12)}… (${url.length} characters)`);
      }
      assert.ok(server.alive);
    } finally {
      await server.stop();
    }
  });

  it('ci-routes match answers the same', () => {
    const r = spawnSync(process.execPath, [CLI, 'match', file, '--method', 'GET', '--json', ...URIS.map(([u]) => u)], { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.error, undefined, 'finished in time');
    const out = JSON.parse(r.stdout) as { results: { matched_key: string | null }[] };
    assert.deepEqual(
      out.results.map((x) => x.matched_key),
      URIS.map(([, k]) => k),
    );
  });
});
