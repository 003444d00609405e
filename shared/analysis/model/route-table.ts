import type { Places } from '../../evaluate/places';
import type { Span } from '../../php/ast';
import { describeValue } from '../../runtime/convert';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { PhpArray, PhpClosure, Unknown, keyToString, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import { isDynamicKey, unknownPathOf, type EntryOriginInfo } from '../../library/records';
import { tableView } from './table-view';
import { includedFileTag } from '../../evaluate/branches';

/** One entry of the final `$route` array under one request method. */
export interface RouteRow {
  method: RequestMethod;
  /** Position in that method's array (PHP order, which is matching order). */
  index: number;
  key: string;
  target: Value;
  targetText: string;
  /** Route names whose `named()` returns this key. */
  names: string[];
  origin?: EntryOriginInfo;
  /** The declaration: the Route:: call or the `$route[...] =` assignment. */
  span?: Span;
  /** `default_controller` and `translate_uri_dashes` are settings, not patterns. */
  reserved: boolean;
  /** Why the route's path cannot be known statically, for an unknown route (its `key` then says so). */
  unknown?: string;
}

/** How an unknown route's path is shown in tables. */
export const UNKNOWN_PATH = '‹unknown path›';

const RESERVED = new Set(['default_controller', 'translate_uri_dashes']);

/** How an empty target is shown (Route::block()'s): CodeIgniter's routers serve its URIs with the default controller, not a 404. */
export const EMPTY_TARGET = "'' (the default controller)";

/** An empty target in a table's row: `404_override` set to '' sets no override. */
export function emptyTargetLabel(key: string): string {
  return key === '404_override' ? "'' (no override)" : EMPTY_TARGET;
}

export function describeTarget(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof PhpClosure) return 'Closure';
  if (v instanceof Unknown) return `‹${v.reason}›`;
  if (v instanceof PhpArray) {
    return [...v.entries()].map(([k, x]) => `${keyToString(k).toUpperCase()} → ${describeTarget(x)}`).join(', ');
  }
  return describeValue(v);
}

export function originSpan(origin: EntryOriginInfo | undefined, places: Places): Span | undefined {
  if (!origin) return undefined;
  return origin.kind === 'route' ? places.span(origin.site) : places.entry(origin).span;
}

/**
 * Why an unknown route's path cannot be known: the evaluation's note about its key (or its
 * call), when there is one.
 */
export function unknownPathReason(evaluation: FileEvaluation, origin: EntryOriginInfo | undefined): string {
  const known = origin?.kind === 'route' ? unknownPathOf(origin) : undefined;
  if (known !== undefined) return known;
  // A route's path is its call's, with the prefix() around it: the note may be at either.
  const spans: Span[] = !origin ? [] : origin.kind === 'route' ? [evaluation.places.site(origin.site).span, ...origin.via.map((v) => evaluation.places.site(v).span)] : origin.kind === 'assignment' ? [evaluation.places.entry(origin).keySpan ?? evaluation.places.entry(origin).span] : [evaluation.places.entry(origin).span];
  const inside = (p: { span: Span }, span: Span) => p.span.file === span.file && p.span.start >= span.start && p.span.end <= span.end;
  const note = evaluation.problems.find((p) => p.code === 'unknown-value' && spans.some((span) => inside(p, span)));
  if (!note) return 'its path cannot be known statically';
  const inner = /\((.*)\)$/.exec(note.message);
  return inner ? inner[1]! : note.message;
}

/** The rows of one method's final route table. */
export function routeRows(evaluation: FileEvaluation, m: MethodIndex): RouteRow[] {
  const result = evaluation.methods[m];
  const routes = result.routes;
  if (!routes) return [];
  const namesByFrom = new Map<string, string[]>();
  for (const [name, from] of result.library.named.entries()) {
    if (typeof from !== 'string') continue;
    const list = namesByFrom.get(from) ?? [];
    list.push(keyToString(name));
    namesByFrom.set(from, list);
  }
  const rows: RouteRow[] = [];
  let index = 0;
  for (const [k, v] of routes.entries()) {
    const origin = routes.originOf(k) as EntryOriginInfo | undefined;
    const dynamic = isDynamicKey(k);
    const key = dynamic ? UNKNOWN_PATH : keyToString(k);
    rows.push({
      method: REQUEST_METHODS[m],
      index: index++,
      key,
      target: v,
      targetText: describeTarget(v),
      names: dynamic ? [] : (namesByFrom.get(key) ?? []),
      origin,
      span: originSpan(origin, evaluation.places),
      reserved: RESERVED.has(key),
      ...(dynamic ? { unknown: unknownPathReason(evaluation, origin) } : {}),
    });
  }
  return rows;
}

