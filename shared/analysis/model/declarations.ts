import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { RouteCall } from '../../evaluate/interpreter';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import { routeApi } from '../../library/route-api';
import { ProducedIndex, type DeclarationSummary } from './produced';
import type { CallSite } from '../../library/records';

export { summarize, type DeclarationSummary, type DeclaredRoute } from './produced';

/**
 * The Route:: declarations of a file and what each produced, folded into (key, target) routes for
 * the outline and the lenses; the entries come from the one ProducedIndex of the evaluation.
 */

/** Library methods that declare routes, themselves or in their callback (named(), map() and reset() do not). */
export { DECLARING_METHODS } from '../../library/route-api';

const uniqueCallsCache = new WeakMap<FileEvaluation, readonly RouteCall[]>();

/** Each call site once (a call in a `$nested` callable runs once per parent route), in source order. */
export function uniqueCalls(evaluation: FileEvaluation): readonly RouteCall[] {
  const cached = uniqueCallsCache.get(evaluation);
  if (cached) return cached;
  const bySite = new Map<number, RouteCall>();
  for (const call of evaluation.calls ?? []) {
    // Calls in included files are not places in this document.
    if (!call?.site || call.site.placed.span.file) continue;
    if (!bySite.has(evaluation.places.start(call.site))) bySite.set(evaluation.places.start(call.site), call);
  }
  const calls = [...bySite.values()].sort((a, b) => evaluation.places.start(a.site) - evaluation.places.start(b.site) || evaluation.places.span(b.site).end - evaluation.places.span(a.site).end);
  uniqueCallsCache.set(evaluation, calls);
  return calls;
}

/** Methods for a label: `ANY` when all eight, else joined by `sep`. */
export function methodsLabel(methods: readonly RequestMethod[], sep = '|'): string {
  return methods.length === REQUEST_METHODS.length ? 'ANY' : methods.join(sep);
}

/** `7 routes · GET POST PUT DELETE`, `1 route · ANY`, `0 routes · 2 replaced`. */
export function summaryTitle(s: DeclarationSummary): string {
  const n = s.routes.length;
  const parts = [`${n} route${n === 1 ? '' : 's'}`];
  if (s.methods.length > 0) parts.push(methodsLabel(s.methods, ' '));
  for (const l of s.lost) parts.push(`${l.count} ${l.reason}`);
  return parts.join(' · ');
}

/** Routes inside a prefix() closure belong to its summary; other calls count their own routes. */
export function countsNested(method: string): boolean {
  return routeApi(method)?.declaresInCallback === true;
}

/**
 * What one declaration leaves in `$route`, as its lens, its outline entry and its hover's header
 * all say it (summaryTitle): a route is a distinct (key, target) pair, counted once however many
 * request methods have it (context() gives 7 routes under ANY, not 56 rows); prefix() counts the
 * routes of its closure, other calls their own routes only (those of a `$nested` callable are
 * counted at the declarations inside it).
 */
export function declarationSummary(evaluation: FileEvaluation, site: CallSite): DeclarationSummary {
  return ProducedIndex.of(evaluation).summary(site, countsNested(site.method));
}
