import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { keyToString } from '../../shared/runtime/values';
import { lowestAllowed, parsePhpVersion } from '../../shared/runtime/php-version';
import { outcomeToJson } from '../../shared/evaluate/outcome-json';

const PHP7 = { major: 7, minor: 4 };
const PHP8 = { major: 8, minor: 2 };

function outcome(text: string, phpVersion = PHP8, constantsComplete = true) {
  return outcomeToJson(evaluateRouteFile(`<?php\n${text}\n`, { phpVersion, constantsComplete }).methods[0]);
}

describe('phpVersion: the semantics PHP 7 and PHP 8 differ in', () => {
  it('implode() in the legacy order works on 7 and throws on 8', () => {
    assert.deepEqual(outcome("$route[implode(['a', 'b'], '/')] = 'x';", PHP7).routes, [['a/b', 'x']]);
    assert.deepEqual(outcome("$route[implode(['a', 'b'], '/')] = 'x';").error, { class: 'TypeError', message: 'implode(): Argument #2 ($array) must be of type ?array, string given' });
  });
  it('a wrong argument type: a warning and null on 7 (count(): 0 or 1), a TypeError on 8', () => {
    const seven = outcome("$route['a'] = 'x/' . count(null) . count('s');", PHP7);
    assert.deepEqual(seven.routes, [['a', 'x/01']]);
    assert.equal(seven.warnings[0], 'count(): Parameter must be an array or an object that implements Countable');
    assert.deepEqual(outcome("$route['a'] = count(null);").error, { class: 'TypeError', message: 'count(): Argument #1 ($value) must be of type Countable|array, null given' });
    assert.deepEqual(outcome("$route['a'] = in_array('x', 'abc') ? 'y' : 'n';", PHP7).routes, [['a', 'n']]);
  });
  it('an undefined constant: its name with a warning on 7, an Error on 8, unknown in an application', () => {
    const seven = outcome("$route['a'] = NOPE;", PHP7);
    assert.deepEqual(seven.routes, [['a', 'NOPE']]);
    assert.match(seven.warnings[0], /^Use of undefined constant NOPE - assumed 'NOPE'/);
    assert.deepEqual(outcome("$route['a'] = NOPE;").error, { class: 'Error', message: 'Undefined constant "NOPE"' });
    const inApp = evaluateRouteFile("<?php\n$route['a'] = NOPE;\n", { phpVersion: PHP8 }).methods[0].routes;
    assert.match(String((inApp?.get('a') as { reason?: string })?.reason), /constant NOPE is not defined in the routes file or config\/constants\.php/);
  });
  it('warnings are worded as each version words them', () => {
    assert.deepEqual(outcome("$route['a'] = $nope . $x['k'];", PHP7).warnings, ['Undefined variable: nope', 'Undefined variable: x', 'Trying to access array offset on value of type null']);
    assert.deepEqual(outcome("$x = []; $route['a'] = $x['k'] . $x[3];", PHP7).warnings, ['Undefined index: k', 'Undefined offset: 3']);
    assert.deepEqual(outcome("$x = []; $route['a'] = $x['k'] . $x[3];").warnings, ['Undefined array key "k"', 'Undefined array key 3']);
  });
  it('reads versions and composer.json constraints (the lowest version allowed)', () => {
    assert.deepEqual(parsePhpVersion('7.4'), PHP7);
    assert.deepEqual(parsePhpVersion('8'), { major: 8, minor: 0 });
    assert.equal(parsePhpVersion('latest'), undefined);
    assert.deepEqual(lowestAllowed('^7.2 || ^8.0'), { major: 7, minor: 2 });
    assert.deepEqual(lowestAllowed('>=5.6,<8'), { major: 5, minor: 6 });
    assert.deepEqual(lowestAllowed('~8.1.0'), { major: 8, minor: 1 });
    assert.deepEqual(lowestAllowed('7.4.*'), PHP7);
    assert.equal(lowestAllowed('*'), undefined);
    assert.ok([...(evaluateRouteFile("<?php\n$route['a'] = 'b';\n").methods[0].routes?.keys() ?? [])].map(keyToString).includes('a'));
  });
});

describe('writes to $_SERVER', () => {
  it("a write to REQUEST_METHOD stops the evaluation with a limit: which routes follow is not evaluated", () => {
    const ev = evaluateRouteFile("<?php\n$_SERVER['REQUEST_METHOD'] = 'POST';\nRoute::post('p', 'q/r');\n$route = Route::map($route);\n");
    assert.match(ev.problems.find((p) => p.code === 'evaluation-limit')?.message ?? '', /a write to \$_SERVER\['REQUEST_METHOD'\] changes the request method/);
  });
});
