import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';
import { runHeadlessEditor } from '../helpers/headless-editor';
import { pathWithServer, readmeSnippet, readmeSnippets, SERVER_COMMAND } from '../helpers/readme-snippets';

const EMACS = process.env.EMACS_BIN ?? 'emacs';
const EGLOT_DRIVER = path.join(ROOT, 'test', 'realclient', 'eglot-driver.el');
const LSP_MODE_DRIVER = path.join(ROOT, 'test', 'realclient', 'lsp-mode-driver.el');
/** What a user's Emacs does at start-up before the init file: the installed packages' autoloads. */
const STARTUP = ['--batch', '--eval', '(package-activate-all)'];

interface FileState {
  mode: string;
  managed: boolean;
  project: string | null;
  command: string[] | null;
}
interface EglotReport {
  emacs: string;
  exit_code: number;
  errors: string[];
  file?: FileState;
  diagnostics?: { code: string; line: number; character: number }[];
  also_same?: FileState & { same_server: boolean };
  also_other?: FileState;
}
interface LspModeReport {
  exit_code: number;
  errors: string[];
  mode?: string;
  root?: string;
  servers?: string[];
  diagnostics?: { code: string; line: number }[];
}

/** Why this Emacs cannot run README's set-up needing `packages` (Lisp libraries), or null. */
function emacsProblem(packages: string[], install: string): string | null {
  const test = packages.map((p) => `(locate-library "${p}")`).join(' ');
  const probe = spawnSync(EMACS, [...STARTUP, '--eval', `(princ (if (and ${test}) "ok" "missing"))`], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error || probe.status !== 0) return `'${EMACS}' does not run`;
  if (!probe.stdout.includes('ok')) return `'${EMACS}' lacks ${packages.join(' or ')} (apt-get install ${install})`;
  return null;
}

/** Runs batch Emacs with README's snippet `snippet` loaded as the init file, as written, then `driver`. */
function runEmacs<R>(snippet: string, driver: string, file: string, extra: Record<string, string>): Promise<{ code: number | null; report: R | null; output: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-emacs-'));
  const out = path.join(tmp, 'result.json');
  const init = path.join(tmp, 'init.el');
  fs.writeFileSync(init, readmeSnippet(snippet).text);
  const env = { ...process.env, HOME: tmp, PATH: pathWithServer(path.join(tmp, 'bin')), CI_FILE: file, CI_OUT: out, ...extra };
  return runHeadlessEditor<R>(EMACS, [...STARTUP, '-l', init, '-l', driver], env, tmp, out);
}

/**
 * A copy of the example app outside any repository (so that the Eglot snippet's project function
 * decides the root), with a route declared after map(): one `routes-after-map` on `lateLine`.
 */
function copyExampleApp(): { app: string; file: string; lateLine: number } {
  const app = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-emacs-app-')));
  fs.cpSync(EXAMPLE_APP, app, { recursive: true });
  const file = path.join(app, 'application', 'config', 'routes.php');
  fs.appendFileSync(file, "Route::get('late', 'pages/show/late');\n");
  return { app, file, lateLine: fs.readFileSync(file, 'utf8').split('\n').length - 2 };
}

/** What lsp-mode and Eglot print of what they disliked in the server's messages. */
const CLIENT_COMPLAINTS = /unsupported capability|[Uu]nknown notification|[Uu]nknown request/;

/** The lines of Emacs' output that complain, for the assertion's message. */
function complaintsIn(output: string): string {
  return output.split('\n').filter((line) => CLIENT_COMPLAINTS.test(line)).join(' | ');
}

