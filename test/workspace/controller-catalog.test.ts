import * as assert from 'node:assert/strict';
import { FileListTree } from '../../shared/router/app-tree';
import { controllerListing, createControllerCatalog, listingFromFiles } from '../../shared/workspace/controller-catalog';
import { appListing } from '../analysis/app-fixture';

describe('the controller listing (built from the catalog)', () => {
  it('lists modules that have controllers', () => {
    assert.deepEqual(appListing().modules(), ['blog', 'gallery']);
  });

  it('names application controllers as a target writes them, sub-folders included, with public methods', () => {
    assert.deepEqual(appListing().controllers(), [
      { name: 'admin/users', file: 'controllers/admin/Users.php', methods: ['index', 'edit'] },
      { name: 'blog', file: 'controllers/Blog.php', methods: ['shadowed'] },
      { name: 'home', file: 'controllers/Home.php', methods: ['index', 'about'] },
    ]);
  });

  it("lists a module's controllers; a file starting lower case is unreachable and left out", () => {
    assert.deepEqual(
      appListing().controllers('blog').map((c) => `${c.name}:${c.methods.join(',')}`),
      ['blog:index,feed', 'posts:index,show'],
    );
    assert.deepEqual(appListing().controllers('nope'), []);
  });

  it('keeps camel case after the first letter and reads module sub-folders', () => {
    const listing = listingFromFiles(new Map([
      ['controllers/BlogPosts.php', '<?php class BlogPosts extends CI_Controller { function index() {} }'],
      ['modules/shop/controllers/admin/Orders.php', '<?php class Orders extends MX_Controller { public function refund() {} }'],
      ['./controllers//Twice.php', '<?php class Twice {}'],
    ]));
    assert.deepEqual(listing.controllers().map((c) => c.name), ['blogPosts', 'twice']);
    assert.deepEqual(listing.controllers('shop'), [{ name: 'admin/orders', file: 'modules/shop/controllers/admin/Orders.php', methods: ['refund'] }]);
  });

  it('never throws on odd input', () => {
    const listing = listingFromFiles(new Map([['controllers/Broken.php', '<?php class Broken { public function a( {'], ['x', undefined as unknown as string]]));
    assert.deepEqual(listing.controllers().map((c) => c.name), ['broken']);
  });

  it('answers from the catalog it is built from: a file is scanned once, and one it cannot read is left out', () => {
    const reads: string[] = [];
    const texts = new Map([
      ['controllers/Home.php', '<?php class Home extends CI_Controller { public function Index() {} public function index() {} public function _remap($m) {} }'],
      ['modules/shop/controllers/Gone.php', undefined],
    ]);
    const catalog = createControllerCatalog(new FileListTree(texts.keys()), (f) => (reads.push(f), texts.get(f)));
    const listing = controllerListing(texts.keys(), catalog);
    assert.deepEqual(listing.controllers(), [{ name: 'home', file: 'controllers/Home.php', methods: ['Index'] }]);
    assert.deepEqual(listing.modules(), [], 'a module none of whose controllers can be read has none to offer');
    const methods = catalog.methods('controllers/Home.php')!;
    assert.deepEqual([[...methods.names], methods.hasRemap], [['index'], true]);
    listing.controllers();
    assert.deepEqual(reads, ['controllers/Home.php', 'modules/shop/controllers/Gone.php']);
  });

  it('takes a method named like its class (no __construct) for the constructor before PHP 8 only', () => {
    const texts = new Map([['controllers/Search.php', '<?php class Search extends CI_Controller { public function search() {} public function index() {} }']]);
    const names = (legacy: boolean) => [...createControllerCatalog(new FileListTree(texts.keys()), (f) => texts.get(f), undefined, legacy).methods('controllers/Search.php')!.names];
    assert.deepEqual(names(false), ['search', 'index'], 'PHP 8: a method like the others');
    assert.deepEqual(names(true), ['index'], 'PHP 7: the constructor, which CodeIgniter refuses');
  });

  it("names controllers as CodeIgniter's ucfirst() finds them: only a-z is upper-cased", () => {
    const listing = listingFromFiles(new Map([
      ['controllers/Étude.php', '<?php class Étude { public function index() {} }'],
      ['controllers/ñandu.php', '<?php class ñandu { public function index() {} }'],
      ['controllers/pages.php', '<?php class pages { public function index() {} }'],
    ]));
    assert.deepEqual(listing.controllers().map((c) => c.name), ['Étude', 'ñandu']);
  });
});
