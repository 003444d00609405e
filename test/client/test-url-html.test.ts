import * as assert from 'node:assert/strict';
import { OPEN_LOCATION_COMMAND, openLocationHref, testUrlHtml } from '../../client/src/test-url-html';
import type { TestUrlAnswer } from '../../shared/protocol/test-url';

const ROUTES = 'file:///w/app/application/config/routes.php';
const at = (uri: string, line: number) => ({ uri, range: { start: { line, character: 0 }, end: { line, character: 5 } } });

const SERVED: TestUrlAnswer = {
  flavour: 'mx',
  router_source: 'detected from application/core/MY_Router.php',
  main_matched_key: 'articles/(:num)',
  main_target_segments: ['blog', 'posts', 'show', '12'],
  location: at(ROUTES, 30),
  module_route: null,
  module: 'blog',
  class: 'Posts',
  method: 'show',
  rsegments: ['posts', 'show', '12'],
  controller_file: 'application/modules/blog/controllers/Posts.php',
  controllerUri: 'file:///w/app/application/modules/blog/controllers/Posts.php',
  error: null,
  tried: 4,
  notMatched: [
    { key: 'articles/(:num)/(:any)', kind: 'later', reason: "it matches too, but 'articles/(:num)' comes first", location: at(ROUTES, 33) },
    { key: 'articles', kind: 'pattern', reason: 'the URI has 2 segments, the route 1', location: at(ROUTES, 30) },
  ],
};

/** The text a reader sees (tags dropped, the five entities decoded, white space as one space). */
function seen(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the Test URL panel page', () => {
  it('shows the request, the verdict, the matched route, target, module and controller, with links', () => {
    const html = testUrlHtml({ method: 'GET', url: 'articles/12', routeFile: ROUTES, result: SERVED, nonce: 'n0nce' });
    const text = seen(html).replace(/\s+/g, ' ');
    assert.match(text, /GET \/articles\/12/);
    assert.match(text, /Served by Posts::show\(12\) in application\/modules\/blog\/controllers\/Posts\.php/);
    assert.match(text, /Main route articles\/\(:num\) → blog\/posts\/show\/12 line 31/);
    assert.match(text, /Module route none matches/);
    assert.match(text, /Module blog Controller/);
    assert.match(text, /CodeIgniter tried 4 routes of the main table before the one that matched/);
    assert.match(text, /articles\/\(:num\)\/\(:any\) matches, later line 34 it matches too/);
    assert.match(text, /articles does not match line 31 the URI has 2 segments, the route 1/);
    // The controller's link opens its file; the route's, its declaration.
    assert.ok(html.includes(`href="${openLocationHref('file:///w/app/application/modules/blog/controllers/Posts.php').replace(/&/g, '&amp;')}"`));
    assert.ok(html.includes(openLocationHref(ROUTES, 30, 0)));
  });

  it('runs no script, loads nothing, and styles only with its nonce', () => {
    const html = testUrlHtml({ method: 'GET', url: 'x', routeFile: ROUTES, result: SERVED, nonce: 'abc123' });
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-abc123';">/);
    assert.doesNotMatch(html, /<script|\son\w+=|javascript:|<img|<iframe|<link|\ssrc=/i);
    assert.equal(html.match(/<style/g)?.length, 1);
    // Every link runs the one command the panel allows.
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.ok(href!.startsWith(`command:${OPEN_LOCATION_COMMAND}?`), href);
  });

  it('escapes everything that comes from the workspace or the typed URL', () => {
    const payload = `"><script>alert(1)</script><a href="command:workbench.action.terminal.new">x</a>&amp;\u202E`;
    const hostile: TestUrlAnswer = {
      ...SERVED,
      main_matched_key: payload,
      main_target_segments: [payload],
      class: payload,
      controller_file: payload,
      controllerUri: `file:///w/${payload}`,
      router_source: payload,
      module: payload,
      location: at(`file:///w/${payload}`, 1),
      notMatched: [{ key: payload, kind: 'pattern', reason: payload, location: at(`file:///w/${payload}`, 2) }],
      limits: [payload],
      orderUnsure: payload,
      conditional: [payload],
      unknownRoutes: [payload],
    };
    const html = testUrlHtml({ method: 'GET', url: payload, routeFile: `file:///w/${payload}`, result: hostile, nonce: 'n' });
    assert.doesNotMatch(html, /<script|<a href="command:workbench/i);
    assert.doesNotMatch(html, /\u202E/, 'bidirectional controls are made visible');
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.ok(href!.startsWith(`command:${OPEN_LOCATION_COMMAND}?`), href);
    assert.ok(seen(html).includes('"><script>alert(1)</script>'), 'the payload is shown as text');
    assert.ok(seen(html).includes('\\u{202E}'), 'as an escape');
  });

  it('says what ends the request: an error, the 404 page, what is not known', () => {
    const error = seen(testUrlHtml({ method: 'POST', url: 'x', routeFile: ROUTES, result: { request_method: 'POST', uri: 'x', error: 'TypeError: boom (line 3)' }, nonce: 'n' }));
    assert.match(error, /The request ends in an error: TypeError: boom \(line 3\)/);
    assert.doesNotMatch(error, /Why the other routes/, 'no route was tried');
    const refused = seen(testUrlHtml({ method: 'GET', url: 'a@b', routeFile: ROUTES, result: { request_method: 'GET', uri: 'a@b', error: 'show_error(400): The URI you submitted has disallowed characters.', uri_refused: { segment: 'a@b', why: "the segment 'a@b' holds a character <b>'a-z'</b> does not permit" } }, nonce: 'n' }));
    assert.match(refused, /disallowed characters\. \(why: the segment 'a@b' holds a character <b>'a-z'<\/b> does not permit\)/, 'said why, as text');
    const notFound = seen(testUrlHtml({ method: 'GET', url: 'nope', routeFile: ROUTES, result: { flavour: 'ci', main_matched_key: null, controller: { found: false, reason: 'no controller serves it: the 404 page', tried: [] }, error: null, tried: 9, notMatched: [] }, nonce: 'n' }));
    assert.match(notFound, /No controller: no controller serves it: the 404 page/);
    assert.match(notFound, /tried 9 routes of the main table and none matched/);
    assert.match(notFound, /No other route comes close/);
  });
});