describe("real client: Emacs + Eglot set up with README.md's snippet as written", function () {
  this.timeout(180_000);
  before(function () {
    const problem = emacsProblem(['eglot', 'php-mode'], 'emacs-nox elpa-eglot elpa-php-mode');
    if (problem) {
      if (process.env.REQUIRE_EMACS === '1') throw new Error(`Emacs with Eglot is required here (REQUIRE_EMACS=1) but ${problem}`);
      console.log(`      (skipped: ${problem}; apt-get install emacs-nox elpa-eglot elpa-php-mode to run the Eglot test)`);
      this.skip();
    }
  });

  it("gives route files the snippet's mode and the ci-routes server, rooted at the folder holding application/; other PHP files keep php-mode", async () => {
    const { app, file, lateLine } = copyExampleApp();
    try {
      const { code, report, output } = await runEmacs<EglotReport>('eglot', EGLOT_DRIVER, file, {
        CI_MIN_DIAGNOSTICS: '1',
        CI_ALSO_SAME: path.join(app, 'application', 'modules', 'blog', 'config', 'routes.php'),
        CI_ALSO_OTHER: path.join(app, 'application', 'controllers', 'Users.php'),
      });
      assert.ok(report, `no report from the driver: ${output}`);
      assert.equal(code, 0, JSON.stringify(report.errors) + output);
      assert.doesNotMatch(output, CLIENT_COMPLAINTS, `the server registers and sends only what Eglot takes: ${complaintsIn(output)}`);
      assert.equal(report.file?.mode, 'ci-routes-php-mode');
      assert.equal(report.file?.managed, true);
      assert.deepStrictEqual(report.file?.command, [SERVER_COMMAND, '--stdio']);
      assert.equal(report.file?.project, app + '/', 'the folder holding application/ is the project');
      assert.deepStrictEqual(report.diagnostics?.map((d) => [d.code, d.line]), [['routes-after-map', lateLine]]);
      assert.equal(report.also_same?.mode, 'ci-routes-php-mode');
      assert.equal(report.also_same?.same_server, true, "a module's route file joins the application's server");
      assert.equal(report.also_other?.mode, 'php-mode');
      assert.equal(report.also_other?.managed, false, 'a controller is left to the PHP server of php-mode');
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });

  it('every Emacs Lisp snippet of README.md reads as complete forms', () => {
    const elisp = readmeSnippets().filter((s) => s.lang === 'elisp');
    assert.deepStrictEqual(elisp.map((s) => s.name), ['eglot', 'lsp-mode']);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-elisp-'));
    try {
      for (const s of elisp) {
        const file = path.join(tmp, `${s.name}.el`);
        fs.writeFileSync(file, s.text);
        const read = `(with-temp-buffer (insert-file-contents ${JSON.stringify(file)}) (emacs-lisp-mode) (check-parens) (let ((n 0)) (condition-case nil (while t (read (current-buffer)) (setq n (1+ n))) (end-of-file (princ n)))))`;
        const r = spawnSync(EMACS, ['--batch', '--eval', read], { encoding: 'utf8', timeout: 60_000 });
        assert.equal(r.status, 0, `README.md:${s.line} ('${s.name}'): ${r.stderr}`);
        assert.ok(Number(r.stdout) > 0, `README.md:${s.line} ('${s.name}'): no form read`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("real client: Emacs + lsp-mode set up with README.md's snippet as written", function () {
  this.timeout(180_000);
  before(function () {
    const problem = emacsProblem(['lsp-mode', 'php-mode'], 'emacs-nox elpa-lsp-mode elpa-php-mode');
    if (problem) {
      if (process.env.REQUIRE_EMACS === '1') throw new Error(`Emacs with lsp-mode is required here (REQUIRE_EMACS=1) but ${problem}`);
      console.log(`      (skipped: ${problem}; it runs the lsp-mode test)`);
      this.skip();
    }
  });

  it('runs ci-routes as an add-on server in php-mode, rooted where the user says, and gets no complaint from lsp-mode', async () => {
    const { app, file, lateLine } = copyExampleApp();
    try {
      const { code, report, output } = await runEmacs<LspModeReport>('lsp-mode', LSP_MODE_DRIVER, file, { CI_ROOT: app, CI_MIN_DIAGNOSTICS: '1' });
      assert.ok(report, `no report from the driver: ${output}`);
      assert.equal(code, 0, JSON.stringify(report.errors) + output);
      assert.doesNotMatch(output, CLIENT_COMPLAINTS, `the server registers and sends only what lsp-mode takes: ${complaintsIn(output)}`);
      assert.equal(report.mode, 'php-mode');
      assert.ok(report.servers?.includes('ci-routes'), JSON.stringify(report.servers));
      assert.equal(report.root, app);
      assert.deepStrictEqual(report.diagnostics?.map((d) => [d.code, d.line]), [['routes-after-map', lateLine]]);
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });
});
