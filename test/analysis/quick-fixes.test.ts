import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { allFixes, type Finding, type QuickFix } from '../../shared/analysis/diagnostics/core/types';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { keyToString } from '../../shared/runtime/values';
import { createMethodEdit } from '../../shared/workspace/controller-edits';
import { appCatalog } from './app-fixture';

/** A fix's edits applied to the text (they never overlap: from the last one back). */
function apply(text: string, fix: QuickFix): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.span.start - a.span.start)) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

const findings = (text: string) => analyzeRouteFile(text, evaluateRouteFile(text));
const of = (text: string, code: string, key: string): Finding => {
  const f = findings(text).find((x) => x.code === code && x.message.includes(`'${key}'`));
  assert.ok(f, `${code} on '${key}' in:\n${text}\n${JSON.stringify(findings(text).map((x) => x.message))}`);
  return f;
};

/** Each method's final table as `key → target` lines, in order. */
function tables(text: string): string[][] {
  const evaluation = evaluateRouteFile(text);
  return REQUEST_METHODS.map((_, m) => {
    const rows: string[] = [];
    evaluation.methods[m].routes?.forEachEntry((v, k) => rows.push(`${keyToString(k)} → ${typeof v === 'string' ? v : JSON.stringify(v)}`));
    return rows;
  });
}

