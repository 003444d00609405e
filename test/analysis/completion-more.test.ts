import * as assert from 'node:assert/strict';
import { completeMore, type MoreCompletionEntry } from '../../shared/analysis/features/completion/completion-more';
import { appListing } from './app-fixture';
import { withCursor } from './cursor-marker';

function complete(src: string): { text: string; offset: number; entries: MoreCompletionEntry[] | undefined } {
  const { text, offset } = withCursor(src);
  return { text, offset, entries: completeMore(text, offset, appListing()) };
}

const labels = (src: string): string[] | undefined => complete(src).entries?.map((e) => e.label);

/** The text after inserting an entry. */
function apply(text: string, e: MoreCompletionEntry): string {
  return text.slice(0, e.replace.start) + (e.insertText ?? e.label) + text.slice(e.replace.end);
}

describe('completeMore', () => {
  describe('option keys', () => {
    it('in a bare position inserts the quoted key and the arrow', () => {
      const { text, entries } = complete("<?php Route::get('a', 'b/c', array(|));");
      assert.deepEqual(entries?.map((e) => [e.label, e.kind]), [['as', 'option']]);
      assert.equal(apply(text, entries![0]), "<?php Route::get('a', 'b/c', array('as' => ));");
      assert.match(entries![0].documentation ?? '', /Route::named/);
    });

    it('inside quotes completes the key only, over what is already typed', () => {
      const { text, entries } = complete("<?php Route::post('a', 'b/c', ['a|s']);");
      assert.equal(apply(text, entries![0]), "<?php Route::post('a', 'b/c', ['as']);");
      const open = complete("<?php Route::any('a', 'b', ['|");
      assert.equal(apply(open.text, open.entries![0]), "<?php Route::any('a', 'b', ['as");
    });

    it('replaces a bare word being typed', () => {
      const { text, entries } = complete("<?php Route::get('a', 'b', array(a|");
      assert.equal(apply(text, entries![0]), "<?php Route::get('a', 'b', array('as' => ");
    });

    it('offers only the keys each method reads, minus those already written', () => {
      assert.deepEqual(labels("<?php Route::resources('photos', array('module' => 'blog', '|"), ['controller', 'constraint', 'offset']);
      assert.deepEqual(labels("<?php Route::context('admin', array(|"), ['offset', 'home']);
      assert.deepEqual(labels("<?php Route::context('admin', 'dashboard', ['|"), ['offset', 'home']);
    });

    it('nothing outside an options array', () => {
      assert.equal(labels("<?php Route::get('a', array(|"), undefined);
      assert.equal(labels("<?php Route::block(array(|"), undefined);
      assert.equal(labels("<?php $x = array(|"), undefined);
    });
  });

  describe('option values', () => {
    it('constraint offers the patterns with what they match, in order', () => {
      const { text, entries } = complete("<?php Route::resources('photos', array('constraint' => '|'));");
      assert.deepEqual(entries?.map((e) => e.label), ['(:num)', '(:any)', '([a-zA-Z0-9\\-_]+)']);
      assert.ok(entries!.every((e) => e.kind === 'option-value' && e.documentation));
      assert.equal(apply(text, entries![0]), "<?php Route::resources('photos', array('constraint' => '(:num)'));");
    });

    it('a bare value position inserts quotes', () => {
      const { text, entries } = complete("<?php Route::resources('photos', ['constraint' => |]);");
      assert.equal(apply(text, entries![0]), "<?php Route::resources('photos', ['constraint' => '(:num)']);");
    });

    it('module offers the modules of the listing', () => {
      assert.deepEqual(labels("<?php Route::resources('photos', ['module' => 'g|']);"), ['blog', 'gallery']);
      const { text, offset } = withCursor("<?php Route::resources('photos', ['module' => '|']);");
      assert.equal(completeMore(text, offset), undefined, 'no listing, nothing to offer');
    });

    it('no values for options without known values or for keys the method does not read', () => {
      assert.equal(labels("<?php Route::resources('photos', ['offset' => '|']);"), undefined);
      assert.equal(labels("<?php Route::get('a', 'b', ['constraint' => '|']);"), undefined);
    });
  });

  describe('targets', () => {
    it('first segment: modules, then application folders and controllers; a module shadows a controller of its name', () => {
      const { entries } = complete("<?php Route::get('x', '|');");
      assert.deepEqual(entries?.map((e) => `${e.label}:${e.kind}`), ['blog:module', 'gallery:module', 'admin:folder', 'home:controller']);
    });

    it("after module/: its controllers, then the methods of the module's own controller", () => {
      assert.deepEqual(labels("<?php Route::get('x', 'blog/|');"), ['blog', 'posts', 'index', 'feed']);
    });

    it('after controller/: its public methods, with the class in the detail', () => {
      const { entries } = complete("<?php Route::put('x', 'blog/posts/|');");
      assert.deepEqual(entries?.map((e) => [e.label, e.kind, e.detail]), [
        ['index', 'controller-method', 'Posts::index()'],
        ['show', 'controller-method', 'Posts::show()'],
      ]);
      assert.deepEqual(labels("<?php Route::get('x', 'home/|');"), ['index', 'about']);
    });

    it('application sub-folders, segment by segment', () => {
      assert.deepEqual(labels("<?php $route['x'] = 'admin/|';"), ['users']);
      assert.deepEqual(labels("<?php $route['x'] = 'admin/users/|';"), ['index', 'edit']);
    });

    it('replaces only the segment under the cursor', () => {
      const { text, entries } = complete("<?php Route::get('x', 'blog/po|sts/show/$1');");
      const posts = entries!.find((e) => e.label === 'posts')!;
      assert.equal(text.slice(posts.replace.start, posts.replace.end), 'posts');
      assert.equal(apply(text, posts), "<?php Route::get('x', 'blog/posts/show/$1');");
    });

    it('works in an unterminated string and in $route values', () => {
      assert.ok(labels("<?php Route::get('x', 'bl|\nRoute::get('y', 'z');")?.includes('blog'));
      assert.ok(labels("<?php $route['default_controller'] = \"|\";")?.includes('home'));
    });

    it('nothing after a back-reference, past the method, or without a listing', () => {
      assert.deepEqual(labels("<?php Route::get('(:any)', '$1/|');"), []);
      assert.deepEqual(labels("<?php Route::get('x', 'blog/posts/show/|');"), []);
      const { text, offset } = withCursor("<?php Route::get('x', '|');");
      assert.equal(completeMore(text, offset), undefined);
    });
  });

  describe('wildcards in $from', () => {
    it('offers (:any) and (:num) in the first argument, block paths and $route keys', () => {
      for (const src of ["<?php Route::get('photos/|", "<?php Route::block('a', 'b/|');", "<?php $route['photos/|'] = 'p/index';", "<?php Route::prefix('api', function () { Route::any('|'); });"]) {
        assert.deepEqual(labels(src), ['(:any)', '(:num)'], src);
      }
      const { entries } = complete("<?php Route::get('|");
      assert.equal(entries![0].kind, 'wildcard');
      assert.match(entries![0].documentation ?? '', /\[\^\/\]\+/);
    });

    it("offers none in a verb array's key ($route['x']['get']): a request method, not a path; the target after it is still a target", () => {
      assert.equal(labels("<?php $route['photos']['g|'] = 'p/index';"), undefined);
      assert.deepEqual(labels("<?php $route['photos/|']['get'] = 'p/index';"), ['(:any)', '(:num)']);
    });

    it('replaces a wildcard already begun', () => {
      const { text, entries } = complete("<?php Route::get('photos/(:n|um)', 'p/show/$1');");
      const num = entries!.find((e) => e.label === '(:num)')!;
      assert.equal(apply(text, num), "<?php Route::get('photos/(:num)', 'p/show/$1');");
    });

    it('not in other arguments', () => {
      assert.equal(labels("<?php Route::resources('|"), undefined);
      assert.equal(labels("<?php Route::named('|"), undefined);
    });
  });

  it('never throws on odd input', () => {
    for (const src of ['|', '<?php |', "<?php Route::get('x', '|", '<?php Route::::(|', "<?php Route::resources('p', array('module' => |", "<?php Route::constructor('a', 'b', ['|", "<?php Route::constructor('a', 'b', ['as' => '|"]) {
      const { text, offset } = withCursor(src);
      completeMore(text, offset, appListing());
      completeMore(text, offset);
    }
  });
});
