import * as assert from 'node:assert/strict';
import { uriFilterOf } from '../../shared/router/uri-filter';
import { documentOutline, documentSymbols, workspaceSymbols, MAX_WORKSPACE_SYMBOLS, type RouteSymbol } from '../../shared/analysis/features/symbols';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { ProducedIndex } from '../../shared/analysis/model/produced';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';

const slice = (text: string, s: { start: number; end: number }): string => text.slice(s.start, s.end);

/** name → children names, recursively, for compact comparisons. */
function outline(symbols: RouteSymbol[]): unknown[] {
  return symbols.map((s) => (s.children.length ? { [s.name]: outline(s.children) } : s.name));
}

function allSymbols(symbols: RouteSymbol[]): RouteSymbol[] {
  return symbols.flatMap((s) => [s, ...allSymbols(s.children)]);
}

describe('documentSymbols', () => {
  it('lists declarations with the routes they produce, prefix() closures nested, $route entries and map()', () => {
    const text = `<?php
$route['default_controller'] = 'home';
Route::resources('photos');
Route::prefix('api', function () {
    Route::get('users/(:num)', 'api/users/show/$1', array('as' => 'api_user'));
    Route::any('status', 'api/status');
});
$route = Route::map($route);
`;
    const symbols = documentSymbols(text, evaluateRouteFile(text));
    assert.deepEqual(outline(symbols), [
      "$route['default_controller']",
      {
        "Route::resources('photos')": [
          'GET photos → photos/index',
          'GET photos/new → photos/create_new',
          'GET photos/([a-zA-Z0-9\\-_]+)/edit → photos/edit/$1',
          'GET photos/([a-zA-Z0-9\\-_]+) → photos/show/$1',
          'POST photos → photos/create',
          'PUT photos/([a-zA-Z0-9\\-_]+) → photos/update/$1',
          'DELETE photos/([a-zA-Z0-9\\-_]+) → photos/delete/$1',
        ],
      },
      {
        "Route::prefix('api')": [
          { "Route::get('users/(:num)')": ['GET api/users/(:num) → api/users/show/$1'] },
          { "Route::any('status')": ['ANY api/status → api/status'] },
        ],
      },
      'Route::map($route)',
    ]);
    const [assignment, resources, prefix, map] = symbols;
    assert.equal(assignment.kind, 'assignment');
    assert.equal(assignment.detail, '→ home');
    assert.equal(slice(text, assignment.selectionSpan), "'default_controller'");
    assert.equal(resources.kind, 'declaration');
    assert.equal(resources.detail, '7 routes · GET POST PUT DELETE');
    assert.equal(slice(text, resources.span), "Route::resources('photos');");
    assert.equal(slice(text, resources.selectionSpan), 'resources');
    assert.equal(slice(text, resources.children[0].selectionSpan), "'photos'");
    assert.equal(prefix.kind, 'prefix');
    assert.equal(prefix.detail, '2 routes · ANY');
    assert.equal(prefix.children[0].detail, '1 route · GET');
    assert.equal(prefix.children[0].children[0].detail, 'as api_user');
    assert.equal(slice(text, prefix.children[0].children[0].selectionSpan), "'users/(:num)'");
    assert.equal(prefix.children[1].detail, '1 route · ANY');
    assert.equal(map.kind, 'statement');
  });

  it('says what became of routes that never reach $route', () => {
    const text = `<?php
Route::get('a', 'x/one');
Route::get('a', 'x/two');
$route['b'] = 'y/one';
$route['b'] = 'y/two';
$route = Route::map($route);
Route::any('late', 'z/late');
`;
    const symbols = documentSymbols(text, evaluateRouteFile(text));
    assert.deepEqual(
      symbols.map((s) => [s.name, s.detail]),
      [
        ["Route::get('a')", '0 routes · 1 replaced'],
        ["Route::get('a')", '1 route · GET'],
        ["$route['b']", 'replaced'],
        ["$route['b']", '→ y/two'],
        ['Route::map($route)', ''],
        ["Route::any('late')", '0 routes · 1 lost after map()'],
      ],
    );
    assert.equal(symbols[0].children.length, 0, 'a replaced route is not listed as produced');
  });

  it('nests a $nested callable under its resources() and lists each call once', () => {
    const text = `<?php
Route::resources('teams', array(), function () {
    Route::any('roster', 'teams/roster/$1');
});
$route = Route::map($route);
`;
    const [teams] = documentSymbols(text, evaluateRouteFile(text));
    const declarations = teams.children.filter((c) => c.kind === 'declaration');
    assert.deepEqual(declarations.map((d) => d.name), ["Route::any('roster')"], 'the callable runs once per route, listed once');
    assert.equal(teams.children.filter((c) => c.kind === 'route').length, 7);
    assert.equal(teams.children[teams.children.length - 1], declarations[0], 'its routes come first');
  });

  it('keeps a closure written outside prefix() where it is written', () => {
    const text = `<?php
$routes = function () { Route::any('x', 'a/b'); };
Route::prefix('p', $routes);
$route = Route::map($route);
`;
    const symbols = documentSymbols(text, evaluateRouteFile(text));
    assert.deepEqual(outline(symbols), [{ "Route::any('x')": ['ANY p/x → a/b'] }, "Route::prefix('p')", 'Route::map($route)']);
    assert.equal(symbols[1].detail, '1 route · ANY', "prefix() still counts its closure's routes");
  });

  describe('within a symbol budget', () => {
    const text = `<?php
Route::resources('photos');
Route::prefix('api', function () {
    Route::get('users', 'api/users/index');
    Route::get('teams', 'api/teams/index');
});
$route['x'] = 'y';
$route = Route::map($route);
`;
    const evaluation = evaluateRouteFile(text);
    const count = (symbols: RouteSymbol[]): number => allSymbols(symbols).length;

    it('is the whole outline when the budget covers it', () => {
      const whole = documentSymbols(text, evaluation);
      const outline = documentOutline(text, evaluation, count(whole));
      assert.equal(outline.truncated, false);
      assert.deepEqual(outline.symbols, whole);
    });

    it('keeps the whole top level first, then children level by level in document order', () => {
      // 4 top-level symbols, then 7 routes of photos, 2 calls in the prefix, then their 2 routes.
      const cut = (max: number) => {
        const o = documentOutline(text, evaluation, max);
        return { truncated: o.truncated, shape: outline(o.symbols), total: count(o.symbols) };
      };
      assert.deepEqual(cut(3), { truncated: true, shape: ["Route::resources('photos')", "Route::prefix('api')", "$route['x']"], total: 3 });
      const nine = cut(9);
      assert.equal(nine.total, 9);
      assert.deepEqual(nine.shape, [
        { "Route::resources('photos')": ['GET photos → photos/index', 'GET photos/new → photos/create_new', 'GET photos/([a-zA-Z0-9\\-_]+)/edit → photos/edit/$1', 'GET photos/([a-zA-Z0-9\\-_]+) → photos/show/$1', 'POST photos → photos/create'] },
        "Route::prefix('api')",
        "$route['x']",
        'Route::map($route)',
      ]);
      const thirteen = cut(13);
      assert.equal(thirteen.total, 13);
      assert.deepEqual(thirteen.shape[1], { "Route::prefix('api')": ["Route::get('users')", "Route::get('teams')"] }, 'grandchildren only once every child is in');
      assert.deepEqual(cut(15), { truncated: false, shape: outline(documentSymbols(text, evaluation)), total: 15 });
    });

    it('still describes what it keeps', () => {
      const [photos, api] = documentOutline(text, evaluation, 4).symbols;
      assert.equal(photos.detail, '7 routes · GET POST PUT DELETE');
      assert.equal(api.detail, '2 routes · GET');
      assert.deepEqual(documentOutline(text, evaluation, 0), { symbols: [], truncated: true });
    });
  });

  it('lists block() with all its paths and leaves named() out', () => {
    const text = `<?php
Route::any('about', 'pages/show/about', array('as' => 'about'));
Route::block('admin/setup', 'admin/debug');
$x = Route::named('about');
$route = Route::map($route);
`;
    const symbols = documentSymbols(text, evaluateRouteFile(text));
    assert.deepEqual(symbols.map((s) => s.name), ["Route::any('about')", "Route::block('admin/setup', 'admin/debug')", 'Route::map($route)']);
    assert.deepEqual(symbols[1].children.map((c) => [c.name, slice(text, c.selectionSpan)]), [
      ['ANY admin/setup → \'\' (the default controller)', "'admin/setup'"],
      ['ANY admin/debug → \'\' (the default controller)', "'admin/debug'"],
    ]);
  });

  it('works when the methods are evaluated one by one', () => {
    const text = `<?php
if ($_SERVER['REQUEST_METHOD'] === 'GET') {
    Route::any('only-get', 'a/get');
}
Route::get('photos', 'photos/index');
$route = Route::map($route);
`;
    const evaluation = evaluateRouteFile(text);
    assert.equal(evaluation.mode, 'per-method');
    const symbols = documentSymbols(text, evaluation);
    assert.deepEqual(symbols.map((s) => [s.name, s.detail]), [
      ["Route::any('only-get')", '1 route · GET'],
      ["Route::get('photos')", '1 route · GET'],
      ['Route::map($route)', ''],
    ]);
  });

  it('keeps spans consistent and survives syntax errors, dynamic paths and fatal errors', () => {
    const text = `<?php
Route::any($_GET['p'], 'a/b');
Route::get('x', ;
Route::resources('photos');
$route = Route::map($route);
Route::prefix('api', 'not a closure');
Route::any('never', 'x/y');
`;
    const evaluation = evaluateRouteFile(text);
    const symbols = documentSymbols(text, evaluation);
    assert.deepEqual(symbols[0].children.map((c) => c.name), ['ANY ‹dynamic› → a/b']);
    assert.deepEqual(symbols[1].children.map((c) => c.name), ['GET x → ‹the argument could not be parsed›'], 'a half-typed call still shows');
    assert.equal(symbols[2].detail, '7 routes · GET POST PUT DELETE');
    assert.deepEqual(symbols.map((s) => s.name).slice(3), ['Route::map($route)', "Route::prefix('api')"], 'nothing runs after the fatal error');
    for (const s of allSymbols(symbols)) {
      assert.ok(s.span.start <= s.span.end && s.span.end <= text.length, s.name);
      assert.ok(s.selectionSpan.start >= s.span.start && s.selectionSpan.end <= s.span.end, `${s.name}: selection inside the symbol`);
      for (const c of s.children) assert.ok(c.span.start >= s.span.start && c.span.end <= s.span.end, `${c.name} inside ${s.name}`);
    }
  });
});

