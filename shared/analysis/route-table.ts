import type { Span } from '../php/ast';
import { describeValue } from '../evaluate/convert';
import type { FileEvaluation } from '../evaluate/evaluate-file';
import { PhpArray, PhpClosure, Unknown, keyToString, type Value } from '../evaluate/values';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../library/methods';
import type { EntryOriginInfo } from '../library/records';

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
}

const RESERVED = new Set(['default_controller', 'translate_uri_dashes']);

export function describeTarget(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof PhpClosure) return 'Closure';
  if (v instanceof Unknown) return `‹${v.reason}›`;
  if (v instanceof PhpArray) {
    return [...v.entries()].map(([k, x]) => `${keyToString(k).toUpperCase()} → ${describeTarget(x)}`).join(', ');
  }
  return describeValue(v);
}

export function originSpan(origin: EntryOriginInfo | undefined): Span | undefined {
  if (!origin) return undefined;
  return origin.kind === 'route' ? origin.site.span : origin.span;
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
    const key = keyToString(k);
    const origin = routes.originOf(k) as EntryOriginInfo | undefined;
    rows.push({
      method: REQUEST_METHODS[m],
      index: index++,
      key,
      target: v,
      targetText: describeTarget(v),
      names: namesByFrom.get(key) ?? [],
      origin,
      span: originSpan(origin),
      reserved: RESERVED.has(key),
    });
  }
  return rows;
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
