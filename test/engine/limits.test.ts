import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { ALL_METHODS } from '../../shared/runtime/methods';
import { Interpreter } from '../../shared/evaluate/interpreter';
import { StatementParser } from '../../shared/php/parse';
import { evaluationTrace } from '../helpers/evaluation-trace';

const routes = (n: number) => Array.from({ length: n }, (_, i) => `Route::get('r${i}', 'c/m${i}');`).join('\n');

describe('evaluation limits', () => {
  it('stops at maxRoutes with an evaluation-limit diagnostic naming the setting; earlier routes are kept', () => {
    const text = `<?php\n${routes(10)}\n$route = Route::map($route);\n`;
    const e = evaluateRouteFile(text, { maxRoutes: 4 });
    assert.deepEqual([...(e.methods[0].library.routes.keys() ?? [])], ['r0', 'r1', 'r2', 'r3']);
    const limit = analyzeRouteFile(text, e).find((f) => f.code === 'evaluation-limit');
    assert.ok(limit, 'a diagnostic says evaluation stopped');
    assert.match(limit.message, /more than 4 routes declared under one request method \(ciRoutes\.maxRoutes\)/);
    assert.equal(text.slice(limit.span.start, limit.span.end), "Route::get('r4', 'c/m4');");
  });

  it('a replayed evaluation stops at the same route as a fresh one', () => {
    const text = `<?php\n${routes(10)}\n$route = Route::map($route);\n`;
    const doc = new DocumentEvaluator({ maxRoutes: 100 });
    doc.update(text);
    doc.configure({ maxRoutes: 6 });
    assert.deepEqual(evaluationTrace(doc.update(text)), evaluationTrace(evaluateRouteFile(text, { maxRoutes: 6 })));
    // Same limit, records recorded under it: still equal once more declarations come before.
    const more = text.replace('<?php\n', "<?php\nRoute::get('x', 'c/x');\n");
    assert.deepEqual(evaluationTrace(doc.update(more)), evaluationTrace(evaluateRouteFile(more, { maxRoutes: 6 })));
  });

  it('skips a statement with a syntax error after a few thousand steps, and goes on with the file', () => {
    // php-parser recovers `{ $x = 1 }` (no semicolon) into an endless loop that PHP would never run.
    const text = "<?php\nRoute::get('before', 'c/m');\nwhile (true) { $x = 1 }\nRoute::get('after', 'c/m');\n$route = Route::map($route);\n";
    const e = evaluateRouteFile(text);
    assert.ok(e.parsed.problems.length > 0, 'the loop has a syntax error');
    assert.ok(e.steps < 10_000, `took ${e.steps} steps`);
    assert.deepEqual([...(e.methods[0].library.routes.keys() ?? [])], ['before', 'after']);
    const skipped = e.problems.find((p) => /runs over 2,000 steps: it was skipped/.test(p.message));
    assert.ok(skipped, JSON.stringify(e.problems));
    assert.equal(text.slice(skipped.span.start, skipped.span.end), 'while (true) { $x = 1 }');
    // Without a syntax error the same loop is a real one: it takes the whole budget and stops the file.
    const valid = evaluateRouteFile(text.replace('$x = 1 }', '$x = 1; }'), { maxSteps: 20_000 });
    assert.ok(valid.steps > 20_000);
    assert.deepEqual([...(valid.methods[0].library.routes.keys() ?? [])], ['before']);
  });

  it('stops an endless loop at maxSteps with a diagnostic', () => {
    const text = "<?php\nwhile (true) { $i = 1; }\nRoute::get('after', 'c/m');\n";
    const e = evaluateRouteFile(text, { maxSteps: 5_000 });
    const limit = analyzeRouteFile(text, e).find((f) => f.code === 'evaluation-limit');
    assert.ok(limit);
    assert.match(limit.message, /5,000 steps/);
  });

  it('a loop reports each problem once, not once per iteration (the interpreter keeps one, before any merging)', () => {
    const text = "<?php\nfor ($i = 0; $i < 3000; $i++) { if ($_GET[$i]) { $x = 1; } $route[$_GET[$i]] = 1; }\n";
    const interpreter = new Interpreter(new StatementParser().parse(text), { dialect: 'spec', constants: new Map(), maxSteps: 1_000_000, file: 'routes.php', mask: ALL_METHODS });
    const messages = interpreter.run().problems.map((p) => `${p.span.start}: ${p.message}`);
    assert.equal(messages.length, 2, messages.slice(0, 3).join('\n'));
    assert.equal(new Set(messages).size, 2);
  });

  it('$a[...] = $route = Route::map($route) stores a copy, not the array inside itself', () => {
    const text = "<?php\nRoute::any('a', 'b/c');\n$route['lookup/missing'] = $route = Route::map($route);\n";
    const routes = evaluateRouteFile(text).methods[0].routes;
    const inner = routes?.get('lookup/missing');
    assert.ok(inner && inner !== routes, 'the element is a copy');
    assert.doesNotThrow(() => JSON.stringify(analyzeRouteFile(text, evaluateRouteFile(text))));
  });

  it('a loop re-running one assignment is not a duplicate of itself, and keeps no chain as long as the loop', () => {
    const text = "<?php\nfor ($i = 0; $i < 5000; $i++) { $route['x'] = 'y'; }\n$route['x'] = 'z';\n";
    const e = evaluateRouteFile(text);
    const dups = analyzeRouteFile(text, e).filter((f) => f.code === 'duplicate-route');
    assert.equal(dups.length, 1, 'only the later, different assignment replaces the loop one');
    let chain = 0;
    for (let o = e.methods[0].routes?.originOf('x') as { replaced?: unknown } | undefined; o; o = o.replaced as typeof o) chain++;
    assert.equal(chain, 2);
  });
});
