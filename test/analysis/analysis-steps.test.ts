import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeRouteFile, analyzeRouteFileSteps, type AnalyzeOptions } from '../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { catalogFor } from '../helpers/fixture-app';
import { ROOT } from '../helpers/paths';
import { formatFindings } from './fixture-format';

/**
 * The server runs analyses in slices and drops one when an edit comes (analyzeRouteFileSteps).
 * Whatever pause it is dropped at, the next analysis of the document must equal a fresh one: the
 * checks may keep only what they finished deciding.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'diagnostics');

function pausesOf(text: string, evaluation: FileEvaluation, options: AnalyzeOptions): number {
  const steps = analyzeRouteFileSteps(text, evaluation, options);
  let n = 0;
  while (!steps.next().done) n++;
  return n;
}

function dropAfter(text: string, evaluation: FileEvaluation, options: AnalyzeOptions, pauses: number): void {
  const steps = analyzeRouteFileSteps(text, evaluation, options);
  for (let i = 0; i < pauses && !steps.next().done; i++);
  steps.return(undefined as never);
}

/** The file with one more route in the middle: an edit that moves every later entry. */
function withInsertedRoute(text: string): string {
  const lines = text.split('\n');
  const at = Math.max(1, Math.floor(lines.length / 2));
  return [...lines.slice(0, at), "Route::get('steps-inserted/(:num)', 'steps/inserted/$1');", ...lines.slice(at)].join('\n');
}

describe('analysis in slices: dropped at any pause, the next analysis equals a fresh one', () => {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.php')).sort();
  for (const f of files) {
    it(f, () => {
      const phpFile = path.join(FIXTURES, f);
      const original = fs.readFileSync(phpFile, 'utf8');
      const edited = withInsertedRoute(original);
      const options: AnalyzeOptions = { controllers: catalogFor(phpFile) };
      const fresh = (text: string) => formatFindings(text, analyzeRouteFile(text, evaluateRouteFile(text), options));
      const expected = { original: fresh(original), edited: fresh(edited) };
      const pauses = Math.max(pausesOf(original, evaluateRouteFile(original), options), pausesOf(edited, evaluateRouteFile(edited), options));
      assert.ok(pauses > 0, 'an analysis pauses at least between checks');
      for (let k = 0; k <= pauses; k++) {
        const document = new DocumentEvaluator();
        analyzeRouteFile(original, document.update(original), options);
        // Dropped, then finished for the same version.
        const second = document.update(edited);
        dropAfter(edited, second, options, k);
        assert.equal(formatFindings(edited, analyzeRouteFile(edited, second, options)), expected.edited, `edited version, dropped at pause ${k}`);
        // Dropped, and the next version analysed instead.
        dropAfter(original, document.update(original), options, k);
        const fourth = document.update(edited);
        assert.equal(formatFindings(edited, analyzeRouteFile(edited, fourth, options)), expected.edited, `next version after a drop at pause ${k}`);
        dropAfter(original, document.update(original), options, k);
        assert.equal(formatFindings(original, analyzeRouteFile(original, document.update(original), options)), expected.original, `original again, dropped at pause ${k}`);
      }
    });
  }
});
