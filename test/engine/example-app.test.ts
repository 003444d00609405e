import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { routeRows } from '../../shared/analysis/model/route-table';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { routeKeysOf } from '../../shared/analysis/model/route-file-keys';
import { locateTarget, type TargetRouting } from '../../shared/router/hmvc/locate-target';
import { AppRoot } from '../../shared/app/app-root';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import * as fs from 'node:fs';
import { routeUri } from '../../shared/router/ci-router';
import { loadRouteFile } from '../../server/src/host/route-file';
import { EXAMPLE_APP } from '../helpers/paths';

const ROUTES = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');

describe('the example app (examples/bonfire-app)', () => {
  const ctx = loadRouteFile(ROUTES);

  it('reads SITE_AREA from config/constants.php', () => {
    assert.equal(ctx.constants.get('SITE_AREA'), 'admin');
    assert.equal(ctx.constants.get('FILE_READ_MODE'), 0o644);
  });

  for (const dialect of ['spec', 'bonfire'] as const) {
    it(`evaluates cleanly in the ${dialect} dialect: no errors, warnings or problems`, () => {
      const ev = evaluateRouteFile(ctx.text, { dialect, constants: ctx.constants, file: ROUTES, includes: ctx.includes });
      assert.deepStrictEqual(ev.problems, []);
      assert.deepStrictEqual(ev.parsed.problems, []);
      for (const m of ev.methods) {
        assert.equal(m.error, null, `${m.method}: ${m.error?.message}`);
        assert.deepStrictEqual(m.warnings, [], m.method);
        assert.ok(m.routes, `${m.method} has a route table`);
      }
      assert.equal(ev.mode, 'together', 'all methods evaluate in one pass');
    });
  }

  const ev = evaluateRouteFile(ctx.text, { dialect: 'spec', constants: ctx.constants, file: ROUTES, includes: ctx.includes });

  it('uses every public Route method but reset()', () => {
    const used = new Set(ev.calls.map((c) => c.site.method));
    for (const m of ['any', 'get', 'post', 'put', 'delete', 'head', 'patch', 'options', 'resources', 'prefix', 'context', 'block', 'named', 'map']) {
      assert.ok(used.has(m), `Route::${m}() is used`);
    }
  });

  it('produces the routes the README shows', () => {
    const put = routeRows(ev, REQUEST_METHODS.indexOf('PUT')).map((r) => [r.key, r.targetText]);
    assert.deepStrictEqual(put.find(([k]) => k === 'articles/(:num)'), ['articles/(:num)', 'blog/posts/update/$1']);
    const get = routeRows(ev, REQUEST_METHODS.indexOf('GET'));
    assert.deepStrictEqual(get.find((r) => r.key === 'api/articles')?.names, ['api_articles']);
    assert.equal(get.find((r) => r.key === 'health')?.targetText, 'api/status');
    assert.equal(get.find((r) => r.key === 'admin/reports')?.targetText, 'reports/dashboard');
    const feed = get.find((r) => r.key === 'feeds/articles');
    assert.equal(feed?.span?.file?.path, path.join(EXAMPLE_APP, 'application', 'config', 'routes', 'api.php'), 'declared in the file routes.php includes');
  });

  const blogRoutes = path.join(EXAMPLE_APP, 'application', 'modules', 'blog', 'config', 'routes.php');
  const routing: TargetRouting = {
    flavour: ctx.router,
    root: new AppRoot(ctx.appDir!, diskProjectFiles()).tree,
    moduleRouteKeys: (module) => (module === 'blog' ? routeKeysOf(evaluateRouteFile(fs.readFileSync(blogRoutes, 'utf8'))) : undefined),
  };

  it('sends every concrete target to a controller file that exists, as its router (MX) locates it', () => {
    assert.equal(ctx.router, 'mx');
    for (const [m] of REQUEST_METHODS.entries()) {
      for (const row of routeRows(ev, m)) {
        if (row.reserved || typeof row.target !== 'string' || row.target === '' || row.target.startsWith('$')) continue;
        const r = locateTarget(row.target.split('/'), routing);
        assert.ok('found' in r && r.found, `${REQUEST_METHODS[m]} ${row.key} → ${row.target}: ${JSON.stringify(r)}`);
      }
    }
  });

  it('routes URLs to the right module controller', () => {
    const get = ev.methods[REQUEST_METHODS.indexOf('GET')].routes!;
    const r = routeUri(get, 'admin/content/blog/edit/5', { method: 'GET', tree: ctx.tree! });
    assert.equal(r.matched_key, 'admin/content/(:any)/(:any)/(:any)');
    assert.deepStrictEqual(r.target_segments, ['blog', 'content', 'edit', '5']);
    const c = locateTarget(r.target_segments!, routing);
    assert.ok('found' in c && c.found);
    assert.deepStrictEqual(c.target, { file: 'modules/blog/controllers/Content.php', module: 'blog', class: 'content', method: 'edit', args: ['5'] });
  });
});
