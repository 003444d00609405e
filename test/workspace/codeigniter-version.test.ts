import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { detectCodeIgniterVersion } from '../../shared/app/codeigniter-version';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { ROOT } from '../helpers/paths';
import { tempProject } from '../helpers/temp-project';

const CI2 = "<?php\n/**\n * CodeIgniter Version\n */\n\tdefine('CI_VERSION', '2.1.4');\n";
const CI3 = "<?php\n\tconst CI_VERSION = '3.1.13';\n";

/** A project folder holding the given files (paths from the project). */
const project = (files: Record<string, string>): string => tempProject('ci-routes-ci-version-', files);

const made: string[] = [];
after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the CodeIgniter version of an application', () => {
  const detect = (files: Record<string, string>) => {
    const root = project(files);
    made.push(root);
    const v = detectCodeIgniterVersion(root, diskProjectFiles());
    return v && `${v.version} ${v.major} ${path.relative(root, v.source)}`;
  };
  it("is read from CodeIgniter.php in the project's system folder, Composer's or Bonfire's: CodeIgniter 2 defines it, CodeIgniter 3 declares it", () => {
    assert.equal(detect({ 'system/core/CodeIgniter.php': CI2 }), '2.1.4 2 system/core/CodeIgniter.php');
    assert.equal(detect({ 'system/core/CodeIgniter.php': CI3 }), '3.1.13 3 system/core/CodeIgniter.php');
    assert.equal(detect({ 'vendor/codeigniter/framework/system/core/CodeIgniter.php': CI3 }), '3.1.13 3 vendor/codeigniter/framework/system/core/CodeIgniter.php');
    assert.equal(detect({ 'bonfire/ci3/core/CodeIgniter.php': CI3 }), '3.1.13 3 bonfire/ci3/core/CodeIgniter.php');
    assert.equal(detect({ 'bonfire/codeigniter/core/CodeIgniter.php': CI2 }), '2.1.4 2 bonfire/codeigniter/core/CodeIgniter.php');
  });

  it("is CI_VERSION's value in the route files, as CodeIgniter.php defines it before the router reads them", () => {
    const routes = "<?php\n$route['default_controller'] = 'home';\nif (substr(CI_VERSION, 0, 1) != '2') {\n    $route['translate_uri_dashes'] = FALSE;\n} else {\n    $route['legacy'] = 'ci2/only';\n}\n";
    const root = project({ 'system/core/CodeIgniter.php': CI3, 'application/config/routes.php': routes });
    made.push(root);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'eval', 'application/config/routes.php', '--method', 'GET', '--json'], { cwd: root, encoding: 'utf8' });
    const out = JSON.parse(r.stdout) as { routes: [string, unknown][]; incomplete?: unknown[] };
    assert.deepEqual(out.routes, [['default_controller', 'home'], ['translate_uri_dashes', false]], r.stdout);
  });

  it('is unknown without a system folder, or when the constant is commented out or not written plainly', () => {
    assert.equal(detect({ 'application/config/routes.php': '<?php' }), undefined);
    assert.equal(detect({ 'system/core/CodeIgniter.php': "<?php\n// define('CI_VERSION', '2.1.4');\n" }), undefined);
    assert.equal(detect({ 'system/core/CodeIgniter.php': "<?php\ndefine('CI_VERSION', $version);\n" }), undefined);
  });
});

describe("a CodeIgniter 2 application's route files", () => {
  const ci2 = { version: '2.1.4', major: 2, source: 'system/core/CodeIgniter.php' };
  const codes = (lines: string[], codeIgniter?: typeof ci2) => {
    const text = ['<?php', ...lines, ''].join('\n');
    return analyzeRouteFile(text, evaluateRouteFile(text), { codeIgniter }).map((f) => f.code);
  };

  it("are read with CodeIgniter 2's wildcards: (:any) spans segments, so a longer key after it is never reached", () => {
    const lines = ["$route['a/(:any)'] = 'pages/a/$1';", "$route['a/(:any)/b'] = 'pages/b/$1';"];
    assert.deepEqual(codes(lines), []);
    assert.deepEqual(codes(lines, ci2), ['codeigniter-2', 'unreachable-route']);
  });

  it('say once, at the top, that controllers are not checked', () => {
    const [notice] = analyzeRouteFile("<?php\n$route['x'] = 'y';\n", evaluateRouteFile("<?php\n$route['x'] = 'y';\n"), { codeIgniter: ci2 });
    assert.equal(notice?.code, 'codeigniter-2');
    assert.equal(notice?.severity, 'information');
    assert.deepEqual(notice?.span, { start: 0, end: 5 });
    assert.match(notice!.message, /CodeIgniter 2\.1\.4 \(system\/core\/CodeIgniter\.php\).*controllers are not checked/);
  });

  it('report no missing controller where CodeIgniter 2 finds a lower-case controller file (ci-routes check)', () => {
    const root = project({
      'system/core/CodeIgniter.php': CI2,
      'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n$route['about'] = 'home/about';\n",
      'application/controllers/home.php': '<?php\nclass Home extends CI_Controller {\n  public function index() {}\n  public function about() {}\n}\n',
    });
    made.push(root);
    const run = (dir: string) => spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'check'], { cwd: dir, encoding: 'utf8' });
    const r = run(root);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /info: This application runs CodeIgniter 2\.1\.4/);
    assert.doesNotMatch(r.stdout, /\[missing-controller\]/);
    // The same application on CodeIgniter 3: Home.php is what its router looks for.
    fs.writeFileSync(path.join(root, 'system/core/CodeIgniter.php'), CI3);
    assert.match(run(root).stdout, /controllers\/Home\.php.*\[missing-controller\]/);
  });
});
