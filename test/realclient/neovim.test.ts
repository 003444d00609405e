import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';
import { runHeadlessEditor } from '../helpers/headless-editor';
import { pathWithServer, readmeSnippet, readmeSnippets } from '../helpers/readme-snippets';

const NVIM = process.env.NVIM_BIN ?? 'nvim';
const DRIVER = path.join(ROOT, 'test', 'realclient', 'nvim-driver.lua');

export interface NvimReport {
  exit_code: number;
  nvim: string;
  errors: string[];
  attached: Record<string, { file: string; filetype: string; client_id: number; root_dir: string }>;
  steps: { diagnostics?: { code: string; lnum: number; col: number; severity?: number; message: string }[]; [k: string]: unknown };
}

/** The installed Neovim's [major, minor], or null when it does not run. */
function nvimVersion(): [number, number] | null {
  const r = spawnSync(NVIM, ['--version'], { encoding: 'utf8' });
  const m = r.status === 0 ? /^NVIM v(\d+)\.(\d+)/.exec(r.stdout) : null;
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function atLeast(v: [number, number], min: [number, number]): boolean {
  return v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
}

/** Neovim's environment: a temporary home for its files, and the server on the PATH as the snippets name it. */
function nvimEnv(tmp: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: pathWithServer(path.join(tmp, 'bin')),
    XDG_CONFIG_HOME: path.join(tmp, 'config'),
    XDG_DATA_HOME: path.join(tmp, 'data'),
    XDG_STATE_HOME: path.join(tmp, 'state'),
    XDG_CACHE_HOME: path.join(tmp, 'cache'),
    ...extra,
  };
}

/**
 * Runs headless Neovim with README.md's snippet `snippet` as its init file, as written, and the
 * driver opening `file` (then `also`); resolves with the driver's report.
 */
export function runNeovim(snippet: string, client: string, file: string, extra: Record<string, string> = {}, also: string[] = []): Promise<{ code: number | null; report: NvimReport | null; output: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-nvim-'));
  const out = path.join(tmp, 'result.json');
  const init = path.join(tmp, 'init.lua');
  fs.writeFileSync(init, readmeSnippet(snippet).text);
  const env = nvimEnv(tmp, { CI_CLIENT: client, CI_FILE: file, CI_ALSO: JSON.stringify(also), CI_OUT: out, ...extra });
  return runHeadlessEditor<NvimReport>(NVIM, ['--headless', '-u', init, '-i', 'NONE', '-n', '-c', `luafile ${DRIVER}`, '-c', 'cquit 99'], env, tmp, out);
}

/** The Neovim set-ups README.md shows that the installed Neovim can run, by snippet name. */
const FORMS = [
  { snippet: 'nvim', client: 'ci-routes', since: [0, 7] as [number, number] },
  { snippet: 'nvim-0.11', client: 'ci_routes', since: [0, 11] as [number, number] },
];

