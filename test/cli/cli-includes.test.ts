import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { ROOT } from '../helpers/paths';

/**
 * Small applications whose routes.php includes other files (test/fixtures/includes/<app>/):
 * `ci-routes list --json` must give the routes in PHP's array order, each declared at its own
 * file and line, and one warning per include that could not be evaluated. main-app's table was
 * checked against PHP 8.2 running the files.
 */
const APPS = path.join(ROOT, 'test', 'fixtures', 'includes');

interface Expected {
  code: number;
  /** [uri, target, declared at (relative to the app's folder)] in `$route`'s order. */
  routes: [string, string, string][];
  /** Each warning's place (relative to the app's folder) and a part of its message. */
  warnings: [string, string][];
}

function relative(app: string, place: string): string {
  return path.relative(path.join(APPS, app), path.resolve(ROOT, place));
}

describe('include and require in route files (ci-routes list)', () => {
  for (const app of fs.readdirSync(APPS).filter((d) => fs.existsSync(path.join(APPS, d, 'expected.json')))) {
    it(app, () => {
      const expected = JSON.parse(fs.readFileSync(path.join(APPS, app, 'expected.json'), 'utf8')) as Expected;
      const routesFile = path.relative(ROOT, path.join(APPS, app, 'application', 'config', 'routes.php'));
      const r = cli(['list', routesFile, '--json']);
      const out = JSON.parse(r.stdout) as { routes: { uri: string; target: string; declared_at: string; reserved: boolean }[] };
      const placeOf = (d: string) => {
        const colon = d.lastIndexOf(':');
        return `${relative(app, d.slice(0, colon))}:${d.slice(colon + 1)}`;
      };
      assert.deepStrictEqual(out.routes.filter((x) => !x.reserved).map((x) => [x.uri, x.target, placeOf(x.declared_at)]), expected.routes);
      const warnings = r.stderr.split('\n').filter(Boolean).map((line) => {
        const m = /^ci-routes: warning: (\S+:\d+): (.*)$/.exec(line);
        assert.ok(m, line);
        return [placeOf(m[1]), m[2]] as const;
      });
      assert.equal(warnings.length, expected.warnings.length, r.stderr);
      warnings.forEach(([place, message], i) => {
        assert.equal(place, expected.warnings[i][0]);
        assert.ok(message.includes(expected.warnings[i][1]), `${message} should say ${expected.warnings[i][1]}`);
      });
      assert.equal(r.code, expected.code);
    });
  }

  it('prints the included routes with their own file and line', () => {
    const r = cli(['list', 'test/fixtures/includes/main-app/application/config/routes.php']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ANY +admin +admin\/dashboard +test\/fixtures\/includes\/main-app\/application\/config\/routes\/admin\.php:3$/m);
    assert.match(r.stdout, /^ANY +blog\/\(:any\) +blog\/show\/\$1 +test\/fixtures\/includes\/main-app\/application\/config\/routes\/parts\/b-blog\.php:2$/m);
    assert.match(r.stdout, /^9 routes$/m);
  });
});
