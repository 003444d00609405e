import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { keyToString, type Key } from '../../runtime/values';
import { REQUEST_METHODS, maskNames, type MethodIndex, type MethodMask, type RequestMethod } from '../../runtime/methods';
import { isDynamicKey, type CallSite, type RouteRecord } from '../../library/records';
import { fateOf, lostReason, stopOf, type Fate } from './fate';
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

/**
 * What each call produced, with fates: read from recordsBySite(), a fate decided when first asked
 * for. A record a prefix() closure's call created is in both calls' lists (at the same place):
 * its fate is decided once, and each call's list is made once, however many features read it.
 */
export class ProducedIndex {
  /** The index of an evaluation (the outline and the lenses ask for it after every edit). */
  static of(evaluation: FileEvaluation): ProducedIndex {
    let index = indexes.get(evaluation);
    if (!index) indexes.set(evaluation, (index = new ProducedIndex(evaluation, recordsBySite(evaluation))));
    return index;
  }

  /** Where an analysis limit stopped the evaluation (see stopOf). */
  private readonly stop: Span | undefined;
  /**
   * By place (see RecordsBySite), made for the calls whose produced entries are asked for (a
   * hover's rows): summaries read every place once per version and keep none (a slot per place
   * was 2 MB at 10,000 declarations).
   */
  private fates: (Fate | undefined)[] | undefined;
  /** Lists made, by call start: own entries, and own then inner ones. */
  private readonly ownLists = new Map<number, readonly ProducedEntry[]>();
  private readonly nestedLists = new Map<number, readonly ProducedEntry[]>();

  private constructor(
    private readonly evaluation: FileEvaluation,
    private readonly sites: RecordsBySite,
  ) {
    this.stop = stopOf(evaluation);
  }

  /** What a call created; with `nested`, also what ran inside it (prefix() closures, `$nested`). Shared: not to be changed. */
  of(site: CallSite, nested: boolean): readonly ProducedEntry[] {
    const start = site.span.start;
    const lists = nested ? this.nestedLists : this.ownLists;
    let entries = lists.get(start);
    if (entries) return entries;
    const made: ProducedEntry[] = [];
    for (const list of this.recordsOf(start, nested)) {
      for (const i of list) made.push({ m: this.sites.methodAt(i), record: this.sites.recordAt(i), fate: this.fateOf(i) });
    }
    lists.set(start, (entries = made));
    return entries;
  }

  /**
   * summarize() of of(site, nested), made anew at each call: not kept, since the outline keeps what
   * it made of each call across versions (see OutlineCalls) and lenses and hovers read a summary
   * once per request (kept, a large file's summaries were 10 MB at 10,000 declarations).
   */
  summary(site: CallSite, nested: boolean): DeclarationSummary {
    // Folded from the index's own lists: no entry objects for what the outline only counts.
    const [own, inner] = this.recordsOf(site.span.start, nested);
    const sites = this.sites;
    return fold(this.evaluation, own.length + inner.length, (e) => (e < own.length ? own[e]! : inner[e - own.length]!), sites.methodAt.bind(sites), sites.recordAt.bind(sites), (i) => this.fateNow(i));
  }

  /**
   * What summary(site, nested) is made of: the records the call created, then with `nested` those
   * made while it ran, in order, each with its fate as summarize() reads it ('active', or why it
   * was lost). Equal for two versions' same call, the summaries are equal (a document's outline
   * keeps what it made of a call: see OutlineCalls).
   */
  summaryInputs(site: CallSite, nested = false): { records: RouteRecord[]; reasons: string[] } {
    const [own, inner] = this.recordsOf(site.span.start, nested);
    const n = own.length + inner.length;
    const records = new Array<RouteRecord>(n);
    const reasons = new Array<string>(n);
    for (let e = 0; e < n; e++) {
      const i = e < own.length ? own[e]! : inner[e - own.length]!;
      const record = (records[e] = this.sites.recordAt(i));
      const m = this.sites.methodAt(i);
      reasons[e] = reasonOf(this.evaluation, m, this.fateNow(i, record, m));
    }
    return { records, reasons };
  }

  /** The records the call at `start` created, and with `nested` those made while it ran (none otherwise). */
  private recordsOf(start: number, nested: boolean): [readonly number[], readonly number[]] {
    return [this.sites.own.get(start) ?? NO_RECORDS, nested ? (this.sites.inside.get(start) ?? NO_RECORDS) : NO_RECORDS];
  }

  /** The fate of the record at place `i` (its record, its method), as kept for a hover's rows, else made now and not kept. */
  private fateNow(i: number, record = this.sites.recordAt(i), m = this.sites.methodAt(i)): Fate {
    return this.fates?.[i] ?? this.madeFate(record, m);
  }

  /** The fate of the record at place `i`, kept. */
  private fateOf(i: number): Fate {
    const fates = (this.fates ??= new Array<Fate | undefined>(this.sites.count));
    return (fates[i] ??= this.madeFate(this.sites.recordAt(i), this.sites.methodAt(i)));
  }

  private madeFate(record: RouteRecord, m: MethodIndex): Fate {
    return fateOf(record, this.evaluation.methods[m], this.sites.lastMap, this.evaluation.places, this.stop);
  }
}

/** 'active', or why a route is not in `$route` under method `m` (see lostReason). */
function reasonOf(evaluation: FileEvaluation, m: MethodIndex, fate: Fate): string {
  if (fate.kind === 'active') return 'active';
  // A syntax error skips its statement only; an uncaught error stops the script.
  const failed = evaluation.methods[m]?.error;
  return lostReason(fate, !!failed && failed.class !== 'ParseError');
}

