import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

const NVIM = process.env.NVIM_BIN ?? 'nvim';
const DRIVER = path.join(ROOT, 'test', 'realclient', 'nvim-driver.lua');
const SERVER = path.join(ROOT, 'bin', 'ci-routes-language-server.js');

export interface NvimReport {
  exit_code: number;
  errors: string[];
  steps: { diagnostics?: { code: string; lnum: number; col: number; message: string }[]; [k: string]: unknown };
}

function nvimAvailable(): boolean {
  const r = spawnSync(NVIM, ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/** Runs headless Neovim against the server; resolves with the driver's report. */
export function runNeovim(file: string, root: string, extra: Record<string, string> = {}): Promise<{ code: number | null; report: NvimReport | null; output: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-nvim-'));
  const out = path.join(tmp, 'result.json');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(tmp, 'config'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    XDG_STATE_HOME: path.join(tmp, 'state'),
    XDG_CACHE_HOME: path.join(tmp, 'cache'),
    CI_CMD: JSON.stringify([process.execPath, SERVER, '--stdio']),
    CI_FILE: file,
    CI_ROOT: root,
    CI_OUT: out,
    ...extra,
  };
  return new Promise((resolve) => {
    const child = spawn(NVIM, ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${DRIVER}`, '-c', 'cquit 99'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000); // after the driver's own watchdog (120 s)
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: NvimReport | null = null;
      try {
        report = JSON.parse(fs.readFileSync(out, 'utf8')) as NvimReport;
      } catch {
        report = null;
      }
      fs.rmSync(tmp, { recursive: true, force: true });
      resolve({ code, report, output });
    });
  });
}

describe('real client: headless Neovim', function () {
  this.timeout(180_000);
  before(function () {
    if (!nvimAvailable()) {
      if (process.env.REQUIRE_NVIM === '1') throw new Error(`Neovim is required here (REQUIRE_NVIM=1) but '${NVIM}' does not run`);
      console.log(`      (skipped: '${NVIM}' is not installed; apt-get install neovim to run the real-client tests)`);
      this.skip();
    }
  });

  it('opens the example app routes file and receives no diagnostics (it is correct)', async () => {
    const file = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const { code, report, output } = await runNeovim(file, EXAMPLE_APP);
    assert.ok(report, `no report from the driver: ${output}`);
    assert.equal(code, 0, JSON.stringify(report.errors));
    assert.deepStrictEqual(report.steps.diagnostics, []);
  });

  it('hovers resources() with its routes, completes named(\' and jumps from a controller to the named route', async () => {
    const routes = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const routeLines = fs.readFileSync(routes, 'utf8').split('\n');
    const resLine = routeLines.findIndex((l) => l.includes("Route::resources('articles'"));
    const hover = await runNeovim(routes, EXAMPLE_APP, {
      CI_REQUESTS: JSON.stringify([{ key: 'hover', method: 'textDocument/hover', line: resLine, character: 9 }]),
    });
    assert.ok(hover.report, hover.output);
    assert.equal(hover.code, 0, JSON.stringify(hover.report.errors));
    const hoverResult = (hover.report.steps.hover as { result?: { contents?: { value?: string } } }).result;
    assert.match(String(hoverResult?.contents?.value), /Route::resources\(\)\*\* — 7 routes/);
    assert.match(String(hoverResult?.contents?.value), /\| GET \| `articles\/new` \| `blog\/posts\/create_new` \|/);

    const controller = path.join(EXAMPLE_APP, 'application', 'controllers', 'Users.php');
    const lines = fs.readFileSync(controller, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes("Route::named('login')"));
    const inName = lines[line].indexOf("'login'") + 3;
    const nav = await runNeovim(controller, EXAMPLE_APP, {
      CI_REQUESTS: JSON.stringify([
        { key: 'completion', method: 'textDocument/completion', line, character: inName },
        { key: 'definition', method: 'textDocument/definition', line, character: inName },
      ]),
    });
    assert.ok(nav.report, nav.output);
    assert.equal(nav.code, 0, JSON.stringify(nav.report.errors));
    const completion = (nav.report.steps.completion as { result?: { label: string }[] | { items: { label: string }[] } }).result;
    const labels = (Array.isArray(completion) ? completion : (completion?.items ?? [])).map((i) => i.label);
    assert.ok(labels.includes('login') && labels.includes('api_status'), labels.join(', '));
    const definition = (nav.report.steps.definition as { result?: { uri: string; range: { start: { line: number } } }[] }).result ?? [];
    assert.equal(definition.length, 1);
    assert.ok(definition[0].uri.endsWith('/application/config/routes.php'));
    assert.equal(definition[0].range.start.line, routeLines.findIndex((l) => l.includes("'as' => 'login'")));
  });

  it('receives the expected diagnostics for a broken routes file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-nvim-app-'));
    try {
      fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
      const file = path.join(root, 'application', 'config', 'routes.php');
      fs.writeFileSync(file, "<?php\nRoute::get('photos/(:any)', 'photos/show/$1');\nRoute::get('photos/(:any)', 'photos/view/$1');\nRoute::resource('albums');\n$route = Route::map($route);\n");
      const { code, report, output } = await runNeovim(file, root, { CI_MIN_DIAGNOSTICS: '2' });
      assert.ok(report, `no report from the driver: ${output}`);
      assert.equal(code, 0, JSON.stringify(report.errors));
      const got = (report.steps.diagnostics ?? []).map((d) => [d.code, d.lnum, d.col]).sort();
      assert.deepStrictEqual(got, [
        ['duplicate-route', 2, 11],
        ['undefined-route-method', 3, 7],
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
