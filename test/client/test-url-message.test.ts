import * as assert from 'node:assert/strict';
import { testUrlLines } from '../../client/src/test-url-message';

describe('the Test URL notification', () => {
  it('shows the router, the main route, the module route and the controller', () => {
    const lines = testUrlLines('GET', '/blog/archive/2020', {
      flavour: 'mx',
      main_matched_key: null,
      main_target_segments: ['blog', 'archive', '2020'],
      module_route: { module: 'blog', key: 'blog/archive/(:num)', value: 'posts/archive/$1', segments: ['blog', 'posts', 'archive', '2020'] },
      moduleLocation: { uri: 'file:///w/app/application/modules/blog/config/routes.php', range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } } },
      class: 'Posts',
      method: 'archive',
      rsegments: ['posts', 'archive', '2020'],
      controller_file: 'application/modules/blog/controllers/Posts.php',
      error: null,
    });
    assert.deepStrictEqual(lines, [
      'GET /blog/archive/2020  (router mx)',
      'main route: (none matches: the URI segments are used as they are)',
      'module route: blog/archive/(:num) → posts/archive/$1 (module blog) (modules/blog/config/routes.php:9)',
      'controller: Posts::archive(2020) in application/modules/blog/controllers/Posts.php',
    ]);
  });

  it('says why no controller serves the request, and the error that ends it', () => {
    const notFound = testUrlLines('GET', 'x', { flavour: 'ci', main_matched_key: 'x', main_target_segments: ['nope'], controller: { found: false, reason: 'no controller serves it: the 404 page', tried: [] }, error: null });
    assert.deepStrictEqual(notFound, ['GET /x  (router ci)', 'main route: x → nope', 'controller: (none) no controller serves it: the 404 page']);
    const failed = testUrlLines('GET', 'x', { error: 'TypeError: boom' });
    assert.deepStrictEqual(failed, ['GET /x', 'error: TypeError: boom']);
    const refused = testUrlLines('GET', 'a@b', { error: 'show_error(400): The URI you submitted has disallowed characters.', uri_refused: { segment: 'a@b', why: "the segment 'a@b' holds a character config/config.php's permitted_uri_chars 'a-z' does not permit" } });
    assert.deepStrictEqual(refused, ['GET /a@b', 'error: show_error(400): The URI you submitted has disallowed characters.', "why: the segment 'a@b' holds a character config/config.php's permitted_uri_chars 'a-z' does not permit"]);
  });

  it('says when routes of the table cannot be known, and may take the URI first', () => {
    const lines = testUrlLines('GET', 'about', { flavour: 'ci', main_matched_key: 'about', main_target_segments: ['pages', 'about'], error: null, unknownRoutes: ['line 4: path: property access is not evaluated'] });
    assert.equal(lines.at(-1), 'unsure: 1 route cannot be known statically (line 4: path: property access is not evaluated), and may take this URI first');
  });
});
