import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { keyToString } from '../../runtime/values';

/**
 * The keys a module's routes file leaves in `$route`, under any request method: what
 * Modules::parse_routes() may match. Undefined when that is not known: the file stops at an
 * analysis limit, ends in an error, or leaves no array under some method.
 */
export function routeKeysOf(evaluation: FileEvaluation): string[] | undefined {
  if (evaluation.problems.some((p) => p.code === 'evaluation-limit' && p.stops)) return undefined;
  const keys = new Set<string>();
  for (const result of evaluation.methods) {
    if (!result.routes || result.error) return undefined;
    for (const k of result.routes.keys()) keys.add(keyToString(k));
  }
  return [...keys];
}
