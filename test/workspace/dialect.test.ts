import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { detectDialect, dialectOfLibrarySource, MAX_LIBRARY_BYTES } from '../../shared/app/dialect';
import { ROUTE_API } from '../../shared/library/route-api';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { DeadlineRunner } from '../helpers/deadline';
import { tempProject } from '../helpers/temp-project';

/** The library's other public static methods, as a Route.php declares them, besides `context()`. */
const methods = (names: readonly string[]) => names.map((n) => `  public static function ${n}() {}\n`).join('');
const OTHERS = Object.keys(ROUTE_API).filter((n) => n !== 'context');
const library = (home: string, names = OTHERS) =>
  `<?php\nclass Route {\n  public static function context($name, $options = array()) {\n    self::any($name, "${home}");\n  }\n${methods(names)}  private static function createRoute() {}\n}\n`;
const SPEC = library("{$name}/{$options['home']}");
const BONFIRE = library("{$options['home']}");

describe("dialect detection from the application's Route.php", () => {
  it("tells the two versions apart by context()'s home route", () => {
    assert.equal(dialectOfLibrarySource(SPEC), 'spec');
    assert.equal(dialectOfLibrarySource(BONFIRE), 'bonfire');
    assert.equal(dialectOfLibrarySource('<?php class Router {}'), undefined);
  });

  it('tells another Route class by a public static method the library does not have, not by one missing', () => {
    assert.equal(dialectOfLibrarySource(library("{$options['home']}", [...OTHERS, 'pattern'])), 'other');
    assert.equal(dialectOfLibrarySource(library("{$options['home']}", [...OTHERS.filter((n) => n !== 'prefix'), 'group'])), 'other');
    assert.equal(dialectOfLibrarySource(library("{$options['home']}", OTHERS.filter((n) => n !== 'reset'))), 'bonfire');
  });

  it("finds a Route.php deeper in third_party/, and evaluates none of another Route class's calls, where it reported the library's as undefined", () => {
    const other = library("{$options['home']}", [...OTHERS, 'pattern', 'match']);
    const root = tempProject('ci-routes-dialect-', {
      'application/third_party/routes/Route.php': other,
      'application/config/routes.php': "<?php\nRoute::pattern('id', '[0-9]+');\nRoute::get('user/{id}', 'users/show/$1');\n$route = Route::map($route);\n",
    });
    try {
      const detected = detectDialect(path.join(root, 'application'), diskProjectFiles());
      assert.equal(detected.dialect, 'other');
      assert.match(detected.source, /third_party\/routes\/Route\.php declares a Route class other than the Route library \(it defines pattern\(\), match\(\), which the library does not\)/);
      const file = path.join(root, 'application/config/routes.php');
      const text = fs.readFileSync(file, 'utf8');
      const evaluation = evaluateRouteFile(text, { file, dialect: 'other' });
      const findings = analyzeRouteFile(text, evaluation).map((f) => `${f.code}: ${f.message}`);
      assert.deepEqual(findings, ["dynamic-route: Not known statically: $route itself: Route::map() is not evaluated (the application's Route class is not the Route library)."]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads no library larger than its cap', () => {
    assert.equal(dialectOfLibrarySource(SPEC + ' '.repeat(MAX_LIBRARY_BYTES)), undefined);
  });

  // A backtracking engine spent minutes on text like this (the same pattern, 400 KB: cubic in the
  // text); RE2 is linear. The text is just under the cap, so it is scanned in full, in a worker
  // whose deadline catches a hang (a mocha timeout cannot interrupt synchronous work).
  it('scans crafted text just under the cap in one pass', async function () {
    this.timeout(60_000);
    const runner = new DeadlineRunner();
    try {
      assert.equal(await runner.run(require.resolve('./dialect-crafted'), 'dialectOfCraftedText', null, 50_000), 'none');
    } finally {
      runner.stop();
    }
  });
});