describe("documentOutline over a document's versions", () => {
  it('describes a call the edit left as it was as before, and again when its routes fare otherwise', () => {
    const v1 = `<?php
Route::get('a', 'pages/a', array('as' => 'a'));
Route::resources('photos');
Route::get('b', 'pages/b');
$route = Route::map($route);
`;
    const document = new DocumentEvaluator({});
    const first = documentOutline(v1, document.update(v1)).symbols;
    // An edit below them: the calls above are the same, and so are their routes.
    const v2 = v1.replace("'pages/b'", "'pages/c'");
    const second = documentOutline(v2, document.update(v2)).symbols;
    assert.equal(second[0].children[0], first[0].children[0], 'the same route symbol');
    assert.equal(second[1].children[3], first[1].children[3]);
    assert.deepEqual(outline(second).slice(0, 2), outline(first).slice(0, 2));
    assert.equal(second[2].children[0].name, 'GET b → pages/c');
    // A declaration added below replaces the first call's route: the call is described anew.
    const v3 = v2.replace('$route = Route::map', "Route::get('a', 'pages/z');\n$route = Route::map");
    const third = documentOutline(v3, document.update(v3)).symbols;
    assert.equal(third[0].detail, '0 routes · 1 replaced');
    assert.deepEqual(third[0].children, []);
    assert.deepEqual(third[1], second[1]);
    // As a fresh evaluation of each version has it.
    for (const [text, symbols] of [[v2, second], [v3, third]] as const) assert.deepEqual(symbols, documentOutline(text, evaluateRouteFile(text)).symbols);
  });
  it("describes a prefix() call as before while its closure's routes fare the same, and anew when one is replaced", () => {
    const v1 = `<?php
Route::prefix('api', function () {
    Route::get('status', 'api/status');
    Route::resources('tokens');
});
Route::get('about', 'pages/about');
$route = Route::map($route);
`;
    const document = new DocumentEvaluator({});
    const first = documentOutline(v1, document.update(v1)).symbols;
    assert.equal(first[0].detail, '8 routes · GET POST PUT DELETE');
    // An edit below it: its closure's routes are the same records with the same fates.
    const v2 = v1.replace("'pages/about'", "'pages/other'");
    // Said as before, not summed up again: the prefix() calls summed up while each outline is made are counted.
    const summary = ProducedIndex.prototype.summary;
    let foldedPrefixes = 0;
    ProducedIndex.prototype.summary = function (this: ProducedIndex, site, nested) {
      if (nested) foldedPrefixes++;
      return summary.call(this, site, nested);
    };
    try {
      const e2 = document.update(v2);
      const second = documentOutline(v2, e2).symbols;
      assert.equal(second[0].detail, first[0].detail);
      assert.equal(foldedPrefixes, 0);
      assert.equal(second[0].children[0].children[0], first[0].children[0].children[0], 'the same route symbol inside it');
      // A declaration below replaces one of the closure's routes: the prefix is described anew.
      const v3 = v2.replace('$route = Route::map', "Route::get('api/status', 'api/other');\n$route = Route::map");
      const e3 = document.update(v3);
      const third = documentOutline(v3, e3).symbols;
      assert.equal(third[0].detail, '7 routes · GET POST PUT DELETE · 1 replaced');
      assert.equal(foldedPrefixes, 1);
      for (const [text, symbols] of [[v2, second], [v3, third]] as const) assert.deepEqual(symbols, documentOutline(text, evaluateRouteFile(text)).symbols);
    } finally {
      ProducedIndex.prototype.summary = summary;
    }
  });
});

