import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import type { Finding } from '../../shared/analysis/diagnostics/core/types';
import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { outcomeToJson, type OutcomeJson } from '../../shared/evaluate/outcome-json';

/**
 * What a user sees of an evaluation, as plain JSON: the routes of every request method in the
 * conformance form, the evaluation's problems and the diagnostics. Two evaluations of the same
 * text must give equal snapshots however they were computed (fresh, or reusing caches from
 * earlier versions of the document).
 */
export interface EvaluationSnapshot {
  methods: Record<string, OutcomeJson>;
  problems: string[];
  /** The fatal errors recovered from (an editor's evaluation). */
  fatals: string[];
  diagnostics: { code: string; start: number; end: number; message: string }[];
}

export function evaluationSnapshot(text: string, evaluation: FileEvaluation, findings: readonly Finding[] = analyzeRouteFile(text, evaluation)): EvaluationSnapshot {
  const methods: Record<string, OutcomeJson> = {};
  REQUEST_METHODS.forEach((method, m) => (methods[method] = outcomeToJson(evaluation.methods[m])));
  return {
    methods,
    problems: evaluation.problems.map((p) => `${p.code}@${p.span.start}-${p.span.end}: ${p.message}`),
    fatals: evaluation.fatals.map((f) => `${f.class}@${f.span.start}-${f.span.end} in ${f.statement.start}-${f.statement.end} (${f.mask}): ${f.message}`),
    diagnostics: findings.map((f) => ({ code: f.code, start: f.span.start, end: f.span.end, message: f.message })),
  };
}

/**
 * Compares an evaluation computed incrementally (reusing caches from earlier versions of the
 * document, or any other incremental API) with a fresh evaluation of the same text. Returns
 * undefined when their snapshots are equal, else a description of the first difference.
 */
export function compareEvaluations(text: string, incremental: FileEvaluation, fresh: FileEvaluation): string | undefined {
  return snapshotDifference(evaluationSnapshot(text, incremental), evaluationSnapshot(text, fresh));
}

/**
 * The first difference between two snapshots (its JSON path and both values), so a failing
 * property shows what diverged rather than two 5,000-line objects; undefined when equal.
 */
export function snapshotDifference(incremental: EvaluationSnapshot, fresh: EvaluationSnapshot): string | undefined {
  return firstDifference(incremental, fresh, '$');
}

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: incremental ${JSON.stringify(a)} ≠ fresh ${JSON.stringify(b)}`;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (Array.isArray(a) && ka.length !== kb.length) {
    return `${path}: incremental has ${ka.length} items, fresh ${kb.length}: ${JSON.stringify(a).slice(0, 400)} ≠ ${JSON.stringify(b).slice(0, 400)}`;
  }
  for (const k of new Set([...ka, ...kb])) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}
