import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { CONFORMANCE, EXAMPLE_APP } from '../helpers/paths';
import { MODEL_FIELDS, differences } from '../router/hmvc-app';

const HMVC = path.join(CONFORMANCE, 'hmvc');
const cases = fs.readdirSync(path.join(HMVC, 'cases')).sort();

describe('HMVC conformance through the CLI (ci-routes match --router R --json)', () => {
  for (const name of cases) {
    const dir = path.join(HMVC, 'cases', name);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as { flavours: string[]; methods: string[]; uris: string[] };
    for (const flavour of spec.flavours) {
      for (const method of spec.methods) {
        it(`${name} ${flavour} ${method}`, () => {
          const expected = JSON.parse(fs.readFileSync(path.join(HMVC, 'expected', `${name}.${flavour}.${method}.json`), 'utf8')) as { results: Record<string, unknown>[] };
          const r = cli(['match', path.join(dir, 'application', 'config', 'routes.php'), '--router', flavour, '--method', method, '--json', '--', ...spec.uris]);
          assert.equal(r.code, 0, r.stderr);
          const out = JSON.parse(r.stdout) as { router: string; results: Record<string, unknown>[] };
          assert.equal(out.router, flavour);
          assert.deepStrictEqual(out.results.map((x) => x.uri), spec.uris);
          const byUri = new Map(out.results.map((x) => [x.uri, x]));
          const diffs = differences(expected.results, (uri) => byUri.get(uri) ?? {}, MODEL_FIELDS);
          if (diffs.length > 0) assert.fail(diffs.join('\n'));
        });
      }
    }
  }

  it('says which router it used and why', () => {
    const file = path.join(HMVC, 'cases', '01-module-relative', 'application', 'config', 'routes.php');
    const given = JSON.parse(cli(['match', file, '--router', 'bonfire', '--method', 'GET', '--json', 'blog']).stdout);
    assert.deepStrictEqual([given.router, given.router_source], ['bonfire', 'given']);
    // The case holds no router files: CodeIgniter's own router reads no module routes.
    const detected = JSON.parse(cli(['match', file, '--method', 'GET', '--json', 'blog']).stdout);
    assert.equal(detected.router, 'ci');
    assert.match(detected.router_source, /^default/);
    assert.equal(detected.results[0].module_route, null);
    assert.equal(cli(['match', file, '--router', 'hmvc', '--method', 'GET', 'blog']).code, 2);
  });

  it("routes the example app's blog/archive/2020 through the blog module's routes.php to Posts::archive()", () => {
    const r = cli(['match', path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), '--method', 'GET', 'blog/archive/2020']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /router mx \(detected from \S*application\/core\/MY_Router\.php\)/);
    assert.match(r.stdout, /^ {2}main route +none matches/m);
    assert.match(r.stdout, /^ {2}module route +blog\/archive\/\(:num\) => posts\/archive\/\$1 +\S*application\/modules\/blog\/config\/routes\.php:9$/m);
    assert.match(r.stdout, /^ {2}controller +Posts::archive\(2020\) +\S*application\/modules\/blog\/controllers\/Posts\.php$/m);
    const json = JSON.parse(cli(['match', path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), '--method', 'GET', '--json', 'articles/12']).stdout);
    // The fields earlier versions gave, from the new answer.
    assert.equal(json.results[0].matched_key, 'articles/(:num)');
    assert.deepStrictEqual(json.results[0].target_segments, ['blog', 'posts', 'show', '12']);
    assert.deepStrictEqual(json.results[0].controller.target, { file: 'modules/blog/controllers/Posts.php', module: 'blog', class: 'posts', method: 'show', args: ['12'] });
    assert.match(json.results[0].declared_at, /application\/config\/routes\.php:31$/);
  });
});
