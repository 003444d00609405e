import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFORMANCE, ROOT } from '../helpers/paths';

const BIN = path.join(ROOT, 'bin', 'ci-routes.js');

function ciRoutes(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('ci-routes as a process', () => {
  it('prints exactly one JSON object for eval --json', () => {
    const r = ciRoutes('eval', path.join(CONFORMANCE, 'cases', '01-verbs.php'), '--method', 'POST', '--json');
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout);
    assert.deepStrictEqual(Object.keys(out), ['routes', 'named', 'error', 'warnings', 'incomplete']);
    assert.deepStrictEqual(out.routes.find((e: string[]) => e[0] === 'upload'), ['upload', 'files/receive']);
  });

  it('fails with one clear line and exit 2 on a missing file', () => {
    const r = ciRoutes('list', 'does/not/exist.php');
    assert.equal(r.code, 2);
    assert.equal(r.stderr, "ci-routes: cannot read 'does/not/exist.php': no such file\n");
  });

  it('fails with one clear line and exit 2 on an unknown method', () => {
    const r = ciRoutes('eval', path.join(CONFORMANCE, 'cases', '01-verbs.php'), '--method', 'FETCH');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ci-routes: unknown request method 'FETCH' \(expected one of GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS, CLI\)\n$/);
  });

  it('fails with one clear line and exit 2 on a bad flag', () => {
    const r = ciRoutes('list', path.join(CONFORMANCE, 'cases', '01-verbs.php'), '--colour');
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /ci-routes: Unknown option '--colour'/);
  });

  it('requires --method for eval (match routes GET without it)', () => {
    const r = ciRoutes('eval', path.join(CONFORMANCE, 'cases', '01-verbs.php'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ci-routes: --method is required/);
  });

  it('lists a table without colours when not on a terminal', () => {
    const r = ciRoutes('list', path.join(CONFORMANCE, 'cases', '01-verbs.php'));
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.stdout, /\u001b\[/);
    assert.match(r.stdout, /^METHOD\s+URI\s+TARGET\s+NAME\s+DECLARED AT$/m);
    assert.match(r.stdout, /^POST\s+upload\s+files\/receive\s+\S+01-verbs\.php:19$/m);
    assert.match(r.stdout, /^ANY\s+status\s+monitor\/status\s+status\s+/m);
  });

  it('check exits 0 on the example application and 1 on a file with an error', () => {
    const clean = ciRoutes('check', path.join('examples', 'bonfire-app', 'application', 'config', 'routes.php'));
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /^no problems in 1 route file and \d+ other PHP files\n$/);
    const broken = ciRoutes('check', path.join(CONFORMANCE, 'cases', '17-closure-via-route.php'));
    assert.equal(broken.code, 1, broken.stdout + broken.stderr);
    assert.match(broken.stdout, /^test\/conformance\/cases\/17-closure-via-route\.php:\d+:\d+: error: .*\[(closure-target|runtime-error)\]$/m);
  });

  it('says on stderr, and with exit 1, when the evaluation stopped at its step budget', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-budget-'));
    try {
      const file = path.join(dir, 'routes.php');
      fs.writeFileSync(file, "<?php\nRoute::get('a', 'b/c');\nfor ($i = 0; $i < 1000000; $i++) {}\nRoute::get('late', 'b/late');\n$route = Route::map($route);\n");
      // The first line on stderr (match adds that no route table came out of it).
      const warning = /^ci-routes: warning: \S*routes\.php:3: evaluation stopped after 100,000 steps \(an endless loop\?\): routes after this point are not known \(--max-steps raises the budget\)\n/;
      for (const args of [['list'], ['eval', '--method', 'GET', '--json'], ['match', '--method', 'GET', 'late']]) {
        const r = ciRoutes(args[0], file, ...args.slice(1));
        assert.equal(r.code, 1, args.join(' '));
        assert.match(r.stderr, warning, args.join(' '));
      }
      const full = ciRoutes('list', file, '--max-steps', '10000000');
      assert.equal(full.code, 0, full.stderr);
      assert.equal(full.stderr, '');
      assert.match(full.stdout, /^GET\s+late\s+b\/late\s/m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 1 and says why when the file stops with a PHP error', () => {
    const r = ciRoutes('list', path.join(CONFORMANCE, 'cases', '17-closure-via-route.php'), '--method', 'GET');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /GET: TypeError: str_replace\(\): Argument #3 \(\$subject\) must be of type array\|string, Closure given/);
  });
});