/** Whether a row routes a method: a verb array (`$route['x'] = ['get' => …]`) only the methods it has an entry for, as CodeIgniter skips it otherwise. */
export function hasTargetFor(row: Pick<RouteRow, 'target'>, method: RequestMethod): boolean {
  if (!(row.target instanceof PhpArray)) return true;
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  return [...row.target.keys()].some((k) => keyToString(k).toLowerCase() === verb);
}

/** A route as it appears under several methods at once (same key, target and declaration). */
export interface MergedRow extends Omit<RouteRow, 'method' | 'index'> {
  methods: RequestMethod[];
}

/**
 * All methods' tables folded into one list: a route declared once and present under several
 * methods is one row listing them. Rows keep the order of first appearance, GET first.
 */
export function mergedRows(evaluation: FileEvaluation): MergedRow[] {
  const out: MergedRow[] = [];
  const byIdentity = new Map<string, MergedRow>();
  REQUEST_METHODS.forEach((method, m) => {
    for (const row of routeRows(evaluation, m)) {
      const identity = `${row.key}\u0000${row.targetText}\u0000${row.span?.start ?? -1}\u0000${row.names.join(',')}`;
      // A verb array lists the methods it routes, not every method's $route it is in.
      if (!hasTargetFor(row, method)) continue;
      const existing = byIdentity.get(identity);
      if (existing) {
        existing.methods.push(method);
        continue;
      }
      const { method: _method, index: _index, ...rest } = row;
      const merged: MergedRow = { ...rest, methods: [method] };
      byIdentity.set(identity, merged);
      out.push(merged);
    }
  });
  return out;
}

/** A route of the final table the evaluation could not know whole: its path, its target, or both. */
export interface UnknownRoute {
  span: Span | undefined;
  /** What is not known, and why: `path: the value of config_item() is not known statically`. */
  reason: string;
  /** Its path is unknown: it may match any URI, and stand anywhere its key falls. */
  pathUnknown: boolean;
  methods: RequestMethod[];
}

/** Why a target (or a verb array of targets) is not known statically, if it is not. */
export function unknownTarget(v: Value): string | undefined {
  // Most targets are strings: the cheap test first (checks run this on every entry of every table).
  if (typeof v !== 'object' || v === null) return undefined;
  if (v instanceof Unknown) return v.reason;
  if (v instanceof PhpArray) for (const x of v.values()) if (x instanceof Unknown) return x.reason;
  return undefined;
}

/**
 * The routes of the final tables whose path or target cannot be known statically, in table
 * order, under the methods given (all by default): what `eval --json` lists as `incomplete` and
 * `dynamic-route` reports. Read from the tables' views (shared with the checks, cached per
 * table): a pass over their keys and values, not rows built for every route.
 */
