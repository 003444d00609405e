import * as assert from 'node:assert/strict';
import { hoverAt } from '../../shared/analysis/features/hover';
import { declarationLenses } from '../../shared/analysis/features/code-lens';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';

/** The table's rows (header and separator left out). */
const tableRows = (markdown: string) => markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Methods'));

describe('hover on a declaration: the same count as its lens', () => {
  const text = `<?php
Route::context('admin');
Route::context('shop', array('home' => 'shop/front'));
Route::resources('photos', array(), function () {
    Route::any('tags', 'photos/tags/$1');
});
Route::any('about', 'pages/about');
Route::get('about', 'pages/about_get');
Route::get('a', 'x/one');
Route::get('a', 'x/two');
Route::prefix('api', function () {
    Route::get('status', 'api/status');
    Route::put('status', 'api/status/put');
});
$route = Route::map($route);
Route::any('late', 'z/late');
`;
  const evaluation = evaluateRouteFile(text);
  const lenses = declarationLenses(text, evaluation);

  it('says in its header what the lens says, word for word, for every declaration', () => {
    assert.ok(lenses.length >= 10);
    for (const lens of lenses) {
      const at = text.indexOf('::', lens.span.start) + 3;
      const hover = hoverAt(text, evaluation, at);
      const header = hover!.markdown.split('\n')[0];
      assert.equal(header.replace(/^\*\*Route::\w+\(\)\*\* — /, ''), lens.title, text.slice(lens.span.start, lens.span.end));
    }
  });

  it('counts context() as distinct routes under ANY: 6, not 6 × 8 rows', () => {
    const hover = hoverAt(text, evaluation, text.indexOf('context') + 2)!.markdown;
    assert.equal(lenses[0].title, '6 routes · ANY');
    assert.match(hover, /^\*\*Route::context\(\)\*\* — 6 routes · ANY\n/);
    assert.equal(tableRows(hover).length, 6);
    assert.ok(tableRows(hover).every((r) => r.startsWith('| ANY | ')), hover);
  });

  it('lists a route lost under some methods once, with under which methods and why', () => {
    const hover = hoverAt(text, evaluation, text.indexOf("any('about'") + 2)!.markdown;
    assert.match(hover, /— 1 route · POST PUT DELETE HEAD PATCH OPTIONS CLI\n/);
    assert.deepEqual(tableRows(hover), ['| POST PUT DELETE HEAD PATCH OPTIONS CLI | `about` | `pages/about` |  | GET: replaced by line 8 |']);
    const replaced = hoverAt(text, evaluation, text.indexOf("get('a'") + 2)!.markdown;
    assert.match(replaced, /— 0 routes · 1 replaced\n/);
    assert.deepEqual(tableRows(replaced), ['| GET | `a` | `x/one` |  | replaced by line 10 |']);
    const late = hoverAt(text, evaluation, text.indexOf("any('late'") + 2)!.markdown;
    assert.match(late, /— 0 routes · 1 lost after map\(\)\n/);
  });

  it("keeps a $nested callable's routes out of the count, and says how many it declares", () => {
    const hover = hoverAt(text, evaluation, text.indexOf('resources') + 2)!.markdown;
    assert.match(hover, /— 7 routes · GET POST PUT DELETE\n/);
    assert.equal(tableRows(hover).length, 7);
    assert.match(hover, /Its `\$nested` callable declares 4 more routes, counted at the declarations inside it\.$/);
  });

  it("counts a prefix() closure's routes for prefix()", () => {
    const hover = hoverAt(text, evaluation, text.indexOf('prefix') + 2)!.markdown;
    assert.match(hover, /— 2 routes · GET PUT\n/);
    assert.equal(tableRows(hover).length, 2);
  });
});

describe('hover on Route::named(): the route, its target and a link to its controller', () => {
  const text = `<?php
Route::get('articles/(:num)', 'blog/posts/show/$1', array('as' => 'article'));
$x = Route::named('article');
$route = Route::map($route);
`;
  const evaluation = evaluateRouteFile(text);
  const at = text.indexOf("named('article')") + 8;

  it('says the URI pattern, target and methods, and links the controller the host found', () => {
    const asked: string[] = [];
    const hover = hoverAt(text, evaluation, at, 'file:///app/config/routes.php', (target) => {
      asked.push(target);
      return { label: 'Posts::show()', file: 'modules/blog/controllers/Posts.php', uri: 'file:///app/modules/blog/controllers/Posts.php#L33' };
    })!.markdown;
    assert.deepEqual(asked, ['blog/posts/show/$1']);
    assert.equal(
      hover,
      [
        '**Route `article`**',
        '',
        '- URI pattern: `articles/(:num)`',
        '- Target: `blog/posts/show/$1`',
        '- Methods: GET',
        '- Controller: [Posts\\:\\:show\\(\\)](file:///app/modules/blog/controllers/Posts.php#L33) in `modules/blog/controllers/Posts.php`',
        '',
        'Declared at line 2.',
      ].join('\n'),
    );
  });

  it('says why no controller is known, and escapes what the workspace wrote in the link', () => {
    assert.match(hoverAt(text, evaluation, at, undefined, () => ({ none: '$1 chooses the controller per request' }))!.markdown, /\n- Controller: none known \(\\\$1 chooses the controller per request\)\n/);
    const hostile = hoverAt(text, evaluation, at, undefined, () => ({ label: 'X](command:evil) [', file: 'a`b', uri: 'file:///a b)(c [d].php#L3' }))!.markdown;
    const line = hostile.split('\n').find((l) => l.startsWith('- Controller: '))!;
    // One link: its text cannot close early, its URL has no space, parenthesis or bracket raw.
    assert.equal(line, '- Controller: [X\\]\\(command\\:evil\\) \\[](file:///a%20b%29%28c%20%5Bd%5D.php#L3) in ``a`b``');
  });

  it('looks up no controller for a target that is no string (a closure)', () => {
    const closure = "<?php\n$route['ping'] = 'x';\nRoute::get('ping', function () { return 'pong'; }, array('as' => 'ping'));\n$x = Route::named('ping');\n";
    const asked: string[] = [];
    const hover = hoverAt(closure, evaluateRouteFile(closure), closure.indexOf("named('ping')") + 8, undefined, (t) => (asked.push(t), { none: 'x' }))!.markdown;
    assert.deepEqual(asked, []);
    assert.match(hover, /- Target: `Closure`\n- Methods: GET\n\nDeclared at line 3\./);
  });
});
