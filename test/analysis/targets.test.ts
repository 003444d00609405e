import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { targetAt, targetDefinition, targetHover } from '../../shared/analysis/features/targets';
import { APP_FILES, appCatalog, appTree } from './app-fixture';
import { withCursor } from './cursor-marker';

function at(src: string) {
  const { text, offset } = withCursor(src);
  const evaluation = evaluateRouteFile(text);
  return {
    text,
    target: targetAt(text, evaluation, offset, appTree()),
    hover: targetHover(text, evaluation, offset, appCatalog()),
    definition: targetDefinition(text, evaluation, offset, appTree(), (f) => APP_FILES.get(f)),
  };
}

describe('targets', () => {
  it('a Route call target dispatches to a module controller and method', () => {
    const r = at("<?php Route::get('articles/(:num)', 'blog/posts/sh|ow/$1');");
    assert.equal(r.text.slice(r.target!.span.start, r.target!.span.end), "'blog/posts/show/$1'");
    assert.deepEqual(r.target?.segments, ['blog', 'posts', 'show', '$1']);
    assert.equal(r.target?.resolution?.found && r.target.resolution.target.file, 'modules/blog/controllers/Posts.php');
    assert.equal(r.hover?.markdown, "`blog/posts/show/$1` dispatches to `modules/blog/controllers/Posts.php` (module `blog`) → `Posts::show($1)`");
    const file = APP_FILES.get(r.definition!.file)!;
    assert.equal(r.definition?.file, 'modules/blog/controllers/Posts.php');
    assert.equal(file.slice(r.definition!.span!.start, r.definition!.span!.end), 'show');
  });

  it('a $route value, from the text, with the cursor on its opening quote', () => {
    const src = "<?php $route['about'] = |'home/about';";
    const r = at(src);
    assert.equal(r.hover?.markdown, "`home/about` dispatches to `controllers/Home.php` → `Home::about()`");
    assert.equal(APP_FILES.get('controllers/Home.php')!.slice(r.definition!.span!.start, r.definition!.span!.end), 'about');
  });

  it('a missing public method: says so, and the definition goes to the class', () => {
    const r = at("<?php Route::get('x', 'blog/posts/hel|per');");
    assert.equal(r.hover?.markdown, '`blog/posts/helper` dispatches to `modules/blog/controllers/Posts.php` (module `blog`), which has no public method `helper()`: CodeIgniter answers 404.');
    const file = APP_FILES.get('modules/blog/controllers/Posts.php')!;
    assert.equal(file.slice(r.definition!.span!.start, r.definition!.span!.end), 'Posts');
  });

  it('no controller: the reason, and no definition', () => {
    const r = at("<?php Route::get('x', 'nowhere/|x');");
    assert.match(r.hover!.markdown, /^`nowhere\/x` dispatches to no controller: .*nowhere.*CodeIgniter answers 404\.$/);
    assert.equal(r.definition, undefined);
  });

  it('a back-reference that picks the controller leaves it undecided; one in the method does not', () => {
    const r = at("<?php Route::get('(:any)/edit', '$1/ed|it');");
    assert.equal(r.target?.resolution, undefined);
    assert.equal(r.target?.decidedBy, '$1');
    assert.match(r.hover!.markdown, /depends on the request/);
    const m = at("<?php Route::get('home/(:any)', 'home/$|1');");
    assert.match(m.hover!.markdown, /→ `Home::\$1\(\)`\n\nThe method comes from the URI/);
    assert.equal(APP_FILES.get('controllers/Home.php')!.slice(m.definition!.span!.start, m.definition!.span!.end), 'Home');
  });

  it('_remap accepts every method', () => {
    assert.match(at("<?php Route::get('p', 'gallery/photos/any|thing');").hover!.markdown, /`Photos::_remap\(\)` receives every call/);
  });

  it('evaluated targets: constants and concatenation; a call whose target varies gives nothing', () => {
    const r = at("<?php define('M', 'blog'); Route::get('x', M . '/po|sts');");
    assert.equal(r.target?.target, 'blog/posts');
    assert.equal(at("<?php foreach (array('home', 'blog') as $c) { Route::get($c, $c . '/ind|ex'); }").target, undefined);
  });

  it('nothing off a target', () => {
    assert.equal(at("<?php Route::get('ho|me', 'home/index');").target, undefined);
    assert.equal(at("<?php Route::get('x', 'home/index', ['as' => 'ho|me']);").target, undefined);
    assert.equal(at("<?php $route['ho|me'] = 'home/index';").target, undefined);
    assert.equal(at("<?php $route['home'] = 'home/' . $x|;").target, undefined);
  });

  it('a definition without the file text gives the file alone', () => {
    const { text, offset } = withCursor("<?php Route::get('x', 'home/ab|out');");
    assert.deepEqual(targetDefinition(text, evaluateRouteFile(text), offset, appTree(), () => undefined), { file: 'controllers/Home.php' });
    assert.deepEqual(targetDefinition(text, evaluateRouteFile(text), offset, appTree(), () => { throw new Error('io'); }), { file: 'controllers/Home.php' });
  });
});
