import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { keyToString, PhpArray } from '../../shared/runtime/values';
import { ROOT } from '../helpers/paths';

/**
 * Route files of PHP corners (bytes, printf, integer keys, builtins), each beside the `$route`
 * php-cli 8.2 made of it (`php -r "include 'f.php'; echo json_encode($route, JSON_PRETTY_PRINT |
 * JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);"`): the evaluator must give the same strings.
 */
const DIR = path.join(ROOT, 'test', 'fixtures', 'php-differential');

describe('PHP corners, against what php-cli 8.2 printed', () => {
  for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith('.php')).sort()) {
    it(file, () => {
      const expected = JSON.parse(fs.readFileSync(path.join(DIR, file.replace(/\.php$/, '.expected.json')), 'utf8')) as Record<string, string>;
      const ev = evaluateRouteFile(fs.readFileSync(path.join(DIR, file), 'utf8'));
      const routes = ev.methods[0].routes;
      assert.ok(routes instanceof PhpArray, 'the file makes $route');
      const actual: Record<string, unknown> = {};
      for (const [k, v] of routes.entries()) actual[keyToString(k)] = v;
      assert.deepEqual(actual, expected);
    });
  }
});

/**
 * `errors.txt`: PHP expressions, each with what php-cli 8.2 made of `$route['r'] = EXPR;` in a
 * file run alone: the uncaught error (class and message) or the value as JSON.
 */
describe('PHP errors and values of builtins and operators, against what php-cli 8.2 printed', () => {
  const lines = fs.readFileSync(path.join(DIR, 'errors.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const [expr, expected] = line.split(' => ');
    it(expr, () => {
      const result = evaluateRouteFile(`<?php\n$route['r'] = ${expr};\n`, { constantsComplete: true }).methods[0];
      const actual = result.error ? `${result.error.class}: ${result.error.message}` : JSON.stringify(jsonOf(result.routes?.get('r')));
      assert.equal(actual, expected);
    });
  }
});

function jsonOf(v: unknown): unknown {
  if (v instanceof PhpArray) return [...v.values()].map(jsonOf);
  return v;
}
