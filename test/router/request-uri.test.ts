import * as assert from 'node:assert/strict';
import { requestUriPath } from '../../shared/router/request-uri';
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

  it('is what `ci-routes match` routes', () => {
    const routes = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const r = cli(['match', routes, '--method', 'GET', '--json', '--', '/index.php/about', 'http://example.com/about/?x=1']);
    const out = JSON.parse(r.stdout) as { results: { uri: string; routed_uri?: string; main_matched_key: string }[] };
    assert.deepEqual(out.results.map((x) => [x.uri, x.routed_uri, x.main_matched_key]), [['/index.php/about', 'about', 'about'], ['http://example.com/about/?x=1', 'about', 'about']]);
  });
});
