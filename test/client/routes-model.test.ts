import * as assert from 'node:assert/strict';
import { buildTree, distinctRoutes, filterCounts, highlightsOf, matchesFilter, methodsLabel, sortRoutes, flattenRoutes, type RouteNode } from '../../client/src/routes-model';
import type { WorkspaceRoute, WorkspaceRoutesResult } from '../../shared/protocol/workspace-routes';

const MAIN = 'file:///w/application/config/routes.php';
const BLOG = 'file:///w/application/modules/blog/config/routes.php';
const at = (uri: string, line: number, character = 0) => ({ uri, range: { start: { line, character }, end: { line, character: character + 10 } } });
const ALL = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CLI'];

function route(uri: string, methods: string[], target: string, line: number, extra: Partial<WorkspaceRoute> = {}, file = MAIN): WorkspaceRoute {
  return { methods, uri, target, names: [], location: at(file, line), declaration: `Route::x('${uri}')`, ...extra };
}

/** The example's shape: a main file with a resources() declaration (three routes on one line) and a module file. */
const RESULT: WorkspaceRoutesResult = {
  indexing: false,
  applications: [
    {
      uri: 'file:///w/application',
      name: 'application',
      files: [
        {
          uri: MAIN,
          name: 'application/config/routes.php',
          rows: [
            route('login', ALL, 'users/login', 4, { names: ['login'] }),
            route('photos', ['GET'], 'photos/index', 9, { declaration: "Route::resources('photos')" }),
            route('photos', ['POST'], 'photos/create', 9, { declaration: "Route::resources('photos')" }),
            route('photos/(:num)', ['PUT', 'PATCH'], 'photos/update/$1', 9, { declaration: "Route::resources('photos')" }),
            route('about', ['GET', 'HEAD'], 'pages/show/about', 2, { names: ['about'] }),
          ],
        },
        { uri: BLOG, name: 'application/modules/blog/config/routes.php', module: 'blog', rows: [route('blog', ALL, 'posts', 7, {}, BLOG), route('blog/archive/(:num)', ALL, 'posts/archive/$1', 8, {}, BLOG)] },
      ],
    },
  ],
};

