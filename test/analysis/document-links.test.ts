import * as assert from 'node:assert/strict';
import { targetLinks } from '../../shared/analysis/features/document-links';
import { dispatchTarget, emptySegmentIn } from '../../shared/analysis/model/target-dispatch';
import { readStringLiteral } from '../../shared/analysis/model/target-literals';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { FileListTree } from '../../shared/router/app-tree';
import { withCursor } from './cursor-marker';

const tree = new FileListTree([
  'controllers/Home.php',
  'controllers/Pages.php',
  'controllers/api/Users.php',
  'controllers/My_photos.php',
  'modules/blog/controllers/Posts.php',
  'modules/blog/controllers/Blog.php',
]);

function links(text: string, appTree = tree): [string, string, string][] {
  return targetLinks(text, evaluateRouteFile(text), appTree).map((l) => [text.slice(l.span.start, l.span.end), l.file, l.tooltip]);
}

describe('targetLinks', () => {
  it('links each target literal to its controller file (HMVC aware), on the text inside the quotes', () => {
    assert.deepEqual(
      links(`<?php
$route['default_controller'] = 'home';
Route::get('about', 'pages/show/about');
Route::get('users/(:num)', "api/users/show/$1");
Route::any('articles/(:num)', 'blog/posts/show/$1');
$route['feed'] = array('GET' => 'blog/feed', 'POST' => 'pages/ping');
$route = Route::map($route);
`),
      [
        ['home', 'controllers/Home.php', 'Home::index() in controllers/Home.php'],
        ['pages/show/about', 'controllers/Pages.php', 'Pages::show() in controllers/Pages.php'],
        ['api/users/show/$1', 'controllers/api/Users.php', 'Users::show() in controllers/api/Users.php'],
        ['blog/posts/show/$1', 'modules/blog/controllers/Posts.php', 'Posts::show() in modules/blog/controllers/Posts.php'],
        ['blog/feed', 'modules/blog/controllers/Blog.php', 'Blog::feed() in modules/blog/controllers/Blog.php'],
        ['pages/ping', 'controllers/Pages.php', 'Pages::ping() in controllers/Pages.php'],
      ],
    );
  });

  it('starts the link right after the opening quote', () => {
    const { text, offset } = withCursor(`<?php Route::get('about', '|pages/show/about'); $route = Route::map($route);`);
    const [link] = targetLinks(text, evaluateRouteFile(text), tree);
    assert.equal(link.span.start, offset);
    assert.equal(link.span.end, offset + 'pages/show/about'.length);
  });

  it('links a target whose method comes from the URI, not one whose controller does', () => {
    assert.deepEqual(
      links(`<?php
Route::any('p/(:any)', 'pages/$1');
Route::any('(:any)/(:any)', '$1/show/$2');
Route::any('b/(:any)', 'blog/$1/show');
$route = Route::map($route);
`),
      [
        ['pages/$1', 'controllers/Pages.php', 'Pages::$1 (method from the URI) in controllers/Pages.php'],
        ['blog/$1/show', 'modules/blog/controllers/Blog.php', 'Blog::$1 (method from the URI) in modules/blog/controllers/Blog.php'],
      ],
    );
  });

  it('skips missing controllers, blocked and generated routes, closures and computed targets', () => {
    assert.deepEqual(
      links(`<?php
Route::any('x', 'nowhere/index');
Route::block('pages');
Route::resources('pages');
Route::any('c', function () {});
$t = 'pages/x';
Route::any('v', $t);
Route::any('w', 'pa' . 'ges/x');
$route['translate_uri_dashes'] = FALSE;
$route = Route::map($route);
`),
      [],
    );
  });

  it('applies translate_uri_dashes', () => {
    const text = `<?php $route['a'] = 'my-photos/index'; $route['translate_uri_dashes'] = TRUE;`;
    assert.deepEqual(links(text).map((l) => l[1]), ['controllers/My_photos.php']);
  });

  it('never throws on broken files', () => {
    for (const text of ["<?php Route::any('a', 'pages/x'", "<?php $route['a'] = 'pages", '<?php Route::prefix(1, 2);', '']) {
      assert.doesNotThrow(() => targetLinks(text, evaluateRouteFile(text), tree), text);
    }
  });
});

describe('readStringLiteral', () => {
  const read = (src: string) => readStringLiteral(src, { start: 0, end: src.length });
  it('reads plain literals and refuses anything else', () => {
    assert.deepEqual(read("'a/b'"), { quote: "'", contentSpan: { start: 1, end: 4 }, value: 'a/b' });
    assert.equal(read(`"it\\'s \\$1"`)?.value, "it\\'s $1");
    assert.equal(read("b'x'")?.value, 'x');
    assert.equal(read("'a' . 'b'"), undefined);
    assert.equal(read('"a/$b"'), undefined);
    assert.equal(read('"a/{$b}"'), undefined);
    assert.equal(read('$x'), undefined);
    assert.equal(read("'"), undefined);
  });
});

describe('dispatchTarget', () => {
  it('resolves static controller segments and matches method names case-insensitively', () => {
    const d = dispatchTarget('pages/Show/1', tree);
    assert.equal(d?.target.file, 'controllers/Pages.php');
    assert.equal(d?.methodVaries, false);
    assert.equal(d?.methodMatches('show'), true);
    assert.equal(d?.methodMatches('index'), false);
    assert.equal(dispatchTarget('$1/show', tree), undefined);
    assert.equal(dispatchTarget('', tree), undefined);
    const v = dispatchTarget('pages/view_$1', tree);
    assert.equal(v?.methodVaries, true);
    assert.equal(v?.methodMatches('VIEW_large'), true);
    assert.equal(v?.methodMatches('index'), false);
  });

  it("does not look up a target with an empty segment: the router keeps it ('home/' calls the method '', a module's '/Capital' falls to its default controller)", () => {
    assert.equal(dispatchTarget('pages/', tree), undefined);
    assert.equal(dispatchTarget('/pages', tree), undefined);
    assert.equal(dispatchTarget('pages//show', tree), undefined);
    assert.match(String(emptySegmentIn('pages/')), /^'pages\/' has an empty segment/);
    assert.equal(emptySegmentIn('pages/show'), undefined);
  });
});
