import * as assert from 'node:assert/strict';
import { requestUriPath } from '../../shared/router/request-uri';
import { compileRouteKey } from '../../shared/router/pattern';
import { cli } from '../helpers/cli';
import * as path from 'node:path';
import { EXAMPLE_APP } from '../helpers/paths';

describe('the URI CodeIgniter routes for a typed URL (CI_URI::_parse_request_uri)', () => {
  it('drops the scheme, host, query and fragment, and the front controller', () => {
    assert.equal(requestUriPath('http://example.com/index.php/admin/users?page=2#top'), 'admin/users');
    assert.equal(requestUriPath('/index.php'), '');
    assert.equal(requestUriPath('/photos/12'), 'photos/12');
    assert.equal(requestUriPath('photos/12/'), 'photos/12');
    // Another front controller (a sub-folder install): its path, or its folder, comes off.
    assert.equal(requestUriPath('/shop/index.php/cart', '/shop/index.php'), 'cart');
    assert.equal(requestUriPath('/shop/cart', '/shop/index.php'), 'cart');
  });

  it('drops empty and `..` segments without resolving them, and keeps `0`', () => {
    assert.equal(requestUriPath('/a/../b'), 'a/b');
    assert.equal(requestUriPath('//a///b/'), 'a/b');
    assert.equal(requestUriPath('/page/0'), 'page/0');
  });

  it('finds the front controller of a site in a sub-folder by its index.php segment, and takes a URL without one whole', () => {
    assert.equal(requestUriPath('http://localhost/app/index.php/blog/12?x=1'), 'blog/12');
    assert.equal(requestUriPath('http://localhost/a/b/index.php'), '');
    assert.equal(requestUriPath('/app/index.php/blog/index.php/x'), 'blog/index.php/x');
    // Not a segment of its own: not the front controller.
    assert.equal(requestUriPath('/app/my-index.php/x'), 'app/my-index.php/x');
    assert.equal(requestUriPath('/app/index.phpx/y'), 'app/index.phpx/y');
    assert.equal(requestUriPath('http://localhost/app/blog/12'), 'app/blog/12');
  });

  it('takes the URI from a query string starting with / when the path leaves none (index.php?/blog/12)', () => {
    assert.equal(requestUriPath('http://localhost/index.php?/blog/12'), 'blog/12');
    assert.equal(requestUriPath('/index.php?/blog/12?page=2'), 'blog/12');
    assert.equal(requestUriPath('/?/about'), 'about');
    assert.equal(requestUriPath('/about?/contact'), 'about');
    assert.equal(requestUriPath('/index.php?page=2'), '');
  });

  it('cuts the URL suffix from the end of the URI, as CI_URI::_set_uri_string() does', () => {
    assert.equal(requestUriPath('http://example.com/blog/12.html?x=1', undefined, '.html'), 'blog/12');
    assert.equal(requestUriPath('/blog/12.html/', undefined, '.html'), 'blog/12');
    assert.equal(requestUriPath('/blog.html/12', undefined, '.html'), 'blog.html/12');
    assert.equal(requestUriPath('/blog/12.html'), 'blog/12.html');
    // The suffix cut, an empty last segment goes.
    assert.equal(requestUriPath('/blog/.html', undefined, '.html'), 'blog');
  });

  it('keeps percent-escapes (REQUEST_URI is routed undecoded), drops control characters and trims segments', () => {
    assert.equal(requestUriPath('/caf%C3%A9/a%20b'), 'caf%C3%A9/a%20b');
    assert.equal(requestUriPath('/a\u0001b/ c /\t/d'), 'ab/c/d');
  });

  it('is what `ci-routes match` routes', () => {
    const routes = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const r = cli(['match', routes, '--method', 'GET', '--json', '--', '/index.php/about', 'http://example.com/about/?x=1']);
    const out = JSON.parse(r.stdout) as { results: { uri: string; routed_uri?: string; main_matched_key: string }[] };
    assert.deepEqual(out.results.map((x) => [x.uri, x.routed_uri, x.main_matched_key]), [['/index.php/about', 'about', 'about'], ['http://example.com/about/?x=1', 'about', 'about']]);
  });
});

describe("the URI filter (CI_URI::_filter_uri(), permitted_uri_chars)", () => {
  it('routes a URI holding them as the reachability checks read it (the route after an ASCII class takes it)', () => {
    const r = cli(['match', 'test/fixtures/diagnostics/uri-bytes.php', 'tags/\u017f', 'tags/caf\u00e9']);
    assert.match(r.stdout, /GET \/tags\/\u017f\n {2}main route {3}tags\/\(:any\) {2}test\/fixtures\/diagnostics\/uri-bytes\.php:6\n/);
    assert.match(r.stdout, /GET \/tags\/caf\u00e9\n.*show_error\(400\): The URI you submitted has disallowed characters\./);
    // Said why, under the error.
    assert.match(r.stdout, /\n {2}why {10}the segment 'caf\u00e9' holds a character CodeIgniter's default config\.php's permitted_uri_chars 'a-z 0-9~%\.:_\\-' does not permit\n/);
  });
});

describe('route keys matched on bytes, as preg_match() without `u` matches them', () => {
  it('takes a non-ASCII character as its UTF-8 bytes: `.` is one byte, a back-reference copies bytes', () => {
    assert.equal(compileRouteKey('kelvin/(.)').match('kelvin/\u212a'), null, 'the Kelvin sign is three bytes');
    assert.deepEqual(compileRouteKey('kelvin/(...)').match('kelvin/\u212a'), ['kelvin/\u212a', '\u212a']);
    assert.equal(compileRouteKey('kelvin/(...)').replace('kelvin/\u212a', 'units/$1'), 'units/\u212a');
    assert.deepEqual(compileRouteKey('caf\u00e9/(:any)').match('caf\u00e9/\u017f'), ['caf\u00e9/\u017f', '\u017f']);
    assert.equal(compileRouteKey('a/[\u017f]').match('a/\u017f'), null, 'a class of its two bytes matches one of them');
    assert.equal(compileRouteKey('photos/(:num)').replace('photos/12', 'photos/show/$1'), 'photos/show/12');
  });
});