describe('workspaceSymbols', () => {
  const a = `<?php
Route::resources('photos');
Route::any('about', 'pages/show/about', array('as' => 'about_page'));
$route = Route::map($route);
`;
  const b = `<?php
$route['blog/(:num)'] = 'blog/posts/show/$1';
$route['translate_uri_dashes'] = FALSE;
`;
  const files = [
    { file: 'application/config/routes.php', text: a, evaluation: evaluateRouteFile(a) },
    { file: 'application/modules/blog/config/routes.php', text: b, evaluation: evaluateRouteFile(b) },
  ];

  it('finds routes by URI pattern, target or name, case-insensitively, across files', () => {
    const byKey = workspaceSymbols(files, 'PHOTOS/NEW');
    assert.deepEqual(byKey.map((s) => [s.name, s.detail, s.file]), [['photos/new', 'GET → photos/create_new', 'application/config/routes.php']]);
    assert.equal(slice(a, byKey[0].span), "'photos'");
    assert.deepEqual(workspaceSymbols(files, 'posts/show').map((s) => [s.name, s.file]), [['blog/(:num)', 'application/modules/blog/config/routes.php']]);
    assert.equal(slice(b, workspaceSymbols(files, 'posts/show')[0].span), "'blog/(:num)'");
    assert.deepEqual(workspaceSymbols(files, 'about_p').map((s) => [s.name, s.detail]), [['about', 'ANY → pages/show/about · as about_page']]);
  });

  it('puts substring matches before subsequence matches', () => {
    const found = workspaceSymbols(files, 'bpost').map((s) => s.name);
    assert.deepEqual(found, ['blog/(:num)']);
    const ordered = workspaceSymbols(files, 'pho').map((s) => s.name);
    assert.equal(ordered[0], 'photos');
    // 'ot' is in every photos route; about and blog/posts/show only have an o before a t.
    const mixed = workspaceSymbols(files, 'OT').map((s) => s.name);
    assert.deepEqual(mixed.slice(-2), ['about', 'blog/(:num)']);
    assert.ok(mixed.slice(0, -2).every((n) => n.startsWith('photos')), mixed.join(', '));
  });

  it('lists everything for an empty query (settings like translate_uri_dashes aside) and caps the result', () => {
    assert.equal(workspaceSymbols(files, '').length, 7 + 1 + 1);
    let big = '<?php\n';
    for (let i = 0; i < 700; i++) big += `Route::get('r${i}', 'c/m${i}');\n`;
    big += '$route = Route::map($route);\n';
    const found = workspaceSymbols([{ file: 'big.php', text: big, evaluation: evaluateRouteFile(big) }], 'r');
    assert.equal(found.length, MAX_WORKSPACE_SYMBOLS);
  });
});

