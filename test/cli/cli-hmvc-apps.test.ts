import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

const APPS = path.join(ROOT, 'test', 'fixtures', 'hmvc-apps');

/** The main route file and every module's of an application folder. */
function routeFilesOf(app: string): string[] {
  const modules = path.join(app, 'modules');
  const own = fs.existsSync(modules) ? fs.readdirSync(modules).sort().map((m) => path.join(modules, m, 'config', 'routes.php')) : [];
  return [path.join(app, 'config', 'routes.php'), ...own.filter((f) => fs.existsSync(f))];
}

/** `file:line target` of each missing-controller finding of `ci-routes check --json`. */
function missingControllers(files: string[]): string[] {
  const r = cli(['check', ...files, '--json']);
  assert.equal(r.stderr, '');
  const json = JSON.parse(r.stdout) as { files: { file: string; findings: { code: string; line: number; message: string }[] }[] };
  return json.files.flatMap((f) =>
    f.findings.filter((x) => x.code === 'missing-controller').map((x) => `${path.relative(APPS, f.file)}:${x.line} ${/^'([^']*)'/.exec(x.message)?.[1]}`),
  );
}

function routerOf(app: string): string {
  return JSON.parse(cli(['match', path.join(app, 'config', 'routes.php'), '--method', 'GET', 'x', '--json']).stdout).router;
}

/**
 * `ci-routes check` on HMVC applications shaped like real ones: targets are located as their
 * router locates them (module-relative in a module's routes file), and only the targets planted
 * to reach no controller are reported.
 */
describe('ci-routes check on HMVC applications', () => {
  it('Modular Extensions: module-relative targets, sub-directories before sub-controllers, a module hiding an application controller', () => {
    const app = path.join(APPS, 'mx-app', 'application');
    assert.equal(routerOf(app), 'mx');
    assert.deepEqual(missingControllers(routeFilesOf(app)), ['mx-app/application/config/routes.php:12 reports/summary', 'mx-app/application/modules/shop/config/routes.php:9 checkout/index']);
  });

  it('routes a URI by a module route that a file included from the module routes file declares', () => {
    const app = path.join(APPS, 'mx-app', 'application');
    const r = cli(['match', path.join(app, 'config', 'routes.php'), '--method', 'GET', '--json', '--', 'shop/basket/7']);
    const [result] = (JSON.parse(r.stdout) as { results: { module_route: { key: string; value: string } | null; class: string; method: string; module: string }[] }).results;
    assert.deepEqual(result.module_route && { key: result.module_route.key, value: result.module_route.value }, { key: 'shop/basket/(:num)', value: 'cart/add/$1' });
    assert.deepEqual([result.module, result.class, result.method], ['shop', 'Cart', 'add']);
  });

  it("Bonfire: bonfire/modules and bonfire/controllers, a context controller before its sub-directory, module-relative targets", () => {
    const app = path.join(APPS, 'bonfire-app', 'application');
    assert.equal(routerOf(app), 'bonfire');
    assert.deepEqual(missingControllers(routeFilesOf(app)), ['bonfire-app/application/config/routes.php:11 nowhere/index', 'bonfire-app/application/modules/events/config/routes.php:5 archive/index']);
  });

  it("the example application's blog module routes reach blog's controllers", () => {
    const app = path.join(EXAMPLE_APP, 'application');
    const r = cli(['check', ...routeFilesOf(app)]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /^no problems in 2 route files and \d+ other PHP files\n$/);
  });

  it("lists the application's other route files after the one given, in the order its router reads them", () => {
    const app = path.join(APPS, 'mx-app', 'application');
    const shop = path.join(app, 'modules', 'shop', 'config', 'routes.php');
    const json = JSON.parse(cli(['list', shop, '--json']).stdout) as { other_files: { file: string; module: string | null; routes: { uri: string; target: string; declared_at: string }[] }[] };
    assert.deepEqual(
      json.other_files.map((f) => [path.relative(app, f.file), f.module]),
      [['config/routes.php', null], ['modules/users/config/routes.php', 'users']],
    );
    const text = cli(['list', path.join(app, 'config', 'routes.php')]).stdout;
    assert.match(text, /modules\/shop\/config\/routes\.php {2}module shop: read after the main routes for URIs whose first segment is shop; targets relative to the module\n/);
    // The file the module's routes file includes is read too, its routes at their own lines.
    assert.match(text, /shop\/basket\/\(:num\) +cart\/add\/\$1 +.*routes_more\.php:\d+\n/);
  });

  it("reports a module route whose key no URI of the module matches (the router reads the file only for URIs starting with the module's name)", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-hmvc-'));
    try {
      fs.cpSync(path.join(APPS, 'mx-app'), tmp, { recursive: true });
      const routes = path.join(tmp, 'application', 'modules', 'shop', 'config', 'routes.php');
      const lines = fs.readFileSync(routes, 'utf8').split('\n').length;
      fs.appendFileSync(
        routes,
        [
          "$route['basket/(:num)'] = 'cart/add/$1';", // dead: written without the module's name
          "$route['(cart|basket)/list'] = 'cart';", // dead: neither alternative starts with shop/
          "$route['sho'] = 'cart';", // dead: a prefix of the name is not the name
          "$route['shops/x'] = 'cart';", // dead: another first segment
          "$route['shop/(:any)/list'] = 'cart';", // reached
          "$route['(:any)/list'] = 'cart';", // reached: (:any) may be shop
          "$route['sh(:any)'] = 'cart';", // reached: shop/… is sh followed by anything
          "$route['default_controller'] = 'cart';", // a reserved key: not a request pattern
          '',
        ].join('\n'),
      );
      const r = cli(['check', routes, '--json']);
      const json = JSON.parse(r.stdout) as { files: { findings: { code: string; line: number; message: string }[] }[] };
      const unreachable = json.files[0].findings.filter((f) => f.code === 'unreachable-route');
      assert.deepEqual(
        unreachable.map((f) => f.line),
        [lines, lines + 1, lines + 2, lines + 3],
        JSON.stringify(unreachable),
      );
      assert.match(unreachable[0].message, /^'basket\/\(:num\)' is never reached: Modular Extensions' router reads module shop's routes file only for URIs that are 'shop' or start with 'shop\/'/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('reports a module file target missing from its module although the application has a controller of that name', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-hmvc-'));
    try {
      fs.cpSync(path.join(APPS, 'mx-app'), tmp, { recursive: true });
      const routes = path.join(tmp, 'application', 'modules', 'shop', 'config', 'routes.php');
      // Home exists in application/controllers, but shop/home is what the module's target means.
      fs.appendFileSync(routes, "$route['shop/home'] = 'home';\n");
      const found = missingControllers([routes]).map((f) => f.replace(/^.*routes\.php:/, ''));
      assert.deepEqual(found, ['9 checkout/index', '13 home']);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