/** `‹dynamic›` for a route whose path is not known statically, else the key as PHP stores it. */
export function displayKey(key: Key): string {
  return isDynamicKey(key) ? '‹dynamic›' : keyToString(key);
}

/** A route a call produced, as the features show it: its path and target as text, its names, its record. */
export interface ProducedRoute {
  key: string;
  target: string;
  names: readonly string[];
  record: RouteRecord;
}

/** The names of the many routes without one: one list for all. */
const NO_NAMES: readonly string[] = Object.freeze([]);

/** The route a record is, as the features show it. */
export function producedRoute(record: RouteRecord): ProducedRoute {
  return { key: displayKey(record.key), target: describeTarget(record.to), names: record.name === undefined ? NO_NAMES : [keyToString(record.name)], record };
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
  const entries = [...ProducedIndex.of(evaluation).of(site, nested)];
  // Method order first, then creation order, as the tables are read: own and inner entries each are, not both together.
  if (entries.length > 1 && nested && recordsBySite(evaluation).inside.has(site.span.start)) entries.sort((a, b) => a.m - b.m || a.record.id - b.record.id);
  return entries.map(({ m, record, fate }) => ({ route: producedRoute(record), method: REQUEST_METHODS[m], fate }));
}

/** A route as a declaration produced it: one (key, target) pair, with the methods it exists under. */
export interface DeclaredRoute {
  route: ProducedRoute;
  /** Shared between routes (see maskNames): not to be changed. */
  methods: readonly RequestMethod[];
}

export interface DeclarationSummary {
  /** The (key, target) pairs present in the final `$route` of at least one method, in order. */
  routes: DeclaredRoute[];
  /** Methods with at least one of those routes. */
  methods: readonly RequestMethod[];
  /** Pairs in no final `$route` at all, counted by why (the first method's reason). */
  lost: readonly { reason: string; count: number }[];
}

/** One (key, target) pair while entries are folded. */
interface Pair {
  target: string;
  /** Set at its first active entry. */
  declared: DeclaredRoute | undefined;
  /** The methods it is active under. */
  mask: MethodMask;
  /** Why its first lost entry was lost. */
  lost: string | undefined;
}

/**
 * Folds produced entries into routes. Rule: a route is a distinct (key, target) pair; a pair that
 * is in the final `$route` under any method counts as produced (its methods are those it is in);
 * a pair in none counts as lost, once.
 */
export function summarize(evaluation: FileEvaluation, entries: readonly ProducedEntry[]): DeclarationSummary {
  return fold(evaluation, entries.length, (e) => e, (e) => entries[e]!.m, (e) => entries[e]!.record, (e) => entries[e]!.fate);
}

const NO_RECORDS: readonly never[] = Object.freeze([]);
/** The lost list of the many summaries that lost nothing. */
const NONE_LOST: readonly never[] = Object.freeze([]);

/** summarize() of `n` entries, each named by `entryAt(e)` and told by `methodOf`, `recordOf` and `fateOf`. */
function fold(
  evaluation: FileEvaluation,
  n: number,
  entryAt: (e: number) => number,
  methodOf: (entry: number) => MethodIndex,
  recordOf: (entry: number) => RouteRecord,
  fateOf: (entry: number) => Fate,
): DeclarationSummary {
  // Most declarations produce one route under one method: no pairs to fold.
  if (n === 1) {
    const only = entryAt(0);
    if (fateOf(only).kind === 'active') {
      const methods = maskNames(1 << methodOf(only));
      return { routes: [{ route: producedRoute(recordOf(only)), methods }], methods, lost: NONE_LOST };
    }
  }
  // Pairs found by key, then among that key's few targets, never by a string made of both per
  // entry (a context() gives seven routes under each of eight methods, and an outline folds
  // every declaration's); methods as bits until the end.
  const byKey = new Map<string, Pair[]>();
  const routes: DeclaredRoute[] = [];
  const routePairs: Pair[] = [];
  const lostPairs: Pair[] = [];
  let methods: MethodMask = 0;
  for (let e = 0; e < n; e++) {
    const entry = entryAt(e);
    const m = methodOf(entry);
    const record = recordOf(entry);
    const fate = fateOf(entry);
    const key = displayKey(record.key);
    const target = describeTarget(record.to);
    let pairs = byKey.get(key);
    let pair: Pair | undefined;
    if (pairs) {
      for (let i = 0; i < pairs.length; i++) {
        if (pairs[i].target === target) {
          pair = pairs[i];
          break;
        }
      }
    }
    if (!pair) {
      pair = { target, declared: undefined, mask: 0, lost: undefined };
      if (pairs) pairs.push(pair);
      else byKey.set(key, (pairs = [pair]));
    }
    if (fate.kind !== 'active') {
      if (pair.lost !== undefined) continue;
      pair.lost = reasonOf(evaluation, m, fate);
      lostPairs.push(pair);
      continue;
    }
    methods |= 1 << m;
    pair.mask |= 1 << m;
    if (!pair.declared) {
      pair.declared = { route: producedRoute(record), methods: [] };
      routes.push(pair.declared);
      routePairs.push(pair);
    }
  }
  for (let i = 0; i < routes.length; i++) routes[i].methods = maskNames(routePairs[i].mask);
  const reasons = new Map<string, number>();
  for (const pair of lostPairs) {
    if (!pair.declared) reasons.set(pair.lost!, (reasons.get(pair.lost!) ?? 0) + 1);
  }
  return { routes, methods: maskNames(methods), lost: reasons.size ? [...reasons].map(([reason, count]) => ({ reason, count })) : NONE_LOST };
}
