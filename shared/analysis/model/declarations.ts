import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { RouteCall } from '../../evaluate/interpreter';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import { routeApi } from '../../library/route-api';
import { lostReason } from './fate';
import { ProducedIndex, displayKey, producedRoute, type ProducedEntry, type ProducedRoute } from './produced';
import { describeTarget } from './route-table';
import type { CallSite } from '../../library/records';

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

/** A route as a declaration produced it: one (key, target) pair, with the methods it exists under. */
export interface DeclaredRoute {
  route: ProducedRoute;
  methods: RequestMethod[];
}

export interface DeclarationSummary {
  /** The (key, target) pairs present in the final `$route` of at least one method, in order. */
  routes: DeclaredRoute[];
  /** Methods with at least one of those routes. */
  methods: RequestMethod[];
  /** Pairs in no final `$route` at all, counted by why (the first method's reason). */
  lost: { reason: string; count: number }[];
}

/**
 * Folds produced entries into routes. Rule: a route is a distinct (key, target) pair; a pair that
 * is in the final `$route` under any method counts as produced (its methods are those it is in);
 * a pair in none counts as lost, once.
 */
export function summarize(evaluation: FileEvaluation, entries: readonly ProducedEntry[]): DeclarationSummary {
  // Most declarations produce one route under one method: no pairs to fold.
  if (entries.length === 1 && entries[0].fate.kind === 'active') {
    const { m, record } = entries[0];
    const method = REQUEST_METHODS[m];
    return { routes: [{ route: producedRoute(record), methods: [method] }], methods: [method], lost: [] };
  }
  // Pairs found by key, then target text, never by a string made of both per entry (a context()
  // gives seven routes under each of eight methods, and an outline folds every declaration's).
  const active = new Map<string, Map<string, DeclaredRoute>>();
  const routes: DeclaredRoute[] = [];
  const lost = new Map<string, Set<string>>();
  const lostPairs: { key: string; target: string; reason: string }[] = [];
  const methodSet = new Set<MethodIndex>();
  for (const { m, record, fate } of entries) {
    const key = displayKey(record.key);
    const target = describeTarget(record.to);
    if (fate.kind !== 'active') {
      let targets = lost.get(key);
      if (!targets) lost.set(key, (targets = new Set()));
      if (targets.has(target)) continue;
      targets.add(target);
      // A syntax error skips its statement only; an uncaught error stops the script.
      const failed = evaluation.methods[m]?.error;
      lostPairs.push({ key, target, reason: lostReason(fate, !!failed && failed.class !== 'ParseError') });
      continue;
    }
    methodSet.add(m);
    const method = REQUEST_METHODS[m];
    let byTarget = active.get(key);
    if (!byTarget) active.set(key, (byTarget = new Map()));
    const route = byTarget.get(target);
    if (route) {
      if (!route.methods.includes(method)) route.methods.push(method);
      continue;
    }
    const declared = { route: producedRoute(record), methods: [method] };
    byTarget.set(target, declared);
    routes.push(declared);
  }
  const reasons = new Map<string, number>();
  for (const { key, target, reason } of lostPairs) {
    if (!active.get(key)?.has(target)) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  for (const r of routes) r.methods = REQUEST_METHODS.filter((x) => r.methods.includes(x));
  return {
    routes,
    methods: REQUEST_METHODS.filter((_, i) => methodSet.has(i)),
    lost: [...reasons].map(([reason, count]) => ({ reason, count })),
  };
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
  return summarize(evaluation, ProducedIndex.of(evaluation).of(site, countsNested(site.method)));
}
