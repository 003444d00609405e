import type { Span } from '../../php/ast';
import type { FileEvaluation, MethodResult } from '../../evaluate/evaluate-file';
import { PhpArray, keyToString, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import { wasMapped, type CallSite, type EntryOriginInfo, type LiteralOrigin, type RouteRecord } from '../../library/records';
import { recordsBySite } from './records-by-site';
import { describeTarget } from './route-table';

/** What finally happened to a route a declaration produced. */
export type Fate =
  | { kind: 'active' }
  | { kind: 'replaced'; by: EntryOriginInfo }
  | { kind: 'reset'; at: CallSite }
  | { kind: 'not-mapped'; lastMap?: CallSite }
  /** Not mapped when an analysis limit stopped the evaluation: what the rest of the file does to it is not known. */
  | { kind: 'unknown'; stop: Span }
  | { kind: 'overwritten'; by?: EntryOriginInfo }
  | { kind: 'error'; message: string; at?: Span };

export interface ProducedRoute {
  method: RequestMethod;
  key: string;
  target: string;
  names: string[];
  record: RouteRecord;
  fate: Fate;
}

const ACTIVE: Fate = Object.freeze({ kind: 'active' });

/** Where an analysis limit stopped the evaluation, if one did (see EvalProblem.stops). */
export function stopOf(evaluation: FileEvaluation): Span | undefined {
  return evaluation.problems.find((p) => p.stops)?.span;
}

/** What finally happened to a route under one method: hovers, the outline and lenses all say this. */
export function fateOf(record: RouteRecord, result: MethodResult | undefined, lastMap: CallSite | undefined, stop?: Span): Fate {
  if (record.reset) return { kind: 'reset', at: record.reset.site };
  const final = result?.routes?.originOf(record.key);
  if (final === record) return ACTIVE;
  if (record.replacedBy) return { kind: 'replaced', by: record.replacedBy };
  // A fatal error stops the script: nothing reaches CodeIgniter's router.
  if (result?.error && result.error.class !== 'ParseError') return { kind: 'error', message: `${result.error.class}: ${result.error.message}`, at: result.error.span };
  if (!result || !wasMapped(record, result.library.maps)) return stop ? { kind: 'unknown', stop } : { kind: 'not-mapped', lastMap };
  return { kind: 'overwritten', by: final as EntryOriginInfo | undefined };
}

/**
 * The routes a call produced under every method, in order, with their fates. With `nested`, also
 * what ran inside it (a prefix() closure, a `$nested` callable).
 */
export function producedBy(evaluation: FileEvaluation, site: CallSite, nested: boolean): ProducedRoute[] {
  const index = recordsBySite(evaluation);
  const lastMap = index.lastMap;
  const stop = stopOf(evaluation);
  const own = index.own.get(site.span.start) ?? [];
  const inside = nested ? (index.inside.get(site.span.start) ?? []) : [];
  // Method order first, then creation order, as the tables are read.
  const all = nested && inside.length ? [...own, ...inside].sort((a, b) => a.m - b.m || a.record.id - b.record.id) : own;
  return all.map(({ m, record }) => ({
    method: REQUEST_METHODS[m],
    key: keyToString(record.key),
    target: describeTarget(record.to),
    names: record.name === undefined ? [] : [keyToString(record.name)],
    record,
    fate: fateOf(record, evaluation.methods[m], lastMap, stop),
  }));
}

/** Where each route name is declared in a file: the `'as'` value when literal, else the call. */
const declarationCache = new WeakMap<FileEvaluation, Map<string, { span: Span; site: CallSite; from: string; methods: RequestMethod[] }>>();

export function nameDeclarations(evaluation: FileEvaluation): Map<string, { span: Span; site: CallSite; from: string; methods: RequestMethod[] }> {
  const cached = declarationCache.get(evaluation);
  if (cached) return cached;
  const out = new Map<string, { span: Span; site: CallSite; from: string; methods: RequestMethod[] }>();
  const calls = new Map(evaluation.calls.map((c) => [c.site.span.start, c] as const));
  evaluation.methods.forEach((result, m) => {
    for (const record of result.library.created) {
      if (record.name === undefined) continue;
      const name = keyToString(record.name);
      const existing = out.get(name);
      if (existing) {
        if (!existing.methods.includes(REQUEST_METHODS[m])) existing.methods.push(REQUEST_METHODS[m]);
        // A reused name takes the last declaration.
        if (record.site.span.start > existing.site.span.start) Object.assign(existing, { site: record.site, span: asSpan(record.site, calls.get(record.site.span.start)?.args), from: keyToString(record.key) });
        continue;
      }
      out.set(name, { span: asSpan(record.site, calls.get(record.site.span.start)?.args), site: record.site, from: keyToString(record.key), methods: [REQUEST_METHODS[m]] });
    }
  });
  declarationCache.set(evaluation, out);
  return out;
}

function asSpan(site: CallSite, args: Value[] | undefined): Span {
  const options = args?.[2];
  if (options instanceof PhpArray) {
    const literal = options.originOf('as') as LiteralOrigin | undefined;
    if (literal?.kind === 'literal') return literal.valueSpan;
  }
  return site.nameSpan;
}
