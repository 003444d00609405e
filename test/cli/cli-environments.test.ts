import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { ROOT } from '../helpers/paths';
import { tempProject } from '../helpers/temp-project';
import { spawnSync } from 'node:child_process';

/**
 * Applications with environment route files (test/fixtures/environments/<app>/): CodeIgniter's
 * router includes config/<ENVIRONMENT>/routes.php after config/routes.php, in the same scope.
 * `ci-routes list --json --method GET` must give `$route` in PHP's array order, each route
 * declared at its own file and line, for the environment chosen by --define, else index.php's
 * default, else 'development'. The tables of the plain `$route` apps (all but route-library) were
 * checked against PHP 8.2 running both files in one function as CI_Router::_set_routing does.
 */
const APPS = path.join(ROOT, 'test', 'fixtures', 'environments');

interface Run {
  defines: string[];
  environment: string;
  source: string;
  /** The environment's route file that ran (relative to the app's folder), or null. */
  environmentRoutes: string | null;
  /** [uri, target, declared at (relative to the app's folder)] in `$route`'s order, reserved keys left out. */
  routes: [string, string, string][];
}

describe("environment route files (config/<ENVIRONMENT>/routes.php) in ci-routes list", () => {
  for (const app of fs.readdirSync(APPS).filter((d) => fs.existsSync(path.join(APPS, d, 'expected.json')))) {
    const { runs } = JSON.parse(fs.readFileSync(path.join(APPS, app, 'expected.json'), 'utf8')) as { runs: Run[] };
    for (const run of runs) {
      it(`${app} ${run.defines.join(' ') || '(no --define)'}`, () => {
        const routesFile = path.relative(ROOT, path.join(APPS, app, 'application', 'config', 'routes.php'));
        const r = cli(['list', routesFile, '--json', '--method', 'GET', ...run.defines.flatMap((d) => ['--define', d])]);
        assert.equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout) as { environment: string; environment_source: string; environment_routes: string | null; routes: { uri: string; target: string; declared_at: string; reserved: boolean }[] };
        const fromApp = (p: string) => path.relative(path.join(APPS, app), path.resolve(ROOT, p));
        const placeOf = (d: string) => `${fromApp(d.slice(0, d.lastIndexOf(':')))}${d.slice(d.lastIndexOf(':'))}`;
        assert.equal(out.environment, run.environment);
        assert.equal(out.environment_source, run.source);
        assert.equal(out.environment_routes === null ? null : fromApp(out.environment_routes), run.environmentRoutes);
        assert.deepStrictEqual(out.routes.filter((x) => !x.reserved).map((x) => [x.uri, x.target, placeOf(x.declared_at)]), run.routes);
      });
    }
  }

  it('says in the header which environment and environment file are in force, and the others', () => {
    const file = 'test/fixtures/environments/index-default/application/config/routes.php';
    const production = cli(['list', file]).stdout.split('\n')[0];
    assert.match(production, /environment production \(index\.php's default \(CI_ENV unset\)\), config\/production\/routes\.php runs after this file; config\/testing\/routes\.php only under ENVIRONMENT testing$/);
    const staging = cli(['list', file, '--define', 'ENVIRONMENT=staging']).stdout.split('\n')[0];
    assert.match(staging, /environment staging \(given\), no config\/staging\/routes\.php; config\/production\/routes\.php only under ENVIRONMENT production; config\/testing\/routes\.php only under ENVIRONMENT testing$/);
  });

  it('lists the example app under development by default, and its production routes with --define ENVIRONMENT=production', () => {
    const file = 'examples/bonfire-app/application/config/routes.php';
    const development = cli(['list', file]);
    assert.match(development.stdout.split('\n')[0], /environment development \(index\.php's default \(CI_ENV unset\)\), no config\/development\/routes\.php; config\/production\/routes\.php only under ENVIRONMENT production$/);
    assert.doesNotMatch(development.stdout, /maintenance/);
    const production = cli(['list', file, '--define', 'ENVIRONMENT=production']);
    assert.match(production.stdout, /^ANY +maintenance +pages\/show\/maintenance +examples\/bonfire-app\/application\/config\/production\/routes\.php:14$/m);
    assert.match(production.stdout, /^ANY +register +pages\/show\/registration-closed +register +examples\/bonfire-app\/application\/config\/production\/routes\.php:11$/m);
  });
});

describe('the front controller an application runs from', () => {
  // Two applications in one project: application/ served by the root index.php, admin/ by its own
  // admin/index.php (`$application_folder = '.'`), each with its own ENVIRONMENT default.
  const TWO_APPS = {
    'index.php': "<?php\ndefine('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'production');\n$system_path = 'system';\n$application_folder = 'application';\n",
    'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n",
    'admin/index.php': "<?php\ndefine('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'development');\n$system_path = '../system';\n$application_folder = '.';\n",
    'admin/config/routes.php': "<?php\n$route['default_controller'] = 'dashboard';\n",
    'admin/config/development/routes.php': "<?php\n$route['debug/(:any)'] = 'devtools/show/$1';\n",
    'system/core/CodeIgniter.php': "<?php\nconst CI_VERSION = '3.1.13';\n",
  };

  it("is the one whose $application_folder names the application's folder: its ENVIRONMENT, not another application's", () => {
    const root = tempProject('ci-routes-front-', TWO_APPS);
    try {
      const admin = cli(['list', path.join(root, 'admin/config/routes.php'), '--json', '--method', 'GET']);
      const out = JSON.parse(admin.stdout) as { environment: string; environment_source: string; routes: { uri: string }[] };
      assert.deepEqual([out.environment, out.environment_source], ['development', "admin/index.php's default (CI_ENV unset)"]);
      assert.ok(out.routes.some((r) => r.uri === 'debug/(:any)'), 'the development routes run');
      const main = JSON.parse(cli(['list', path.join(root, 'application/config/routes.php'), '--json']).stdout) as { environment: string };
      assert.equal(main.environment, 'production');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("is found one folder further up when it names the application ($application_folder = 'cms/application'), and leads there from its own folder", () => {
    const root = tempProject('ci-routes-front-', {
      'index.php': "<?php\ndefine('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'production');\n$application_folder = 'cms/application';\n",
      'cms/index.php': "<?php\nheader('Location: ../');\n",
      'cms/application/config/routes.php': "<?php\n$route['default_controller'] = 'pages';\n",
      'cms/application/config/production/routes.php': "<?php\n$route['(:any)'] = 'maintenance';\n",
    });
    try {
      const here = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'list', '--json'], { cwd: root, encoding: 'utf8' });
      const out = JSON.parse(here.stdout) as { file: string; environment: string; environment_source: string; routes: { uri: string }[] };
      assert.equal(out.file, path.join('cms', 'application', 'config', 'routes.php'));
      assert.deepEqual([out.environment, out.environment_source], ['production', "../index.php's default (CI_ENV unset)"]);
      assert.ok(out.routes.some((r) => r.uri === '(:any)'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('names the system folder ($system_path) the CodeIgniter version is read from', () => {
    const root = tempProject('ci-routes-front-', {
      'index.php': "<?php\ndefine('ENVIRONMENT', 'development');\n$system_path = 'framework/codeigniter-2.2.6';\n$application_folder = 'application';\n",
      'framework/codeigniter-2.2.6/core/CodeIgniter.php': "<?php\ndefine('CI_VERSION', '2.2.6');\n",
      'application/config/routes.php': "<?php\n$route['default_controller'] = 'welcome';\n$route['docs/(:any)'] = 'docs/page/$1';\n",
    });
    try {
      const check = cli(['check', path.join(root, 'application/config/routes.php')]);
      assert.match(check.stdout, /This application runs CodeIgniter 2\.2\.6 \(.*framework\/codeigniter-2\.2\.6\/core\/CodeIgniter\.php\)/);
      const match = cli(['match', path.join(root, 'application/config/routes.php'), 'docs/guide/routing']);
      assert.equal(match.code, 1);
      assert.match(match.stderr, /this application runs CodeIgniter 2\.2\.6 .*whose router differs: the answer is CodeIgniter 3's router's/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
