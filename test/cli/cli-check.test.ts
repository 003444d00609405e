import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakRoutes } from '../helpers/broken-example';
import { EXAMPLE_APP } from '../helpers/paths';
import { cli } from '../helpers/cli';

/** `ci-routes check`: the language server's diagnostics in a terminal or a CI job. */
describe('ci-routes check', () => {
  let dir: string;
  let app: string;
  let routes: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-check-'));
    app = path.join(dir, 'application');
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), app, { recursive: true });
    routes = path.join(app, 'config', 'routes.php');
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const append = (file: string, lines: string) => fs.appendFileSync(file, `${lines}\n`);

  it('passes the example application', () => {
    const r = cli(['check', routes]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^no problems in 1 route file and \d+ other PHP files\n$/);
  });

  it('prints each finding at its line and column, with its related places, and fails on an error', () => {
    breakRoutes(routes);
    const lines = fs.readFileSync(routes, 'utf8').split('\n');
    const duplicateLine = lines.findIndex((l) => l.startsWith("Route::get('articles'")) + 1;
    const resourceLine = lines.findIndex((l) => l.startsWith("Route::resource('photos')")) + 1;
    const r = cli(['check', routes]);
    assert.equal(r.code, 1, r.stdout);
    const out = r.stdout.split('\n');
    const shown = path.relative(process.cwd(), routes);
    assert.match(out[0], new RegExp(`^${escape(shown)}:${duplicateLine}:12: warning: 'articles' is declared again: .* \\[duplicate-route\\]$`));
    assert.match(out[1], new RegExp(`^  ${escape(shown)}:${duplicateLine}:12: a PHP array keeps the first position and the last value`));
    assert.match(out[2], new RegExp(`^  ${escape(shown)}:\\d+:\\d+: the replaced declaration of 'articles' \\(target 'blog/posts/index'\\)$`));
    assert.match(out[3], new RegExp(`^${escape(shown)}:${resourceLine}:8: error: Route::resource\\(\\) does not exist: .* \\[undefined-route-method\\]$`));
    assert.match(out[5], /^2 problems in 1 route file and \d+ other PHP files: 1 error, 1 warning$/);
  });

  it('gives the same findings as JSON, with 1-based places', () => {
    breakRoutes(routes);
    const r = cli(['check', routes, '--json']);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout);
    assert.equal(json.errors, 1);
    assert.equal(json.warnings, 1);
    assert.equal(json.failed, true);
    assert.equal(json.files[0].file, routes);
    const [duplicate, undefinedMethod] = json.files[0].findings;
    assert.equal(duplicate.code, 'duplicate-route');
    assert.deepEqual(duplicate.methods, ['GET']);
    assert.equal(duplicate.endLine, duplicate.line);
    assert.equal(duplicate.endColumn - duplicate.column, "'articles'".length);
    assert.equal(duplicate.related[1].file, routes);
    assert.ok(duplicate.related[1].line < duplicate.line);
    assert.equal(undefinedMethod.code, 'undefined-route-method');
    assert.equal(undefinedMethod.severity, 'error');
  });

  it('fails on warnings only past --max-warnings', () => {
    // A route declared after map(), and one whose controller does not exist: two warnings.
    append(routes, "Route::get('late', 'blog/posts/index');");
    fs.writeFileSync(routes, fs.readFileSync(routes, 'utf8').replace('$route = Route::map($route);', "Route::get('nowhere', 'no_such/controller');\n$route = Route::map($route);"));
    const warnings = cli(['check', routes, '--json']);
    assert.equal(warnings.code, 0, warnings.stdout);
    assert.deepEqual(
      JSON.parse(warnings.stdout).files[0].findings.map((f: { code: string }) => f.code),
      ['missing-controller', 'routes-after-map'],
    );
    assert.equal(cli(['check', routes, '--max-warnings', '2']).code, 0);
    const over = cli(['check', routes, '--max-warnings', '1']);
    assert.equal(over.code, 1);
    assert.match(over.stdout, /2 problems in 1 route file and \d+ other PHP files: 2 warnings \(more than --max-warnings 1\)\n$/);
  });

  it('knows the route names of every route file of the application, given or not', () => {
    const module = path.join(app, 'modules', 'shop', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(module), { recursive: true });
    fs.writeFileSync(module, "<?php\nRoute::get('shop', 'shop/index', ['as' => 'shop']);\n$route = Route::map($route);\n");
    fs.mkdirSync(path.join(app, 'modules', 'shop', 'controllers'));
    fs.writeFileSync(path.join(app, 'modules', 'shop', 'controllers', 'Shop.php'), '<?php\nclass Shop extends MX_Controller { public function index() {} }\n');
    fs.writeFileSync(routes, fs.readFileSync(routes, 'utf8').replace('$route = Route::map($route);', "$shop = Route::named('shop');\n$route = Route::map($route);"));
    const found = cli(['check', routes]);
    assert.equal(found.code, 0, found.stdout);
    const both = cli(['check', routes, module, path.join(path.dirname(routes), '.', 'routes.php')]);
    assert.equal(both.code, 0, both.stdout);
    assert.match(both.stdout, /^no problems in 2 route files and \d+ other PHP files\n$/);
    // Told to read nothing else, it does not know the module's names.
    const alone = cli(['check', routes, '--route-files-only', '--json']);
    assert.deepEqual(JSON.parse(alone.stdout).files[0].findings.map((f: { code: string }) => f.code), ['unknown-route-name']);
    assert.equal(alone.code, 1);
  });

  it('finds names no route has in views and controllers, after the route files', () => {
    const view = path.join(app, 'views', 'check', 'menu.php');
    fs.mkdirSync(path.dirname(view), { recursive: true });
    fs.writeFileSync(view, "<ul>\n  <li><a href=\"<?= site_url(Route::named('contcat')) ?>\">Contact</a></li>\n  <li><?= Route::named($dynamic) ?></li>\n</ul>\n");
    breakRoutes(routes);
    const r = cli(['check', routes]);
    assert.equal(r.code, 1);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[lines.length - 2], new RegExp(`^${escape(path.relative(process.cwd(), view))}:2:42: error: No route is named 'contcat' .*Did you mean 'contact'\\? \\[unknown-route-name\\]$`));
    assert.match(lines[lines.length - 1], /^3 problems in 1 route file and \d+ other PHP files: 2 errors, 1 warning$/);
    const json = JSON.parse(cli(['check', routes, '--json']).stdout);
    assert.deepEqual(json.files.map((f: { kind: string }) => f.kind), ['route file', 'PHP file']);
    assert.equal(json.files[1].file, view);
    assert.deepEqual(json.files[1].findings.map((f: { line: number; column: number; endColumn: number }) => [f.line, f.column, f.endColumn]), [[2, 42, 51]]);
    assert.ok(json.phpFilesSeen > 0);
    // Only the route files: the view is not read.
    assert.doesNotMatch(cli(['check', routes, '--route-files-only']).stdout, /menu\.php/);
  });

  it('goes on past a fatal error: every other finding shows, marked when PHP never gets there, and views name the cause', () => {
    const text = fs.readFileSync(routes, 'utf8');
    const aboutLine = text.split('\n').findIndex((l) => l.includes("'as' => 'about'")) + 1;
    // A fatal error above every declaration, and a duplicate below it.
    fs.writeFileSync(routes, text.replace(/\n(Route::|\$route\[)/, "\nRoute::resource('photos');\n$1").replace('$route = Route::map($route);', "Route::get('contact', 'pages/other');\n$route = Route::map($route);"));
    const view = path.join(app, 'views', 'check', 'menu.php');
    fs.mkdirSync(path.dirname(view), { recursive: true });
    fs.writeFileSync(view, "<?= Route::named('about') ?>\n");
    const r = cli(['check', routes]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /error: Route::resource\(\) does not exist: .*\[undefined-route-method\]\n/);
    assert.match(r.stdout, /warning: 'contact' is declared again: .*\(PHP never gets here: it stops at line \d+\.\) \[duplicate-route\]\n/);
    assert.match(r.stdout, new RegExp(`menu\\.php:1:18: error: 'about' is declared in .*routes\\.php at line ${aboutLine + 1}, after line \\d+ where PHP stops \\(Error: Call to undefined method Route::resource\\(\\)\\)`));
    // list and eval say what PHP does: it stops there.
    const list = cli(['list', routes]);
    assert.match(list.stdout, /GET: Error: Call to undefined method Route::resource\(\)/);
    assert.doesNotMatch(list.stdout, /pages\/other/);
  });

  it('takes severities as the editor setting does: a level in place of the default, or off', () => {
    breakRoutes(routes);
    const codes = (args: string[]) => JSON.parse(cli(['check', routes, '--json', ...args]).stdout).files[0].findings.map((f: { code: string; severity: string }) => `${f.code}:${f.severity}`);
    assert.deepEqual(codes([]), ['duplicate-route:warning', 'undefined-route-method:error']);
    assert.deepEqual(codes(['--severity', 'duplicate-route=error', '--severity', 'undefined-route-method=off']), ['duplicate-route:error']);
    // With the error turned off and the warning made a hint, nothing fails the run.
    const r = cli(['check', routes, '--severity', 'undefined-route-method=off', '--severity', 'duplicate-route=hint', '--max-warnings', '0']);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /: hint: 'articles' is declared again/);
    assert.match(r.stdout, /1 problem in 1 route file and \d+ other PHP files: 1 hint\n$/);
  });

  it('does not guess at route names while a route file is not evaluated to the end', () => {
    const view = path.join(app, 'views', 'check', 'menu.php');
    fs.mkdirSync(path.dirname(view), { recursive: true });
    fs.writeFileSync(view, "<?= Route::named('contcat') ?>\n");
    // The example's routes take more than 40 steps: the names past the budget are unknown.
    const stopped = cli(['check', routes, '--max-steps', '40']);
    assert.equal(stopped.code, 0, stopped.stdout);
    assert.match(stopped.stdout, /: warning: Evaluation stopped after 40 steps .*\[evaluation-limit\]\n/);
    assert.doesNotMatch(stopped.stdout, /unknown-route-name/);
    assert.match(stopped.stdout, /Route::named\(\) is not checked: .*routes\.php is not evaluated to the end \(see the evaluation-limit finding; --max-steps raises the step budget\)\n/);
    assert.equal(JSON.parse(cli(['check', routes, '--max-steps', '40', '--json']).stdout).namesChecked, false);
    // With the budget it needs, the misspelt name is found again.
    const full = JSON.parse(cli(['check', routes, '--max-steps', '1000000', '--json']).stdout);
    assert.equal(full.namesChecked, true);
    assert.deepEqual(full.files.map((f: { file: string }) => f.file), [routes, view]);
  });

  it('refuses what does not apply, with exit 2', () => {
    for (const args of [['check'], ['check', routes, '--method', 'GET'], ['check', routes, '--max-warnings', 'some'], ['list', routes, '--max-warnings', '1'], ['list', routes, '--route-files-only'], ['list', routes, '--severity', 'duplicate-route=off'], ['check', routes, '--severity', 'duplicate-route'], ['check', routes, '--severity', 'no-such-code=off'], ['check', routes, '--severity', 'duplicate-route=loud'], ['check', routes, '--max-steps', '0'], ['list', routes, '--max-steps', 'many'], ['check', path.join(dir, 'missing.php')]]) {
      const r = cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^ci-routes: .+\n$/);
    }
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
