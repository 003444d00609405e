import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../shared/analysis/diagnostics/core/types';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../shared/php/line-index';
import { catalogFor, codeIgniterFor, uriCharsFor } from '../helpers/fixture-app';
import { CONFORMANCE, ROOT } from '../helpers/paths';
import { formatFindings } from './fixture-format';

/**
 * Data-driven diagnostics: each route file sits next to a `.expected` file listing the
 * findings it yields. `UPDATE_FIXTURES=1 npm test` rewrites the expected files (review the diff).
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'diagnostics');
const update = process.env.UPDATE_FIXTURES === '1';

function check(phpFile: string, expectedFile: string, dialect: 'spec' | 'bonfire' = 'spec'): string {
  const text = fs.readFileSync(phpFile, 'utf8');
  const evaluation = evaluateRouteFile(text, { dialect, recover: true });
  const actual = formatFindings(text, analyzeRouteFile(text, evaluation, { controllers: catalogFor(phpFile), codeIgniter: codeIgniterFor(phpFile), uriCharsBeyond: uriCharsFor(phpFile) }));
  if (update || !fs.existsSync(expectedFile)) fs.writeFileSync(expectedFile, actual ? `${actual}\n` : '');
  const expected = fs.readFileSync(expectedFile, 'utf8').trimEnd();
  assert.equal(actual, expected, `findings of ${path.relative(ROOT, phpFile)} (UPDATE_FIXTURES=1 rewrites ${path.relative(ROOT, expectedFile)})`);
  return actual;
}

describe('diagnostics: fixtures (route file ↔ expected findings)', () => {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.php')).sort();
  const seenCodes = new Set<string>();
  for (const f of files) {
    it(f, () => {
      const phpFile = path.join(FIXTURES, f);
      const actual = check(phpFile, phpFile.replace(/\.php$/, '.expected'));
      for (const line of actual.split('\n')) if (line) seenCodes.add(line.split(/\s+/)[1]);
      // Negative cases: a line commented `// no <code>` must not get that code.
      const text = fs.readFileSync(phpFile, 'utf8');
      const lines = new LineIndex(text);
      text.split('\n').forEach((src, i) => {
        const m = /\/\/ no ([a-z-]+)/.exec(src);
        if (!m) return;
        const start = lines.lineStart(i);
        const bad = actual.split('\n').filter((l) => l.startsWith(`L${i + 1}:`) && l.split(/\s+/)[1] === m[1]);
        assert.deepStrictEqual(bad, [], `line ${i + 1} (offset ${start}) is marked "no ${m[1]}"`);
      });
    });
  }
  it('covers every diagnostic code with a positive and a negative fixture', () => {
    const texts = files.map((f) => fs.readFileSync(path.join(FIXTURES, f), 'utf8')).join('\n');
    const missing: string[] = [];
    for (const code of Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[]) {
      if (!seenCodes.has(code)) missing.push(`${code} (no positive)`);
      if (!texts.includes(`// no ${code}`)) missing.push(`${code} (no negative)`);
    }
    assert.deepStrictEqual(missing, []);
  });
});

describe('diagnostics: what a 404_override does to missing-controller', () => {
  const messages = (name: string) => {
    const phpFile = path.join(FIXTURES, `${name}.php`);
    const text = fs.readFileSync(phpFile, 'utf8');
    return analyzeRouteFile(text, evaluateRouteFile(text, { recover: true }), { controllers: catalogFor(phpFile) }).map((f) => f.message);
  };
  it("answers a missing controller with the 404_override a class loaded before dispatch serves, and says when PHP's own class takes it", () => {
    assert.deepEqual(messages('override-loaded-class'), [
      "'nowhere/index' dispatches to no controller: no controller file controllers/Nowhere.php. CodeIgniter answers 'gone' with its 404 handling, 404_override ('my_controller/error').",
    ]);
    assert.deepEqual(messages('override-php-class'), [
      "'error' names Error, one of PHP's own classes (since PHP 7.0): CodeIgniter's class_exists() finds it before looking for a controller file, and calls Error::index(), which PHP's class does not have: the requests 404_override should serve (its own 404 page) end in an Error. Name another controller.",
    ]);
  });
});

describe("diagnostics: an application's main routes without a default controller", () => {
  const unset = (text: string, mainFile = true) =>
    analyzeRouteFile(text, evaluateRouteFile(text, { recover: true }), { controllers: catalogFor(path.join(FIXTURES, 'override-php-class.php')), routing: { flavour: 'ci', mainFile } })
      .filter((f) => f.message.startsWith('The home page'))
      .map((f) => `${f.span.start}-${f.span.end} ${f.methods?.length}`);
  it("says the home page ends in CodeIgniter's error page, only for the main file, and only where the table is known", () => {
    assert.deepEqual(unset("<?php\n$route['about'] = 'pages';\n"), ['0-5 8']);
    assert.deepEqual(unset("<?php\n$route['default_controller'] = '';\n"), ['0-5 8']);
    assert.deepEqual(unset("<?php\n$route['default_controller'] = 'pages';\n"), []);
    assert.deepEqual(unset("<?php\n$route['about'] = 'pages';\n", false), [], 'not a main file: a module or a file alone');
    assert.deepEqual(unset("<?php\n$route[custom_home()] = 'pages';\n"), [], 'a key not known may be default_controller');
  });
});

describe('diagnostics: every conformance case (each finding a true one)', () => {
  const cases = fs.readdirSync(path.join(CONFORMANCE, 'cases')).filter((f) => f.endsWith('.php')).sort();
  for (const f of cases) {
    it(f, () => check(path.join(CONFORMANCE, 'cases', f), path.join(FIXTURES, 'conformance', f.replace(/\.php$/, '.expected'))));
  }
});