/** The tree as lines: indentation for depth, `label — description`. */
function outline(nodes: RouteNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.label} — ${n.description}`, ...outline(n.children ?? [], depth + 1)]);
}

describe('the routes explorer model', () => {
  it('merges methods on one row: GET|POST, and ANY for every method', () => {
    assert.equal(methodsLabel(['GET', 'POST']), 'GET|POST');
    assert.equal(methodsLabel(ALL), 'ANY');
    const tree = buildTree(RESULT, { grouping: 'file', sort: 'declaration', filter: '' });
    const labels = outline(tree);
    assert.ok(labels.includes('      PUT|PATCH photos/(:num) — → photos/update/$1'), labels.join('\n'));
  });

  it('groups by application, file and declaration, in declaration order', () => {
    assert.deepEqual(outline(buildTree(RESULT, { grouping: 'file', sort: 'declaration', filter: '' })), [
      'application — 7 routes',
      '  application/config/routes.php — 5 routes',
      '    GET|HEAD about — → pages/show/about · about',
      '    ANY login — → users/login · login',
      "    Route::resources('photos') — line 10 · 3 routes",
      '      GET photos — → photos/index',
      '      POST photos — → photos/create',
      '      PUT|PATCH photos/(:num) — → photos/update/$1',
      '  application/modules/blog/config/routes.php — module blog · 2 routes',
      '    ANY blog — → posts',
      '    ANY blog/archive/(:num) — → posts/archive/$1',
    ]);
  });

  it('groups by URI prefix across the files of an application', () => {
    assert.deepEqual(outline(buildTree(RESULT, { grouping: 'prefix', sort: 'uri', filter: '' })), [
      'application — 7 routes',
      '  about/ — 1 route',
      '    GET|HEAD about — → pages/show/about · about',
      '  blog/ — 2 routes',
      '    ANY blog — → posts · module blog',
      '    ANY blog/archive/(:num) — → posts/archive/$1 · module blog',
      '  login/ — 1 route',
      '    ANY login — → users/login · login',
      '  photos/ — 3 routes',
      '    GET photos — → photos/index',
      '    POST photos — → photos/create',
      '    PUT|PATCH photos/(:num) — → photos/update/$1',
    ]);
  });

  it('sorts by URI, by name (named routes first) or by declaration', () => {
    const routes = flattenRoutes(RESULT);
    assert.deepEqual(sortRoutes(routes, 'uri').map((r) => r.uri), ['about', 'blog', 'blog/archive/(:num)', 'login', 'photos', 'photos', 'photos/(:num)']);
    assert.deepEqual(sortRoutes(routes, 'name').map((r) => r.names[0] ?? r.uri), ['about', 'login', 'blog', 'blog/archive/(:num)', 'photos', 'photos', 'photos/(:num)']);
    // Declaration: by file, line and column; one line's routes in their table order.
    assert.deepEqual(sortRoutes(routes, 'declaration').map((r) => `${r.uri}:${r.methods[0]}`), ['about:GET', 'login:GET', 'photos:GET', 'photos:POST', 'photos/(:num):PUT', 'blog:GET', 'blog/archive/(:num):GET']);
  });

  it('filters by words found in the methods, URI, target or names, and drops the groups left empty', () => {
    assert.ok(matchesFilter(RESULT.applications[0]!.files[0]!.rows[3]!, 'patch photos'));
    assert.ok(!matchesFilter(RESULT.applications[0]!.files[0]!.rows[3]!, 'delete photos'));
    assert.ok(matchesFilter(RESULT.applications[0]!.files[0]!.rows[0]!, 'LOGIN any'));
    const tree = buildTree(RESULT, { grouping: 'file', sort: 'declaration', filter: 'post' });
    assert.deepEqual(outline(tree), [
      'application — 4 of 7 routes',
      '  application/config/routes.php — 2 of 5 routes',
      '    ANY login — → users/login · login',
      '    POST photos — → photos/create',
      '  application/modules/blog/config/routes.php — module blog · 2 of 2 routes',
      '    ANY blog — → posts',
      '    ANY blog/archive/(:num) — → posts/archive/$1',
    ]);
    // `ANY` rows carry POST: the filter reads every method.
    assert.deepEqual(filterCounts(RESULT, 'post'), { shown: 4, total: 7 });
    assert.deepEqual(buildTree(RESULT, { grouping: 'prefix', sort: 'uri', filter: 'nothing like it' }), []);
    // Filtered nodes have ids of their own (the view expands what the filter found).
    assert.ok(tree[0]!.id.startsWith('filtered:'));
  });

  it('highlights the filter in labels', () => {
    assert.deepEqual(highlightsOf('GET|POST photos/(:num)', 'post photo'), [[4, 8], [9, 14]]);
    assert.deepEqual(highlightsOf('ANY login', ''), []);
  });

  it('gives every node a unique id and each route its declaration', () => {
    for (const grouping of ['file', 'prefix'] as const) {
      const ids: string[] = [];
      const walk = (nodes: RouteNode[]) =>
        nodes.forEach((n) => {
          ids.push(n.id);
          if (n.kind === 'route') assert.ok(n.location, `${n.label} opens its declaration`);
          walk(n.children ?? []);
        });
      walk(buildTree(RESULT, { grouping, sort: 'uri', filter: '' }));
      assert.equal(new Set(ids).size, ids.length);
    }
  });

  it('counts distinct routes of a route table answer as `ci-routes list` does', () => {
    const loc = at(MAIN, 3);
    const row = (uri: string, target: string, location = loc, extra = {}) => ({ index: 0, uri, target, names: [], reserved: false, location, ...extra });
    const count = distinctRoutes({
      methods: [
        { method: 'GET', rows: [row('default_controller', 'home', loc, { reserved: true }), row('login', 'users/login'), row('photos', 'photos/index', at(MAIN, 9))] },
        { method: 'POST', rows: [row('login', 'users/login'), row('photos', 'photos/create', at(MAIN, 9))] },
        { method: 'PUT', rows: [row('login', 'users/login')] },
      ],
    });
    // login under three methods is one route; photos has two targets: two routes.
    assert.equal(count, 3);
  });
});
