import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';

/** A route file whose routes partly come from the database and the configuration, as real ones do. */
const ROUTES = `<?php
$route['default_controller'] = 'home';
foreach ($this->db->get('pages')->result() as $page) {
    $route[$page->slug] = 'pages/show/' . $page->id;
}
$route[config_item('admin_path')] = 'admin/dashboard';
$route['about'] = 'pages/about';
`;

describe('ci-routes: routes that cannot be known statically are said, never dropped', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-unknown-'));
    file = path.join(dir, 'application', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, ROUTES);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('list shows them in their place, warns of each on stderr and exits 1', () => {
    const r = cli(['list', file]);
    assert.equal(r.code, 1);
    const rows = r.stdout.split('\n').filter((l) => /^ANY /.test(l)).map((l) => l.split(/\s{2,}/).slice(1, 3));
    assert.deepEqual(rows, [
      ['‹unknown path›', '‹the property ->id is not evaluated (objects are not)›'],
      ['‹unknown path›', 'admin/dashboard'],
      ['about', 'pages/about'],
    ]);
    assert.equal(r.stderr.split('\n').filter((l) => l.includes('a route that cannot be known statically')).length, 2, r.stderr);
    assert.match(r.stderr, /routes\.php:6: a route that cannot be known statically \(path: .*config_item/);
  });

  it('eval --json is PHP’s table as far as it is known, then what is not (incomplete)', () => {
    const r = cli(['eval', file, '--method', 'GET', '--json']);
    const out = JSON.parse(r.stdout) as { routes: [string, string][]; incomplete: { line: number; reason: string }[] };
    assert.deepEqual(out.routes.map(([k]) => k), ['default_controller', '<dynamic>', '<dynamic>', 'about']);
    assert.deepEqual(out.incomplete.map((u) => u.line), [4, 6]);
    assert.match(out.incomplete[1]!.reason, /^path: .*config_item/);
  });

  it('match answers, and says an unknown route may take the URI first', () => {
    const r = cli(['match', file, '--method', 'GET', '--json', '--', 'about']);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { results: { main_matched_key: string }[]; unknown_routes: { declared_at: string }[] };
    assert.equal(out.results[0]!.main_matched_key, 'about');
    assert.deepEqual(out.unknown_routes.map((u) => u.declared_at.replace(/^.*:/, '')), ['4', '6']);
    const text = cli(['match', file, '--method', 'GET', '--', 'about']).stdout;
    assert.match(text, /unsure +2 routes of the table cannot be known statically \(.*:4, .*:6\): one of them may take this URI first/);
  });
});

/** A route file of `text` in a temporary folder for the enclosing describe block; its path once `before` ran. */
function withRouteFile(prefix: string, text: string): { file: string } {
  const state = { file: '' };
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    state.file = path.join(dir, 'routes.php');
    fs.writeFileSync(state.file, text);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return state;
}

describe('ci-routes match: routes whose order depends on an undecidable condition', () => {
  const routes = withRouteFile('ci-routes-order-', `<?php
if ($_SERVER['HTTP_HOST'] === 'admin.example.com') {
    $route['(:any)'] = 'pages/$1';
} else {
    $route['login'] = 'auth/login';
    $route['(:any)'] = 'pages/$1';
}
$route['about'] = 'pages/about';
`);

  it('says that another route may take the URI first, warns and exits 1; a URI no such route matches is sure', () => {
    const unsure = cli(['match', '--method', 'GET', routes.file, 'login', '--json']);
    assert.equal(unsure.code, 1);
    const [r] = JSON.parse(unsure.stdout).results;
    assert.equal(r.main_matched_key, '(:any)');
    assert.deepEqual(r.order_unsure, { other_key: 'login', condition_at: `${path.relative(process.cwd(), routes.file)}:2` });
    assert.match(unsure.stderr, /which of '\(:any\)' and 'login' comes first depends on this condition/);
    const sure = cli(['match', '--method', 'GET', routes.file, 'contact', '--json']);
    assert.equal(sure.code, 0, sure.stderr);
    assert.equal(JSON.parse(sure.stdout).results[0].order_unsure, undefined);
  });
});

describe('ci-routes eval/list: tables that depend on an undecidable condition say so', () => {
  const routes = withRouteFile('ci-routes-cond-', `<?php
if ($_SERVER['HTTP_HOST'] === 'api.example.com') {
    $route['(:any)'] = 'api/$1';
}
$route['about'] = 'pages/about';
`);

  it('eval lists the condition under incomplete; list warns and exits 1; CLI requests (no host) are exact', () => {
    const get = JSON.parse(cli(['eval', '--method', 'GET', routes.file, '--json']).stdout);
    assert.deepEqual(get.routes, [['(:any)', 'api/$1'], ['about', 'pages/about']]);
    assert.equal(get.incomplete.length, 1);
    assert.equal(get.incomplete[0].line, 2);
    assert.match(get.incomplete[0].reason, /^the routes depend on it: the condition cannot be decided statically .*both branches' routes are listed$/);
    const list = cli(['list', routes.file]);
    assert.equal(list.code, 1);
    assert.match(list.stderr, /routes\.php:2: a condition that cannot be decided statically/);
    const cliRun = JSON.parse(cli(['eval', '--method', 'CLI', routes.file, '--json']).stdout);
    assert.deepEqual(cliRun.routes, [['about', 'pages/about']]);
    assert.deepEqual(cliRun.incomplete, []);
  });
});
