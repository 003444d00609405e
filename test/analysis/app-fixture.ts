import { FileListTree } from '../../shared/router/app-tree';
import { createControllerCatalog, listingFromFiles, type ControllerCatalog, type ControllerListing } from '../../shared/workspace/controller-catalog';

/** A small HMVC application: paths relative to the application folder, with their text. */
export const APP_FILES: ReadonlyMap<string, string> = new Map([
  ['controllers/Home.php', '<?php\nclass Home extends CI_Controller {\n  public function index() {}\n  public function about() {}\n  private function secret() {}\n}\n'],
  ['controllers/admin/Users.php', '<?php\nclass Users extends CI_Controller {\n  public function index() {}\n  public function edit($id) {}\n}\n'],
  ['controllers/lower.php', '<?php\nclass lower extends CI_Controller { public function index() {} }\n'],
  ['controllers/Blog.php', '<?php\nclass Blog extends CI_Controller { public function shadowed() {} }\n'],
  ['modules/blog/controllers/Blog.php', '<?php\nclass Blog extends MX_Controller {\n  public function index() {}\n  public function feed() {}\n}\n'],
  ['modules/blog/controllers/Posts.php', '<?php\nclass Posts extends MX_Controller {\n  public function index() {}\n  public function show($id) {}\n  protected function helper() {}\n}\n'],
  ['modules/gallery/controllers/Photos.php', '<?php\nclass Photos extends MX_Controller {\n  public function _remap($m) {}\n}\n'],
  ['modules/gallery/views/list.php', '<p>not a controller</p>'],
]);

export function appListing(): ControllerListing {
  return listingFromFiles(APP_FILES);
}

export function appTree(): FileListTree {
  return new FileListTree(APP_FILES.keys());
}

export function appCatalog(): ControllerCatalog {
  return createControllerCatalog(appTree(), (f) => APP_FILES.get(f));
}
