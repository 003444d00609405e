import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { servedProject } from '../helpers/served-project';
import { cli } from '../helpers/cli';

const ROUTES = "<?php\n$route['default_controller'] = 'tags';\n$route['tags/(:any)'] = 'tags/show/$1';\n";

/** The URL tester reads a typed URL as `ci-routes match` does, as CodeIgniter reads REQUEST_URI. */
describe('language server: the URL tester reads a typed URL as ci-routes match does', function () {
  this.timeout(60_000);
  const project = servedProject('ci-routes-test-url-', {
    'application/config/routes.php': ROUTES,
    'application/config/config.php': "<?php\n$config['url_suffix'] = '.html';\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-';\n",
    'application/controllers/Tags.php': '<?php class Tags extends CI_Controller { public function index() {} public function show($t) {} }\n',
  });

  it("cuts config.php's url_suffix and keeps percent-escapes (CI_URI routes REQUEST_URI undecoded)", async () => {
    const { client, dir } = project;
    const uri = await project.open('application/config/routes.php');
    const file = path.join(dir, 'application', 'config', 'routes.php');
    const tested = (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url: '/tags/a%20b.html' })) as { matched_key: string | null; target_segments: string[] | null };
    assert.equal(tested.matched_key, 'tags/(:any)');
    assert.deepEqual(tested.target_segments, ['tags', 'show', 'a%20b']);
    // The same answer from the command line.
    const matched = cli(['match', file, '--json', '/tags/a%20b.html']);
    const json = JSON.parse(matched.stdout) as { results: { matched_key: string | null; target_segments: string[] | null }[] };
    assert.equal(json.results[0].matched_key, tested.matched_key);
    assert.deepEqual(json.results[0].target_segments, tested.target_segments);
  });
});

describe("language server: the URL tester filters URIs with the application's permitted_uri_chars", function () {
  this.timeout(60_000);
  const project = servedProject('ci-routes-test-url-chars-', {
    'application/config/routes.php': ROUTES,
    'application/config/config.php': "<?php\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-+';\n",
    'application/controllers/Tags.php': '<?php class Tags extends CI_Controller { public function index() {} public function show($t) {} }\n',
  });

  it("routes a URI with a '+' it permits, and refuses one with a '@' it does not", async () => {
    const uri = await project.open('application/config/routes.php');
    const test = async (url: string) =>
      (await project.client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url })) as { matched_key: string | null; target_segments: string[] | null; error: string | null; uri_refused?: { segment: string; why: string } };
    const plus = await test('/tags/a+b');
    assert.equal(plus.matched_key, 'tags/(:any)');
    assert.deepEqual(plus.target_segments, ['tags', 'show', 'a+b']);
    const at = await test('/tags/a@b');
    assert.equal(at.matched_key, null);
    assert.match(at.error ?? '', /disallowed characters/);
    // And why: the answer names the segment and the application's setting.
    assert.deepEqual(at.uri_refused, { segment: 'a@b', why: "the segment 'a@b' holds a character config/config.php's permitted_uri_chars 'a-z 0-9~%.:_\\-+' does not permit" });
    assert.equal(plus.uri_refused, undefined);
  });
});
