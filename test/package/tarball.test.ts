import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';
import { MANIFEST, TARBALL, skipUnless } from './artifacts';

/**
 * The npm package as a user gets it: `npm pack`'s tarball (CI's .ci/run makes it) installed with
 * `npm install -g` into an empty prefix, offline (so it needs no dependency), its bins run from
 * outside the checkout.
 */
describe('the npm package, installed from its tarball', function () {
  this.timeout(120_000);
  let prefix = '';
  let installed = '';
  let env: NodeJS.ProcessEnv = {};
  const away = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-elsewhere-'));

  before(function () {
    skipUnless(this, fs.existsSync(TARBALL) ? undefined : `no ${path.basename(TARBALL)}: \`npm pack\` builds it (CI does)`);
    prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-prefix-'));
    const npm = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', TARBALL], { cwd: away, encoding: 'utf8' });
    assert.equal(npm.status, 0, `npm install -g --offline ${TARBALL}: ${npm.stderr}${npm.stdout}`);
    installed = path.join(prefix, 'lib', 'node_modules', 'ci-routes');
    const stale = ['dist/cli.js', 'dist/server.js'].filter((f) => !fs.readFileSync(path.join(installed, f)).equals(fs.readFileSync(path.join(ROOT, f))));
    skipUnless(this, stale.length ? `${path.basename(TARBALL)} holds other bundles than dist/ (${stale.join(', ')}): \`npm pack\` again` : undefined);
    // Only the prefix's bins and node itself on PATH: nothing of the checkout is reachable.
    env = { PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter), HOME: away, NO_COLOR: '1' };
  });

  after(() => {
    for (const dir of [prefix, away]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function run(bin: string, ...args: string[]) {
    const r = spawnSync(path.join(prefix, 'bin', bin), args, { cwd: away, env, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('holds the bins, their bundles and the docs, and installs nothing else', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(installed, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) walk(rel);
        else files.push(rel);
      }
    };
    walk('');
    assert.deepEqual(files.sort(), ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin/ci-routes-language-server.js', 'bin/ci-routes.js', 'dist/cli.js', 'dist/server.js', 'package.json']);
    assert.deepEqual(fs.readdirSync(path.join(prefix, 'lib', 'node_modules')), ['ci-routes']);
    assert.deepEqual(fs.readdirSync(path.join(prefix, 'bin')).sort(), ['ci-routes', 'ci-routes-language-server']);
  });

  it('ci-routes answers --help and --version', () => {
    const help = run('ci-routes', '--help');
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^ci-routes: CodeIgniter 3 route files/);
    assert.match(help.stdout, /--version/);
    const version = run('ci-routes', '--version');
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, new RegExp(`\\b${MANIFEST.version.replace(/\./g, '\\.')}\\b`));
  });

  it("ci-routes list prints the example app's routes", () => {
    const r = run('ci-routes', 'list', path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), '--method', 'GET');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^default_controller = home$/m);
    assert.match(r.stdout, /^GET +about +pages\/show\/about +about +\S+routes\.php:20$/m);
    assert.match(r.stdout, /^GET +articles\/\(:num\)\/\(:any\) +blog\/posts\/show\/\$1 +article /m);
  });

  it('ci-routes-language-server --stdio answers initialize, then shuts down and exits 0', async () => {
    const server = spawn(path.join(prefix, 'bin', 'ci-routes-language-server'), ['--stdio'], { cwd: away, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    server.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    let received = Buffer.alloc(0);
    const waiting = new Map<number, (message: any) => void>();
    server.stdout.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const headerEnd = received.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(received.toString('ascii', 0, headerEnd))?.[1]);
        if (received.length < headerEnd + 4 + length) return;
        const message = JSON.parse(received.toString('utf8', headerEnd + 4, headerEnd + 4 + length));
        received = received.subarray(headerEnd + 4 + length);
        if (message.id !== undefined && waiting.has(message.id)) waiting.get(message.id)!(message);
      }
    });
    const send = (message: object) => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    const request = (id: number, method: string, params: unknown) =>
      new Promise<any>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method} in 20 s; stderr: ${stderr}`)), 20_000);
        waiting.set(id, (m) => (clearTimeout(timer), resolve(m)));
        send({ id, method, params });
      });
    try {
      const init = await request(1, 'initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      assert.equal(init.error, undefined, JSON.stringify(init.error));
      assert.deepEqual(init.result.serverInfo, { name: 'ci-routes-language-server', version: MANIFEST.version });
      assert.equal(init.result.capabilities.hoverProvider, true);
      assert.equal(init.result.capabilities.textDocumentSync.openClose, true);
      send({ method: 'initialized', params: {} });
      const shutdown = await request(2, 'shutdown', null);
      assert.equal(shutdown.error, undefined);
      send({ method: 'exit' });
      assert.equal(await exited, 0, stderr);
    } finally {
      server.kill();
    }
  });
});