describe('quick fix: Move above line N (unreachable-route, shadowed-block)', () => {
  const text = `<?php
// Articles.
Route::get('articles/(:any)', 'blog/posts/show/$1');
Route::get('articles/(:num)/edit', 'blog/posts/edit/$1');
Route::get('articles/new', 'blog/posts/create_new'); // the form
$route['pages/(:any)'] = 'pages/view/$1';
$route['pages/about'] = 'pages/about';
$route = Route::map($route);
`;

  it('moves the whole statement (its trailing comment too) above the first route that takes its URIs, and says that line', () => {
    const f = of(text, 'unreachable-route', 'articles/new');
    assert.deepEqual(allFixes(f).map((x) => x.title), ['Move above line 3']);
    assert.match(f.related[0].message, /declare it before line 3$/);
    const fixed = apply(text, allFixes(f)[0]);
    assert.equal(
      fixed,
      text.replace("Route::get('articles/new', 'blog/posts/create_new'); // the form\n", '').replace("Route::get('articles/(:any)'", "Route::get('articles/new', 'blog/posts/create_new'); // the form\nRoute::get('articles/(:any)'"),
    );
    // The route is reached now, and the file declares the same routes, the moved one first.
    assert.ok(!findings(fixed).some((x) => x.code === 'unreachable-route' && x.message.includes("'articles/new'")), JSON.stringify(findings(fixed)));
    const before = tables(text);
    const after = tables(fixed);
    for (let m = 0; m < before.length; m++) assert.deepEqual([...after[m]].sort(), [...before[m]].sort(), REQUEST_METHODS[m]);
    assert.ok(after[0].indexOf('articles/new → blog/posts/create_new') < after[0].indexOf('articles/(:any) → blog/posts/show/$1'));
  });

  it('moves a $route entry above the entry that takes its URIs', () => {
    const f = of(text, 'unreachable-route', 'pages/about');
    assert.deepEqual(allFixes(f).map((x) => x.title), ['Move above line 6']);
    const fixed = apply(text, allFixes(f)[0]);
    assert.match(fixed, /\$route\['pages\/about'\] = 'pages\/about';\n\$route\['pages\/\(:any\)'\]/);
    assert.ok(!findings(fixed).some((x) => x.code === 'unreachable-route' && x.message.includes("'pages/about'")));
  });

  it('moves the file\'s last line, which has no newline', () => {
    const last = "<?php\n$route['a/(:any)'] = 'x/$1';\n$route['a/b'] = 'y';";
    const fixed = apply(last, allFixes(of(last, 'unreachable-route', 'a/b'))[0]);
    assert.equal(fixed, "<?php\n$route['a/b'] = 'y';\n$route['a/(:any)'] = 'x/$1';");
  });

  it('moves a block() that never takes effect above the route that takes its path', () => {
    const blocks = "<?php\nRoute::any('users/(:any)', 'users/view/$1');\nRoute::block('users/login');\n$route = Route::map($route);\n";
    const f = of(blocks, 'shadowed-block', 'users/login');
    assert.deepEqual(allFixes(f).map((x) => x.title), ['Move above line 2']);
    assert.ok(!findings(apply(blocks, allFixes(f)[0])).some((x) => x.code === 'shadowed-block'));
  });

  it('offers no move that could change anything else', () => {
    const cases: [string, string][] = [
      // An argument the statements in between could change.
      ["<?php\n$x = 'c/new';\nRoute::get('a/(:any)', 'c/$1');\n$x = 'c/other';\nRoute::get('a/new', $x);\n$route = Route::map($route);\n", 'a/new'],
      // A constant defined in between.
      ["<?php\nRoute::get('a/(:any)', 'c/$1');\ndefine('T', 'c/new');\nRoute::get('a/new', T);\n$route = Route::map($route);\n", 'a/new'],
      // Inside a prefix() closure.
      ["<?php\nRoute::get('p/a/(:any)', 'c/$1');\nRoute::prefix('p', function () {\n    Route::get('a/new', 'c/new');\n});\n$route = Route::map($route);\n", 'p/a/new'],
      // Not a statement of its own line.
      ["<?php\nRoute::get('a/(:any)', 'c/$1');\nRoute::get('b', 'c/b'); Route::get('a/new', 'c/new');\n$route = Route::map($route);\n", 'a/new'],
      // A map() in between: the moved route would be mapped by another call.
      ["<?php\nRoute::get('a/(:any)', 'c/$1');\n$route = Route::map($route);\nRoute::get('a/new', 'c/new');\n$route = Route::map($route);\n", 'a/new'],
      // A whole write of $route in between, for entries.
      ["<?php\n$route['a/(:any)'] = 'c/$1';\n$route += array('z' => 'c/z');\n$route['a/new'] = 'c/new';\n", 'a/new'],
      // The taker is a $route entry, the moved one a library route: map() decides their order, not their lines.
      ["<?php\n$route['a/(:any)'] = 'c/$1';\nRoute::get('a/new', 'c/new');\n$route = Route::map($route);\n", 'a/new'],
      // Its key is declared elsewhere too: which declaration wins would change.
      ["<?php\n$route['a/(:any)'] = 'c/$1';\n$route['a/new'] = 'c/first';\n$route['a/new'] = 'c/new';\n", 'a/new'],
      // A resources() call some routes of which are reached: they would jump ahead too.
      ["<?php\nRoute::get('photos/(:any)', 'c/any/$1');\nRoute::resources('photos');\n$route = Route::map($route);\n", 'photos/new'],
    ];
    for (const [text, key] of cases) {
      const f = findings(text).find((x) => x.code === 'unreachable-route' && x.message.includes(`'${key}'`));
      assert.ok(f, `reported:\n${text}`);
      assert.deepEqual(allFixes(f), [], text);
      // The way out still names the line to declare it above, unless map() decides the order (routes and $route entries).
      assert.match(f.related[0].message, /Route::get\('a\/new'/.test(text) && text.includes("$route['a/(:any)']") ? /declare it before them$/ : /declare it before line \d+$/, text);
    }
  });
});

describe('quick fix: Remove the earlier duplicate (duplicate-route)', () => {
  it('deletes the earlier statement, its lines whole, when it declares only that route', () => {
    const text = "<?php\nRoute::get('feed', 'blog/feed/old');\nRoute::get('about', 'pages/about');\nRoute::get('feed', 'blog/feed/index');\n$route = Route::map($route);\n";
    const f = of(text, 'duplicate-route', 'feed');
    assert.deepEqual(allFixes(f).map((x) => x.title), ['Remove the earlier duplicate']);
    const fixed = apply(text, allFixes(f)[0]);
    assert.equal(fixed, "<?php\nRoute::get('about', 'pages/about');\nRoute::get('feed', 'blog/feed/index');\n$route = Route::map($route);\n");
    assert.ok(!findings(fixed).some((x) => x.code === 'duplicate-route'));
    // The same routes under every method (the route's place moved past one that cannot match its URIs).
    const before = tables(text);
    const after = tables(fixed);
    for (let m = 0; m < before.length; m++) assert.deepEqual([...after[m]].sort(), [...before[m]].sort());
  });

  it('deletes an earlier $route entry', () => {
    const text = "<?php\n$route['x'] = 'a/one';\n$route['x'] = 'a/two';\n";
    assert.equal(apply(text, allFixes(of(text, 'duplicate-route', 'x'))[0]), "<?php\n$route['x'] = 'a/two';\n");
  });

  it('offers no removal that would change anything else', () => {
    const cases = [
      // The earlier one names the route; the later one does not: Route::named() would return null.
      "<?php\nRoute::get('feed', 'a/one', array('as' => 'feed'));\nRoute::get('feed', 'a/two');\n$route = Route::map($route);\n",
      // Replaced under GET only: any() still routes the other methods.
      "<?php\nRoute::any('feed', 'a/one');\nRoute::get('feed', 'a/two');\n$route = Route::map($route);\n",
      // A route in between that matches its URI would come first once it moves.
      "<?php\nRoute::get('p/(:any)', 'a/one/$1');\nRoute::get('p/x', 'a/x');\nRoute::get('p/(:any)', 'a/two/$1');\n$route = Route::map($route);\n",
      // A statement declaring more than that route.
      "<?php\nRoute::resources('photos');\nRoute::get('photos', 'a/list');\n$route = Route::map($route);\n",
      // An argument that is not a literal.
      "<?php\n$t = 'a/one';\nRoute::get('feed', $t);\nRoute::get('feed', 'a/two');\n$route = Route::map($route);\n",
      // Conditional.
      "<?php\nif (ENVIRONMENT === 'x') { Route::get('feed', 'a/one'); }\nRoute::get('feed', 'a/two');\n$route = Route::map($route);\n",
    ];
    for (const text of cases) {
      const f = findings(text).find((x) => x.code === 'duplicate-route');
      assert.ok(f, text);
      assert.deepEqual(allFixes(f), [], text);
    }
  });
});

describe('quick fix: Create method x in Controller (missing-controller)', () => {
  it('carries the method to create, with as many parameters as the routes to it pass, those some leave out optional', () => {
    const text = "<?php\nRoute::get('posts/(:num)/(:any)', 'blog/posts/compare/$1/$2');\nRoute::get('posts/(:num)', 'blog/posts/compare/$1');\n$route = Route::map($route);\n";
    const found = analyzeRouteFile(text, evaluateRouteFile(text), { controllers: appCatalog() }).filter((f) => f.code === 'missing-controller');
    assert.equal(found.length, 2);
    for (const f of found) assert.deepEqual(allFixes(f).map((x) => x.title), ['Create method compare() in Posts']);
    for (const f of found) assert.deepEqual(allFixes(f)[0].createMethod, { file: 'modules/blog/controllers/Posts.php', className: 'Posts', method: 'compare', params: 2, required: 1 });
    assert.deepEqual(found[0].fixes[0].edits, []);
  });

  it('offers none for a missing controller, nor for a name CodeIgniter would not route to', () => {
    const text = "<?php\nRoute::get('a', 'nowhere/x');\nRoute::get('b', 'blog/posts/_hidden');\n$route = Route::map($route);\n";
    const found = analyzeRouteFile(text, evaluateRouteFile(text), { controllers: appCatalog() }).filter((f) => f.code === 'missing-controller');
    assert.equal(found.length, 2);
    for (const f of found) assert.deepEqual(allFixes(f), []);
  });

  it('inserts a public method before the class\'s closing brace, indented as the others, parameters the routes may leave out optional', () => {
    const controller = '<?php\nclass Posts extends MX_Controller\n{\n\tpublic function index()\n\t{\n\t}\n}\n';
    const edit = createMethodEdit(controller, { className: 'posts', method: 'compare', params: 2, required: 1 });
    assert.ok('offset' in edit);
    const fixed = controller.slice(0, edit.offset) + edit.newText + controller.slice(edit.offset);
    assert.equal(fixed, '<?php\nclass Posts extends MX_Controller\n{\n\tpublic function index()\n\t{\n\t}\n\n\tpublic function compare($arg1, $arg2 = null)\n\t{\n\t}\n}\n');
    // One line, CRLF, no method yet.
    const inline = createMethodEdit('<?php\r\nclass A extends CI_Controller { }\r\n', { className: 'A', method: 'x', params: 0, required: 0 });
    assert.deepEqual(inline, { offset: 39, newText: '\r\n    public function x()\r\n    {\r\n    }\r\n' });
  });

  it('refuses what would not run: a method declared already in any visibility, a class not in the file, a name that is no identifier', () => {
    const controller = '<?php\nclass Posts extends MX_Controller {\n  private function Compare() {}\n}\n';
    assert.deepEqual(createMethodEdit(controller, { className: 'Posts', method: 'compare', params: 0, required: 0 }), { refused: 'Posts declares Compare() already' });
    assert.ok('refused' in createMethodEdit(controller, { className: 'Other', method: 'x', params: 0, required: 0 }) === false, 'the only class of the file');
    assert.ok('refused' in createMethodEdit('<?php\nclass A {}\nclass B {}\n', { className: 'C', method: 'x', params: 0, required: 0 }));
    for (const method of ['x(); system("id"); function y', 'a-b', '_remap', '1x', '']) assert.ok('refused' in createMethodEdit(controller, { className: 'Posts', method, params: 0, required: 0 }), method);
  });
});
