import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { keyToString } from '../../shared/runtime/values';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { FileListTree } from '../../shared/router/app-tree';
import { evaluatedModuleRouteFiles } from '../../shared/router/hmvc/module-route-files';
import { routeRequest } from '../../shared/router/hmvc/route-request';

const GET = REQUEST_METHODS.indexOf('GET');

const MAIN = `<?php
$route['default_controller'] = 'welcome';
$route['404_override'] = 'errors/missing';
Route::any('shared', 'welcome/shared');
$route = Route::map($route);
`;

const FILES: Record<string, string> = {
  'application/modules/blog/config/routes.php': `<?php
Route::any('shared', 'blog/replaced');
Route::any('blog/only', 'posts/only');
$route = Route::map($route);
`,
  'application/modules/errors/config/routes.php': `<?php
$route = Route::map($route);
`,
  'application/modules/shop/config/routes.php': `<?php
Route::reset();
$route = Route::map(array('shop' => 'cart/index'));
`,
};

const tree = new FileListTree([
  'application/config/routes.php',
  ...Object.keys(FILES),
  'application/controllers/Welcome.php',
  // blog has no controller of its own: `blog/zz` misses and goes to 404_override.
  'application/modules/blog/controllers/Posts.php',
  'application/modules/errors/controllers/Errors.php',
  'application/modules/shop/controllers/Shop.php',
]);

function setUp() {
  const main = evaluateRouteFile(MAIN, { dialect: 'bonfire' });
  const files = evaluatedModuleRouteFiles({ main, read: (p) => FILES[p], shareRouteLibrary: true, evaluate: { dialect: 'bonfire' } });
  const route = (uri: string) =>
    routeRequest({ flavour: 'bonfire', root: tree, uri, method: 'GET', routes: main.methods[GET].routes, moduleRoutes: files.forRequest('GET') });
  const tables = (uri: string) => route(uri).module_route_tables.map((t) => ({ module: t.module, keys: [...t.routes.keys()].map(keyToString) }));
  return { main, route, tables };
}

describe("Bonfire's static Route state across the route files of one request", () => {
  it('a module file starts from the main file\'s routes, and a later one from the earlier module file\'s', () => {
    const { tables } = setUp();
    // blog/zz misses: 404_override loads the errors module's file after blog's, in the same request.
    assert.deepStrictEqual(tables('blog/zz'), [
      { module: 'blog', keys: ['shared', 'blog/only'] },
      { module: 'errors', keys: ['shared', 'blog/only'] },
    ]);
  });

  it('does not carry from one request to the next', () => {
    const { tables } = setUp();
    tables('blog/zz');
    assert.deepStrictEqual(tables('errors'), [{ module: 'errors', keys: ['shared'] }]);
  });

  it('leaves the main file\'s evaluation as it was (what the module files do to its routes is marked in theirs)', () => {
    const { main, tables } = setUp();
    const state = main.methods[GET].library;
    const records = state.created;
    const before = records.map((r) => [state.marks.replacedBy(r), state.marks.resetBy(r)]);
    tables('blog/zz');
    tables('shop');
    assert.deepStrictEqual(records.map((r) => [state.marks.replacedBy(r), state.marks.resetBy(r)]), before);
    assert.deepStrictEqual([...main.methods[GET].library.routes.keys()].map(keyToString), ['shared']);
  });

  it('reset() in a module file empties the shared tables for that file', () => {
    const { tables } = setUp();
    assert.deepStrictEqual(tables('shop'), [{ module: 'shop', keys: ['shop'] }]);
  });
});
