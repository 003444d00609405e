import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { keyToString, type Key } from '../../runtime/values';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import { isDynamicKey, type CallSite, type RouteRecord } from '../../library/records';
import { fateOf, stopOf, type Fate } from './fate';
import { recordsBySite, type RecordsBySite } from './records-by-site';
import { describeTarget } from './route-table';

/**
 * What each call of a file produced, with fates: one index per evaluation, read by hovers, the
 * outline and the lenses alike (declarations.ts folds its entries into routes), and the one
 * shape of a produced route they show.
 */

export interface ProducedEntry {
  m: MethodIndex;
  record: RouteRecord;
  fate: Fate;
}

const indexes = new WeakMap<FileEvaluation, ProducedIndex>();

/** What each call produced, with fates: read from recordsBySite(), a fate decided when asked for. */
export class ProducedIndex {
  /** The index of an evaluation (the outline and the lenses ask for it after every edit). */
  static of(evaluation: FileEvaluation): ProducedIndex {
    let index = indexes.get(evaluation);
    if (!index) indexes.set(evaluation, (index = new ProducedIndex(evaluation, recordsBySite(evaluation))));
    return index;
  }

  /** Where an analysis limit stopped the evaluation (see stopOf). */
  private readonly stop: Span | undefined;

  private constructor(
    private readonly evaluation: FileEvaluation,
    private readonly sites: RecordsBySite,
  ) {
    this.stop = stopOf(evaluation);
  }

  /** What a call created; with `nested`, also what ran inside it (prefix() closures, `$nested`). */
  of(site: CallSite, nested: boolean): ProducedEntry[] {
    const own = this.sites.own.get(site.span.start) ?? [];
    const inner = nested ? (this.sites.inside.get(site.span.start) ?? []) : [];
    const entries: ProducedEntry[] = [];
    for (const list of [own, inner]) {
      for (const { m, record } of list) entries.push({ m, record, fate: fateOf(record, this.evaluation.methods[m], this.sites.lastMap, this.evaluation.places, this.stop) });
    }
    return entries;
  }
}

/** `‹dynamic›` for a route whose path is not known statically, else the key as PHP stores it. */
export function displayKey(key: Key): string {
  return isDynamicKey(key) ? '‹dynamic›' : keyToString(key);
}

/** A route a call produced, as the features show it: its path and target as text, its names, its record. */
export interface ProducedRoute {
  key: string;
  target: string;
  names: string[];
  record: RouteRecord;
}

/** The route a record is, as the features show it. */
export function producedRoute(record: RouteRecord): ProducedRoute {
  return { key: displayKey(record.key), target: describeTarget(record.to), names: record.name === undefined ? [] : [keyToString(record.name)], record };
}

/** One route a call produced under one method, with its fate: a row of a hover's table. */
export interface ProducedRow {
  route: ProducedRoute;
  method: RequestMethod;
  fate: Fate;
}

/**
 * The routes a call produced under every method, in order, with their fates. With `nested`, also
 * what ran inside it (a prefix() closure, a `$nested` callable).
 */
export function producedBy(evaluation: FileEvaluation, site: CallSite, nested: boolean): ProducedRow[] {
  const entries = ProducedIndex.of(evaluation).of(site, nested);
  // Method order first, then creation order, as the tables are read: own and inner entries each are, not both together.
  if (entries.length > 1 && nested && recordsBySite(evaluation).inside.has(site.span.start)) entries.sort((a, b) => a.m - b.m || a.record.id - b.record.id);
  return entries.map(({ m, record, fate }) => ({ route: producedRoute(record), method: REQUEST_METHODS[m], fate }));
}
