import type { FileEvaluation, RecoveredError } from '../../evaluate/evaluate-file';
import { maskNames } from '../../runtime/methods';
import { LineIndex } from '../../php/line-index';
import type { DiagnosticCode, Finding } from './core/types';

/** The findings about the errors themselves: true whatever PHP reached. */
const ABOUT_THE_ERROR: ReadonlySet<DiagnosticCode> = new Set(['runtime-error', 'undefined-route-method', 'syntax-error']);

/**
 * The findings placed after a fatal error the evaluation went on past (see EvaluateOptions.recover)
 * say so: they describe what the file does were that statement skipped, a state PHP never
 * reaches under the error's methods. A copy only when some change.
 */
export function markAfterFatal(findings: Finding[], evaluation: FileEvaluation, text: string): Finding[] {
  const fatals = evaluation.fatals;
  if (fatals.length === 0) return findings;
  let lines: LineIndex | undefined;
  return findings.map((f) => {
    if (ABOUT_THE_ERROR.has(f.code) || f.span.file) return f;
    const stop = firstStopBefore(fatals, f);
    if (!stop) return f;
    lines ??= LineIndex.of(text);
    const line = lines.lineOf(stop.statement.start) + 1;
    return {
      ...f,
      message: `${f.message} (PHP never gets here: it stops at line ${line}.)`,
      related: [...f.related, { span: stop.statement, message: `PHP stops here first: ${stop.class}: ${stop.message}` }],
    };
  });
}

/** The first error whose statement ends before the finding and that stops every method the finding concerns. */
function firstStopBefore(fatals: readonly RecoveredError[], f: Finding): RecoveredError | undefined {
  for (const fatal of fatals) {
    if (fatal.statement.end > f.span.start) return undefined;
    const stopped = new Set(maskNames(fatal.mask));
    if (f.methods.every((m) => stopped.has(m))) return fatal;
  }
  return undefined;
}