describe('workspaceSymbols: a concrete URL, a controller method', () => {
  const main = `<?php
Route::resources('articles', array('module' => 'blog', 'controller' => 'posts', 'constraint' => '(:num)'));
Route::get('articles/(:num)/(:any)', 'blog/posts/show/$1', array('as' => 'article'));
Route::get('blog/(:any)', 'blog/posts/by_slug/$1');
Route::any('(:any)', 'pages/view/$1');
$route = Route::map($route);
`;
  const blog = `<?php
$route['blog/archive/(:num)'] = 'posts/archive/$1';
$route['blog/(:any)'] = 'posts/anything/$1';
$route['(:any)/(:any)'] = 'posts/catchall/$1/$2';
`;
  const files = [
    { file: 'application/config/routes.php', text: main, evaluation: evaluateRouteFile(main) },
    { file: 'application/modules/blog/config/routes.php', text: blog, evaluation: evaluateRouteFile(blog), module: 'blog' },
  ];
  const shown = (q: string) => workspaceSymbols(files, q).map((s) => `${s.file === files[0].file ? 'main' : 'blog'} ${s.name} | ${s.detail}`);

  it('lists the routes that route a URL first, under each method, with the target the URL becomes', () => {
    const found = shown('articles/12');
    assert.deepEqual(found.slice(0, 3), [
      'main articles/(:num) | GET articles/12 → blog/posts/show/12',
      'main articles/(:num) | PUT articles/12 → blog/posts/update/12',
      'main articles/(:num) | DELETE articles/12 → blog/posts/delete/12',
    ]);
    // `(:any)` is one segment: the catch-all does not take it; under a method with no route for it nothing is listed.
    assert.ok(!found.some((s) => s.startsWith('main (:any) |')), found.join('\n'));
    assert.equal(shown('about')[0], 'main (:any) | ANY about → pages/view/about');
    assert.deepEqual(shown('/articles/12').slice(0, 4), found.slice(0, 4), 'a leading slash, as typed in a browser');
    assert.deepEqual(shown('https://example.com/index.php/articles/12?page=2').slice(0, 4), found.slice(0, 4), 'a whole URL, as the router reads REQUEST_URI');
    assert.equal(workspaceSymbols(files, 'articles/12')[0].span.start, main.indexOf("'articles'"), "placed at the resources() call's path");
  });

  it('matches a module routes file as its router does, against the whole URI, for URIs of its module only', () => {
    assert.ok(!shown('articles/12').some((s) => s.startsWith('blog ')), 'the module router reads blog\'s routes for blog/… only');
    assert.deepEqual(shown('blog/post-1').slice(0, 2), ['main blog/(:any) | GET blog/post-1 → blog/posts/by_slug/post-1', 'blog blog/(:any) | ANY blog/post-1 → posts/anything/post-1']);
    // `(:any)` in a module file is `.+`: it takes more than one segment.
    assert.ok(shown('blog/a/b').includes('blog blog/(:any) | ANY blog/a/b → posts/anything/a/b'), shown('blog/a/b').join('\n'));
  });

  it("lets a file's application's URI filter decide whether a URL is routed at all", () => {
    // `(:any)` takes `a+b`, but CodeIgniter's default filter answers 400 first.
    assert.ok(!shown('blog/a+b').some((s) => s.includes('→')), shown('blog/a+b').join('\n'));
    const plus = files.map((f) => ({ ...f, uriFilter: uriFilterOf('a-z 0-9~%.:_\\-+') }));
    assert.deepEqual(workspaceSymbols(plus, 'blog/a+b').map((s) => s.detail).slice(0, 2), ['GET blog/a+b → blog/posts/by_slug/a+b', 'ANY blog/a+b → posts/anything/a+b']);
  });

  it('finds the routes whose target reaches Controller::method, however it is written', () => {
    const expected = ['main articles/(:num) | GET → blog/posts/show/$1', 'main articles/(:num)/(:any) | GET → blog/posts/show/$1 · as article'];
    for (const q of ['Posts::show', 'posts::show', 'Posts.show', 'POSTS::SHOW', 'Posts::show()']) assert.deepEqual(shown(q).slice(0, 2), expected, q);
    // A class alone: every route into it, module-relative targets included.
    const any = shown('Posts::');
    assert.ok(any.includes('blog blog/archive/(:num) | ANY → posts/archive/$1'), any.join('\n'));
    assert.ok(any.includes('main articles | GET → blog/posts/index'), any.join('\n'));
  });

  it("asks the host where a target dispatches when it knows, and a method from the URI counts when it can name it", () => {
    const text = `<?php
Route::get('p/(:any)', 'pages/$1');
Route::get('q', 'shop/pages/show');
$route = Route::map($route);
`;
    const asked: string[] = [];
    const file = {
      file: 'routes.php',
      text,
      evaluation: evaluateRouteFile(text),
      dispatch: (target: string) => {
        asked.push(target);
        // The router finds `shop/pages/show` in the shop module's Pages controller, and `pages/$1` in Pages too.
        return { class: 'pages', methodMatches: (name: string) => target === 'pages/$1' || name.toLowerCase() === 'show' };
      },
    };
    assert.deepEqual(workspaceSymbols([file], 'Pages::show').map((s) => s.name).slice(0, 2), ['p/(:any)', 'q']);
    assert.deepEqual(asked.sort(), ['pages/$1', 'shop/pages/show']);
    const elsewhere = { ...file, dispatch: () => ({ class: 'other', methodMatches: () => true }) };
    assert.deepEqual(workspaceSymbols([elsewhere], 'Pages::show').filter((s) => s.detail.startsWith('GET → ')).length, 0, 'the router, not the text, decides');
  });

  it('keeps the text search after them, without listing a route twice, and caps the whole', () => {
    const found = workspaceSymbols(files, 'articles/12');
    const keys = found.map((s) => `${s.name}|${s.detail}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(!found.slice(4).some((s) => s.name === 'articles/(:num)' && s.detail.startsWith('GET → ')), 'not listed again by the text search');
    // `by_slug` is a URL the catch-all routes, and the text of a target.
    assert.deepEqual(shown('by_slug'), ['main (:any) | ANY by_slug → pages/view/by_slug', 'main blog/(:any) | GET → blog/posts/by_slug/$1']);
    let big = '<?php\n';
    for (let i = 0; i < 700; i++) big += `Route::get('r/(:num)/${i}', 'c/m${i}');\nRoute::get('r/(:any)', 'c/any');\n`;
    big += '$route = Route::map($route);\n';
    const evaluation = evaluateRouteFile(big);
    const many = Array.from({ length: 600 }, (_, i) => ({ file: `f${i}.php`, text: big, evaluation }));
    assert.equal(workspaceSymbols(many, 'r/5/5').length, MAX_WORKSPACE_SYMBOLS);
  });
});
