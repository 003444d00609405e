import * as fc from 'fast-check';
import { analyzeRouteFile, analyzeRouteFileSteps } from '../../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../../shared/evaluate/document-evaluator';
import { CHECKPOINTS_EVERYWHERE } from '../../helpers/checkpoints';
import { evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../../shared/runtime/methods';
import { StatementParser } from '../../../shared/php/parse';
import { evaluationSnapshot, snapshotDifference, type EvaluationSnapshot } from '../../helpers/evaluation-snapshot';
import { spanViolations } from '../../helpers/span-invariants';
import { FRAGMENTS, LOOPS, applyEdit, edit, sourceFiles } from './edits';

/**
 * The engine's invariants as fast-check properties. They run in a worker under a deadline (see
 * test/helpers/deadline.ts), so each returns plain data and throws fast-check's report (with the
 * seed and the shrunk counterexample) on failure.
 */

export interface PropertyRun {
  seed: number;
  numRuns: number;
}

/** Small enough that a loop an edit creates costs milliseconds, large enough for every source file. */
const EDIT_MAX_STEPS = 50_000;

/** The invariants one version of an edited document keeps; throws a readable message otherwise. */
function checkVersion(text: string, how: string, evaluation: FileEvaluation, fresh: EvaluationSnapshot): void {
  const findings = analyzeRouteFile(text, evaluation);
  const bad = spanViolations(text, evaluation, findings);
  if (bad.length > 0) throw new Error(`${how}: spans outside the document:\n${bad.join('\n')}`);
  const difference = snapshotDifference(evaluationSnapshot(text, evaluation, findings), fresh);
  if (difference) throw new Error(`${how} differs from a fresh evaluation: ${difference}`);
}

/** Runs an analysis for `steps` pauses and drops it, as the server does when an edit interrupts one. */
function abandonAnalysis(text: string, evaluation: FileEvaluation, steps: number): void {
  const analysis = analyzeRouteFileSteps(text, evaluation);
  for (let i = 0; i < steps && !analysis.next().done; i++);
  analysis.return(undefined as never);
}

/**
 * (a) evaluation and analysis never throw, (b) every span lies inside the document, and (c) the
 * incremental paths equal a fresh evaluation of the same text: one StatementParser reused across
 * the whole edit sequence (its per-statement parse cache), and a DocumentEvaluator (the editor's
 * path: parse cache, resuming from a checkpoint above each edit, replay of unchanged
 * declarations), whose versions' analyses are
 * sometimes stopped part way first (the checks' memos keep what they had decided).
 */
export function editSequences({ seed, numRuns }: PropertyRun): { versions: number } {
  const sources = sourceFiles();
  // Recovering past fatal errors, as editors evaluate (the CLI's runs stop like PHP, fresh each time).
  const options = { maxSteps: EDIT_MAX_STEPS, recover: true };
  let versions = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: sources.length - 1 }), fc.array(fc.tuple(edit, fc.option(fc.nat(80))), { minLength: 1, maxLength: 8 }), (source, edits) => {
      const parser = new StatementParser();
      const document = new DocumentEvaluator(options, CHECKPOINTS_EVERYWHERE);
      const history = [sources[source].text];
      evaluateRouteFile(history[0], { ...options, parser });
      document.update(history[0]);
      for (const [e, stopAfter] of edits) {
        const text = applyEdit(history, e);
        history.push(text);
        versions++;
        const fresh = evaluationSnapshot(text, evaluateRouteFile(text, options));
        checkVersion(text, 'a reused StatementParser', evaluateRouteFile(text, { ...options, parser }), fresh);
        const evaluation = document.update(text);
        if (stopAfter !== null) abandonAnalysis(text, evaluation, stopAfter);
        checkVersion(text, `DocumentEvaluator.update()${stopAfter === null ? '' : `, after an analysis stopped at pause ${stopAfter}`}`, evaluation, fresh);
      }
    }),
    { seed, numRuns },
  );
  return { versions };
}

/** The budget the termination properties give: evaluation must stop there and say so. */
const TERMINATION_MAX_STEPS = 20_000;

/** Arbitrary text of several kinds; half of it after `<?php` (without it, text is inline HTML). */
function arbitraryText(kind: string): fc.Arbitrary<string> {
  const body = ((): fc.Arbitrary<string> => {
    switch (kind) {
      case 'ascii':
        return fc.string({ maxLength: 300 });
      case 'unicode':
        return fc.string({ unit: 'binary', maxLength: 300 });
      case 'latin1':
        return fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('latin1'));
      case 'utf8':
        return fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('utf8'));
      case 'tokens':
        return fc.array(fc.constantFrom(...FRAGMENTS, ...LOOPS), { maxLength: 60 }).map((t) => t.join(' '));
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  })();
  return fc.tuple(fc.boolean(), body).map(([php, b]) => (php ? `<?php ${b}` : b));
}

/**
 * (d) Evaluating any text terminates within the step budget: it returns, the steps it took are
 * bounded by the budget (once per request method at most, when the methods are evaluated
 * alone), and running out of budget is reported as an evaluation-limit diagnostic.
 */
export function arbitraryTextTerminates({ seed, numRuns, kind }: PropertyRun & { kind: string }): { limited: number } {
  let limited = 0;
  fc.assert(
    fc.property(arbitraryText(kind), (text) => {
      const evaluation = evaluateRouteFile(text, { maxSteps: TERMINATION_MAX_STEPS });
      const findings = analyzeRouteFile(text, evaluation);
      const maxTotal = REQUEST_METHODS.length * (TERMINATION_MAX_STEPS + 1);
      if (evaluation.steps > maxTotal) throw new Error(`${evaluation.steps} steps with a budget of ${TERMINATION_MAX_STEPS} per pass`);
      const exhausted = evaluation.mode === 'together' ? evaluation.steps > TERMINATION_MAX_STEPS : evaluation.steps >= maxTotal;
      const reported = findings.some((f) => f.code === 'evaluation-limit');
      if (exhausted && !reported) throw new Error(`the step budget ran out (${evaluation.steps} steps) and no evaluation-limit diagnostic says so`);
      if (evaluation.problems.some((p) => p.code === 'evaluation-limit') && !reported) throw new Error('an evaluation limit was hit and no diagnostic says so');
      if (reported) limited++;
      const bad = spanViolations(text, evaluation, findings);
      if (bad.length > 0) throw new Error(`spans outside the document:\n${bad.join('\n')}`);
    }),
    { seed, numRuns },
  );
  return { limited };
}