describe("real client: headless Neovim set up with README.md's snippets as written", function () {
  this.timeout(180_000);
  let version: [number, number] | null = null;
  before(function () {
    version = nvimVersion();
    if (!version) {
      if (process.env.REQUIRE_NVIM === '1') throw new Error(`Neovim is required here (REQUIRE_NVIM=1) but '${NVIM}' does not run`);
      console.log(`      (skipped: '${NVIM}' is not installed; apt-get install neovim to run the real-client tests)`);
      this.skip();
    }
  });

  function requireVersion(ctx: Mocha.Context, since: [number, number], snippet: string): void {
    if (!atLeast(version!, since)) {
      console.log(`      (skipped: README's '${snippet}' set-up needs Neovim ${since.join('.')}+, and '${NVIM}' is ${version!.join('.')})`);
      ctx.skip();
    }
  }

  for (const form of FORMS) {
    it(`'${form.snippet}': opening the example app's route file attaches it with the app as root; a module's route file joins that client`, async function () {
      requireVersion(this, form.since, form.snippet);
      const file = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
      const module = path.join(EXAMPLE_APP, 'application', 'modules', 'blog', 'config', 'routes.php');
      const { code, report, output } = await runNeovim(form.snippet, form.client, file, {}, [module]);
      assert.ok(report, `no report from the driver: ${output}`);
      assert.equal(code, 0, JSON.stringify(report.errors) + output);
      assert.equal(report.attached.file.filetype, 'php');
      assert.equal(report.attached.file.root_dir, EXAMPLE_APP, 'the folder holding application/ is the root');
      assert.deepStrictEqual(report.steps.diagnostics, [], 'the example app is correct');
      assert.equal(report.attached.also1.client_id, report.attached.file.client_id, 'one server for the application');
    });

    it(`'${form.snippet}': receives the expected diagnostics for a broken routes file`, async function () {
      requireVersion(this, form.since, form.snippet);
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-nvim-app-'));
      try {
        fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
        const file = path.join(root, 'application', 'config', 'routes.php');
        fs.writeFileSync(file, "<?php\nRoute::get('photos/(:any)', 'photos/show/$1');\nRoute::get('photos/(:any)', 'photos/view/$1');\nRoute::resource('albums');\n$route = Route::map($route);\n");
        const { code, report, output } = await runNeovim(form.snippet, form.client, file, { CI_MIN_DIAGNOSTICS: '2' });
        assert.ok(report, `no report from the driver: ${output}`);
        assert.equal(code, 0, JSON.stringify(report.errors) + output);
        assert.equal(report.attached.file.root_dir, fs.realpathSync(root));
        // Errors and warnings: the temporary application has no controllers, so its targets get missing-controller information only.
        const got = (report.steps.diagnostics ?? []).filter((d) => (d.severity ?? 1) <= 2).map((d) => [d.code, d.lnum, d.col]).sort();
        assert.deepStrictEqual(got, [
          ['duplicate-route', 2, 11],
          ['undefined-route-method', 3, 7],
        ]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }

  it("'nvim': hovers resources() with its routes, completes named(' and jumps from a controller to the named route", async () => {
    const routes = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const routeLines = fs.readFileSync(routes, 'utf8').split('\n');
    const resLine = routeLines.findIndex((l) => l.includes("Route::resources('articles'"));
    const hover = await runNeovim('nvim', 'ci-routes', routes, {
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
    const nav = await runNeovim('nvim', 'ci-routes', controller, {
      CI_REQUESTS: JSON.stringify([
        { key: 'completion', method: 'textDocument/completion', line, character: inName },
        { key: 'definition', method: 'textDocument/definition', line, character: inName },
      ]),
    });
    assert.ok(nav.report, nav.output);
    assert.equal(nav.code, 0, JSON.stringify(nav.report.errors));
    assert.equal(nav.report.attached.file.root_dir, EXAMPLE_APP, 'a controller finds the same root');
    const completion = (nav.report.steps.completion as { result?: { label: string }[] | { items: { label: string }[] } }).result;
    const labels = (Array.isArray(completion) ? completion : (completion?.items ?? [])).map((i) => i.label);
    assert.ok(labels.includes('login') && labels.includes('api_status'), labels.join(', '));
    const definition = (nav.report.steps.definition as { result?: { uri: string; range: { start: { line: number } } }[] }).result ?? [];
    assert.equal(definition.length, 1);
    assert.ok(definition[0].uri.endsWith('/application/config/routes.php'));
    assert.equal(definition[0].range.start.line, routeLines.findIndex((l) => l.includes("'as' => 'login'")));
  });

  it("every Lua snippet of README.md is valid Lua for Neovim's LuaJIT (those not run above included)", () => {
    const lua = readmeSnippets().filter((s) => s.lang === 'lua');
    assert.deepStrictEqual(lua.map((s) => s.name), ['nvim', 'nvim-0.11', 'nvim-lspconfig']);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-nvim-lua-'));
    try {
      for (const s of lua) {
        const file = path.join(tmp, `${s.name}.lua`);
        fs.writeFileSync(file, s.text);
        const check = `lua local f, e = loadfile(${JSON.stringify(file)}); if not f then io.stderr:write(e); vim.cmd('cquit 1') end`;
        const r = spawnSync(NVIM, ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', check, '-c', 'qall!'], { encoding: 'utf8', env: nvimEnv(tmp, {}), timeout: 30_000 });
        assert.equal(r.status, 0, `README.md:${s.line} ('${s.name}'): ${r.stderr}`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