export function unknownRoutes(evaluation: FileEvaluation, method?: MethodIndex): UnknownRoute[] {
  const byPlace = new Map<string, UnknownRoute>();
  const out: UnknownRoute[] = [];
  // Methods often share a table: its unknown entries are found once.
  const found = new Map<PhpArray, number[]>();
  evaluation.methods.forEach((result, m) => {
    if (method !== undefined && m !== method) return;
    if (!result.routes) {
      // The whole table unknown: one unknown route stands for all of it.
      const whole = result.routesUnknown;
      if (!whole || result.error) return;
      const place = `$route:${whole.span?.start ?? -1}`;
      const known = byPlace.get(place);
      if (known) known.methods.push(REQUEST_METHODS[m]!);
      else {
        const route: UnknownRoute = { span: whole.span, reason: `$route itself: ${whole.reason}`, pathUnknown: true, methods: [REQUEST_METHODS[m]!] };
        byPlace.set(place, route);
        out.push(route);
      }
      return;
    }
    const { keys, values, origins } = tableView(evaluation, result.routes);
    let hits = found.get(result.routes);
    if (!hits) {
      hits = [];
      for (let i = 0; i < keys.length; i++) if (isDynamicKey(keys[i]) || unknownTarget(values[i]!) !== undefined) hits.push(i);
      found.set(result.routes, hits);
    }
    for (const i of hits) {
      const pathUnknown = isDynamicKey(keys[i]);
      const target = unknownTarget(values[i]!);
      const origin = origins[i];
      const span = originSpan(origin, evaluation.places);
      // One per declaration: a resources() call with an unknown name makes several rows.
      const place = `${span?.file?.path ?? ''}:${span?.start ?? -1}:${pathUnknown}`;
      const known = byPlace.get(place);
      if (known) {
        if (!known.methods.includes(REQUEST_METHODS[m]!)) known.methods.push(REQUEST_METHODS[m]!);
        continue;
      }
      const pathReason = pathUnknown ? unknownPathReason(evaluation, origin) : undefined;
      const reason = pathReason !== undefined && pathReason === target ? `path and target: ${target}` : [pathReason !== undefined ? `path: ${pathReason}` : undefined, target !== undefined ? `target: ${target}` : undefined].filter(Boolean).join('; ');
      const route: UnknownRoute = { span, reason, pathUnknown, methods: [REQUEST_METHODS[m]!] };
      byPlace.set(place, route);
      out.push(route);
    }
  });
  return out;
}

/** A condition that cannot be decided statically, on which a table's routes depend. */
export interface UndecidedCondition {
  /** The `if` statement (in the evaluated file). */
  span: Span;
  reason: string;
}

/**
 * The undecidable conditions the final tables (of `method`, else every method) depend on: a
 * route of one branch is in them, or routes whose order the branch decides. Both branches' routes
 * are listed, so the table is no single run's: what `eval` says it could not know.
 */
export function undecidedConditions(evaluation: FileEvaluation, method?: MethodIndex): UndecidedCondition[] {
  // By file (undefined: this one), then offset: an included file's conditions name it (see conditionPlace).
  const byHash = new Map(evaluation.included.map((f) => [includedFileTag(f.path), f] as const));
  const places = new Map<string, Span>();
  evaluation.methods.forEach((result, m) => {
    if ((method !== undefined && m !== method) || !result.routes) return;
    for (const origin of tableView(evaluation, result.routes).origins) {
      if (!origin || origin.kind === 'literal') continue;
      for (const id of origin.branches) {
        const at = /^c(\d+)(?:h([0-9a-z]+))?:/.exec(id);
        if (!at) continue;
        const file = at[2] === undefined ? undefined : byHash.get(at[2]);
        // An included file no longer read: its place is not known.
        if (at[2] !== undefined && !file) continue;
        const start = Number(at[1]);
        places.set(`${at[2] ?? ''}:${start}`, file ? { start, end: start, file } : { start, end: start });
      }
    }
  });
  const problems = evaluation.problems.filter((p) => p.code === 'unknown-value' && p.message.startsWith('the condition cannot be decided'));
  const out: UndecidedCondition[] = [];
  const tests = new Set<number>();
  const pathOf = (s: Span) => s.file?.path ?? '';
  const ordered = [...places.values()].sort((a, b) => (a.file ? 1 : 0) - (b.file ? 1 : 0) || (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0) || a.start - b.start);
  for (const span of ordered) {
    // The condition's own problem lies in the `if`, at its test: the first one from its start, in its file.
    const test = problems.find((p) => p.span.file?.path === span.file?.path && p.span.start >= span.start);
    if (test && !span.file) tests.add(test.span.start);
    const why = test ? test.message.replace(/: both branches are analysed$/, '') : 'a condition cannot be decided statically';
    out.push({ span, reason: `the routes depend on it: ${why}; both branches' routes are listed` });
  }
  const seen = new Set<number>();
  for (const g of evaluation.orderVaries) {
    if (method !== undefined && (g.mask & (1 << method)) === 0) continue;
    // A group of presence only (no order at stake) is told by the branches' routes above.
    if (g.keys.size === 0 || g.condition.file || tests.has(g.condition.start) || seen.has(g.condition.start)) continue;
    seen.add(g.condition.start);
    out.push({ span: g.condition, reason: `which of ${[...g.keys].slice(0, 3).map((k) => `'${k}'`).join(', ')} comes first depends on a condition that cannot be decided statically` });
  }
  return out;
}
