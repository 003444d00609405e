import * as assert from 'node:assert/strict';
import { backReferenceHints, patternGroups } from '../../shared/analysis/features/inlay-hints';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { withCursor } from './cursor-marker';

/** The hints of a route file written with one `|` where the expected hint goes. */
function hintAtCursor(src: string): { hints: ReturnType<typeof backReferenceHints>; offset: number } {
  const { text, offset } = withCursor(src);
  return { hints: backReferenceHints(text, evaluateRouteFile(text)), offset };
}

function labels(text: string): string[] {
  return backReferenceHints(text, evaluateRouteFile(text)).map((h) => `${text.slice(h.offset - 2, h.offset)} ${h.label}`);
}

describe('patternGroups', () => {
  it('returns the capture groups as written, numbered by their opening parenthesis', () => {
    assert.deepEqual(patternGroups('posts/(:num)'), ['(:num)']);
    assert.deepEqual(patternGroups('a/([a-z]+)/(:any)'), ['([a-z]+)', '(:any)']);
    assert.deepEqual(patternGroups('d/((:num)-(:num))'), ['((:num)-(:num))', '(:num)', '(:num)']);
    assert.deepEqual(patternGroups('x/(?:a|b)/(:num)'), ['(:num)']);
    assert.deepEqual(patternGroups('x/(?<id>[0-9]+)'), ['(?<id>[0-9]+)']);
    assert.deepEqual(patternGroups('x/\\((:num)\\)/[(]'), ['(:num)']);
    assert.deepEqual(patternGroups('plain/path'), []);
  });

  it('gives nothing for keys CodeIgniter cannot use', () => {
    assert.equal(patternGroups('files/(:any'), undefined);
    assert.equal(patternGroups('files/(:any))'), undefined);
    assert.equal(patternGroups('a#(:num)'), undefined);
    assert.equal(patternGroups('a/[(:num)'), undefined);
  });
});

describe('backReferenceHints', () => {
  it("puts the pattern's group right after $n in a verb's target", () => {
    const { hints, offset } = hintAtCursor(`<?php
Route::get('posts/(:num)', 'blog/posts/show/$1|');
$route = Route::map($route);
`);
    assert.deepEqual(hints, [{ offset, label: '← (:num)', kind: 'parameter' }]);
  });

  it('numbers groups as the router does: several, regex groups, nested, non-capturing', () => {
    assert.deepEqual(
      labels(`<?php
Route::any('a/([a-z]+)/(:any)', 'x/y/$2/$1');
Route::any('d/((:num)-(:num))', 'x/d/$3/$1');
Route::any('n/(?:a|b)/(:num)', 'x/n/$1');
$route = Route::map($route);
`),
      ['$2 ← (:any)', '$1 ← ([a-z]+)', '$3 ← (:num)', '$1 ← ((:num)-(:num))', '$1 ← (:num)'],
    );
  });

  it('reads $route entries, verb arrays, double quotes and ${n}', () => {
    const { hints, offset } = hintAtCursor(`<?php
$route['p/(:any)'] = 'pages/view/$1|';
`);
    assert.deepEqual(hints, [{ offset, label: '← (:any)', kind: 'parameter' }]);
    assert.deepEqual(
      labels(`<?php
$route['v/(:num)'] = array('GET' => 'a/show/$1', 'PUT' => "a/update/$1");
$route['w/(:num)'] = 'a/w/\${1}';
`),
      ['$1 ← (:num)', '$1 ← (:num)', '1} ← (:num)'],
    );
  });

  it('includes the groups prefix() puts in front', () => {
    const { hints, offset } = hintAtCursor(`<?php
Route::prefix('(v[0-9]+)', function () {
    Route::get('users/(:num)', 'api/users/show/$2|');
});
$route = Route::map($route);
`);
    assert.deepEqual(hints, [{ offset, label: '← (:num)', kind: 'parameter' }]);
  });

  it('lists the different groups when a target serves several patterns', () => {
    assert.deepEqual(
      labels(`<?php
foreach (array('a/(:num)', 'b/([a-z]+)') as $p) {
    Route::any($p, 'x/show/$1');
}
$route = Route::map($route);
`),
      ['$1 ← (:num) | ([a-z]+)'],
    );
  });

  it('says $0 is the whole match', () => {
    assert.deepEqual(labels(`<?php $route['a/(:num)'] = 'x/y/$0';`), ['$0 ← whole match']);
  });

  it('gives no hint without a known pattern or group', () => {
    assert.deepEqual(
      labels(`<?php
Route::any('posts/(:num)', 'posts/show/$2');
Route::any('plain', 'posts/show/$1');
Route::any($unknown, 'posts/show/$1');
Route::any('files/(:any', 'files/get/$1');
Route::resources('photos');
Route::context('admin');
$to = 'a/b/$1';
Route::any('v/(:num)', $to);
Route::any('c/(:num)', 'a/' . 'b/$1');
Route::any('i/(:num)', "a/{$to}/$1");
$route = Route::map($route);
`),
      [],
    );
  });

  it('never throws on broken files', () => {
    for (const text of ["<?php Route::any('a/(:num)', 'b/$1'", "<?php $route['a/(:num)'] = ", '<?php Route::prefix(1, 2);']) {
      assert.doesNotThrow(() => backReferenceHints(text, evaluateRouteFile(text)), text);
    }
  });
});
