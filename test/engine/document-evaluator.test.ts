import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile, type EvaluateOptions } from '../../shared/evaluate/evaluate-file';
import { evaluationTrace } from '../helpers/evaluation-trace';
import { CONFORMANCE, EXAMPLE_APP } from '../helpers/paths';
import { seededRandom } from '../helpers/random';

type Edit = (text: string, rnd: () => number) => string;

/** Statement-sized pieces of a route file, to duplicate, move and insert. */
function lines(text: string): string[] {
  return text.split('\n');
}

const EDITS: Record<string, Edit> = {
  'type a character': (t, r) => {
    const at = Math.floor(r() * t.length);
    return t.slice(0, at) + 'azy/_(\'";{'.charAt(Math.floor(r() * 10)) + t.slice(at);
  },
  'delete a range': (t, r) => {
    const at = Math.floor(r() * t.length);
    return t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 12));
  },
  'duplicate a line': (t, r) => {
    const ls = lines(t);
    const i = Math.floor(r() * ls.length);
    ls.splice(i, 0, ls[i]);
    return ls.join('\n');
  },
  'swap two lines': (t, r) => {
    const ls = lines(t);
    const i = Math.floor(r() * ls.length);
    const j = Math.floor(r() * ls.length);
    [ls[i], ls[j]] = [ls[j], ls[i]];
    return ls.join('\n');
  },
  'insert a declaration at the top': (t) => t.replace('<?php', "<?php\nRoute::get('top', 'home/top', ['as' => 'top']);"),
  'remove the first declaration': (t) => t.replace(/Route::\w+\([^;]*\);/, ''),
  'reset before map': (t) => t.replace('$route = Route::map', 'Route::reset();\n$route = Route::map'),
};

function check(source: string, options: EvaluateOptions, seed: number, steps: number): { replayed: number } {
  const rnd = seededRandom(seed);
  const doc = new DocumentEvaluator(options);
  let text = source;
  let replayed = 0;
  const names = Object.keys(EDITS);
  for (let step = 0; step <= steps; step++) {
    const name = step === 0 ? 'open' : names[Math.floor(rnd() * names.length)];
    if (step > 0) text = EDITS[name](text, rnd);
    const incremental = doc.update(text);
    replayed += incremental.statements.replayed;
    assert.deepEqual(evaluationTrace(incremental), evaluationTrace(evaluateRouteFile(text, options)), `after edit ${step} (${name}) of seed ${seed}:\n${text}`);
  }
  return { replayed };
}

describe('DocumentEvaluator: an edited document evaluates as a fresh one', () => {
  const cases = fs.readdirSync(path.join(CONFORMANCE, 'cases')).filter((f) => f.endsWith('.php'));
  for (const file of cases) {
    it(`${file}: 25 random edits, each equal to a fresh evaluation`, () => {
      const source = fs.readFileSync(path.join(CONFORMANCE, 'cases', file), 'utf8');
      for (const dialect of ['spec', 'bonfire'] as const) check(source, { dialect }, 7 + file.length, 25);
    });
  }

  it('the example app: replays unchanged declarations and still equals a fresh evaluation', () => {
    const source = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), 'utf8');
    const { replayed } = check(source, { constants: new Map([['SITE_AREA', 'admin']]) }, 42, 40);
    assert.ok(replayed > 100, `only ${replayed} statements were replayed: the incremental path is not taken`);
  });

  it('moves replayed spans with their statement and keeps identical statements apart', () => {
    const decl = "Route::get('a', 'home/a', ['as' => 'a']);\n";
    const doc = new DocumentEvaluator();
    doc.update(`<?php\n${decl}${decl}$route = Route::map($route);\n`);
    const text = `<?php\n// moved\n${decl}${decl}$route = Route::map($route);\n`;
    const e = doc.update(text);
    assert.equal(e.statements.replayed, 2);
    const [first, second] = e.methods[0].library.created;
    assert.notEqual(first, second);
    assert.equal(text.slice(first.site.span.start, first.site.span.end), decl.trim());
    assert.equal(first.replacedBy, second);
    assert.equal(second.replacedBy, undefined);
    assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)));
  });

  it('forgets recorded effects when the dialect changes', () => {
    const text = "<?php\nRoute::context('admin', ['home' => 'dash']);\n$route = Route::map($route);\n";
    const doc = new DocumentEvaluator({ dialect: 'spec' });
    doc.update(text);
    doc.configure({ dialect: 'bonfire' });
    assert.deepEqual(evaluationTrace(doc.update(text)), evaluationTrace(evaluateRouteFile(text, { dialect: 'bonfire' })));
  });
});
