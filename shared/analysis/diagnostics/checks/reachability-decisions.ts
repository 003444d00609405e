import type { EntryOriginInfo } from '../../../library/records';
import type { Coverage, InclusionChecker } from '../../regular/inclusion';
import { branchesOf, compatibleBranches } from '../../model/origins';
import { CoverageWalk, type DecisionMemo } from './coverage-walk';
import { SegmentIds } from './segment-ids';
import { changedWindow, isUnchanged, type ChangedWindow } from '../../../util/changed-window';
import type { Steps } from '../../../util/steps';

/**
 * The entries CodeIgniter tries under a method, in table order, as columns: a large file's
 * tables hold hundreds of thousands of entries across methods, an object each was 8.7 MB.
 */
export interface TableKeys {
  readonly keys: readonly string[];
  /** 1 where the entry is a block() path (its value ''). */
  readonly blocked: Uint8Array;
}

/** A table's entries with where each came from (read for routes under undecidable conditions only; never kept). */
export interface TableEntries extends TableKeys {
  originAt(i: number): EntryOriginInfo;
}

/** Covered or empty entries of one method's table: index → coverage (`by` holds table indices). */
export type Decided = Map<number, Coverage & { kind: 'covered' | 'empty' }>;

/** What one method's table was, and what was decided about it, for the next analysis to diff against. */
export interface MethodDecisions {
  readonly entries: TableKeys;
  /** Numbers the first segments of `buckets`; shared with the decisions that follow (ids are only added). */
  readonly segmentIds: SegmentIds;
  /** Per entry: the id of its literal first segment, or -1 (a "wild" key: it may start with more than one). */
  readonly buckets: Int32Array;
  readonly wild: readonly number[];
  /** Wild keys found reachable, by index: a URI each matches and no earlier key does (see decideChanged). */
  readonly witnesses: ReadonlyMap<number, string>;
  readonly decided: Decided;
  readonly conditional: boolean;
}

/**
 * Decides every entry of one method's table. With the decisions about the same document's
 * previous version, only what the edit can change is decided again: the entries of the
 * first-segment buckets the changed entries belong to, from the first change on. Entries of other
 * buckets have the same candidates as before (their bucket and the wild keys), so their answers
 * are carried over, moved by the number of entries the edit added or removed.
 */
export function* decideTable(
  entries: TableEntries,
  previous: MethodDecisions | undefined,
  checker: InclusionChecker,
  memo: DecisionMemo,
  /** Where `entries` differ from the previous ones, when the caller knows (entries outside it are the same). */
  changed?: ChangedWindow,
  /** Whether a route of `entries` is inside an undecidable condition, when the caller knows (it is a pass over every entry). */
  knownConditional?: boolean,
): Steps<MethodDecisions> {
  const conditional = knownConditional ?? anyBranches(entries);
  if (previous && !conditional && !previous.conditional) {
    const incremental = yield* decideChanged(entries, previous, checker, memo, changed);
    if (incremental) return incremental;
  }
  return yield* decideAll(entries, conditional, checker, memo);
}

/** Whether an entry is inside an undecidable condition. */
function anyBranches(entries: TableEntries): boolean {
  for (let i = 0; i < entries.keys.length; i++) if (branchesOf(entries.originAt(i)).length > 0) return true;
  return false;
}

/** The columns kept with the decisions (never the origins: see TableEntries). */
function keptColumns(entries: TableKeys): TableKeys {
  return { keys: entries.keys, blocked: entries.blocked };
}

/** Pauses after each decision: deciding one key may build its automaton (milliseconds). */
function* decideAll(entries: TableEntries, conditional: boolean, checker: InclusionChecker, memo: DecisionMemo): Steps<MethodDecisions> {
  const keys = entries.keys;
  const segmentIds = new SegmentIds();
  const buckets = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) buckets[i] = segmentIds.idFor(memo.info(keys[i], checker).segment);
  const walk = new CoverageWalk(checker, memo, keys);
  const decided: Decided = new Map();
  const witnesses = new Map<number, string>();
  for (let i = 0; i < keys.length; i++) {
    // Routes in another branch of the same undecidable condition never run together.
    const branches = conditional ? branchesOf(entries.originAt(i)) : [];
    let earlierIdx: number[] | undefined;
    if (branches.length > 0) {
      earlierIdx = [];
      for (let j = 0; j < i; j++) if (compatibleBranches(branches, branchesOf(entries.originAt(j)))) earlierIdx.push(j);
      if (earlierIdx.length === i) earlierIdx = undefined;
    }
    const c = earlierIdx ? (walk.skip(i), checker.coverage(keys[i]!, earlierIdx.map((j) => keys[j]!))) : walk.coverage(i);
    if (c.kind === 'covered') decided.set(i, { kind: 'covered', by: earlierIdx ? c.by.map((b) => earlierIdx[b]) : c.by });
    else if (c.kind === 'empty') decided.set(i, c);
    else if (c.kind === 'not-covered' && c.witness !== undefined && buckets[i]! < 0) witnesses.set(i, c.witness);
    yield;
  }
  return { entries: keptColumns(entries), segmentIds, buckets, wild: wildOf(buckets), witnesses, decided, conditional };
}

/** The indexes of the wild keys and of the keys in a touched bucket (`touched[id]` is 1), in table order. */
function walkedIndexes(buckets: Int32Array, touched: Uint8Array): number[] {
  const walked: number[] = [];
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]!;
    if (b < 0 || touched[b] === 1) walked.push(i);
  }
  return walked;
}

function wildOf(buckets: Int32Array): number[] {
  const wild: number[] = [];
  for (let i = 0; i < buckets.length; i++) if (buckets[i]! < 0) wild.push(i);
  return wild;
}

/**
 * Whether a key after an edit (at `old` in the previous table) keeps its previous decision, the
 * edit having replaced the entries lo..oldHi by entries lo..newHi: covered by keys the edit left
 * in place, it still is; found reachable through a witness (a URI it matches and no earlier key
 * did), it still is when no key the edit added matches that URI. Else it must be decided again.
 */
function keepsDecision(previous: MethodDecisions, old: number, entries: TableKeys, lo: number, oldHi: number, newHi: number, checker: InclusionChecker): boolean {
  const before = previous.decided.get(old);
  if (before?.kind === 'empty') return true;
  if (before?.kind === 'covered') return before.by.every((j) => j < lo || j >= oldHi);
  const witness = previous.witnesses.get(old);
  if (witness === undefined) return false;
  for (let j = lo; j < newHi; j++) if (checker.mayMatch(entries.keys[j]!, witness)) return false;
  return true;
}

/** Segments numbered beyond which a lineage of decisions starts afresh (ids of keys long gone are never dropped otherwise). */
function tooManyIds(ids: SegmentIds, entries: number): boolean {
  return ids.size > 2 * entries + 1024;
}

/** Decisions read keys only (tables with conditions are always decided afresh), not where an entry came from. */
function sameEntry(a: TableKeys, i: number, b: TableKeys, j: number): boolean {
  return a.keys[i] === b.keys[j] && a.blocked[i] === b.blocked[j];
}

/** The incremental path, or undefined when the edit touched keys that may start anything. */
function* decideChanged(
  entries: TableEntries,
  previous: MethodDecisions,
  checker: InclusionChecker,
  memo: DecisionMemo,
  known: ChangedWindow | undefined,
): Steps<MethodDecisions | undefined> {
  const old = previous.entries;
  const window = known ?? changedWindow(old.keys.length, entries.keys.length, (i, j) => sameEntry(old, i, entries, j));
  if (isUnchanged(window)) return { ...previous, entries: keptColumns(entries) };
  const { lo, oldHi, newHi } = window;
  const shift = newHi - oldHi;
  const ids = previous.segmentIds;
  if (tooManyIds(ids, entries.keys.length)) return undefined;

  // The buckets the edit touched; a wild key among the changes may reach any bucket.
  const affected = new Set<number>();
  for (let i = lo; i < oldHi; i++) {
    const b = previous.buckets[i]!;
    if (b < 0) return undefined;
    affected.add(b);
  }
  const windowBuckets = new Int32Array(newHi - lo);
  for (let i = lo; i < newHi; i++) {
    const b = ids.idFor(memo.info(entries.keys[i]!, checker).segment);
    if (b < 0) return undefined;
    affected.add(b);
    windowBuckets[i - lo] = b;
  }
  const wild = previous.wild.filter((i) => i < lo).concat(previous.wild.filter((i) => i >= oldHi).map((i) => i + shift));
  // A wild key after the change whose candidates include a touched bucket keeps its decision only
  // when the edit cannot change it (see keepsDecision); else the table is decided afresh.
  for (const i of wild) {
    if (i < lo) continue;
    const pattern = memo.info(entries.keys[i]!, checker).pattern;
    for (const b of affected) {
      if (!checker.mayStartWith(pattern, ids.name(b))) continue;
      if (!keepsDecision(previous, i - shift, entries, lo, oldHi, newHi, checker)) return undefined;
      break;
    }
  }
  const buckets = new Int32Array(entries.keys.length);
  buckets.set(previous.buckets.subarray(0, lo));
  buckets.set(windowBuckets, lo);
  buckets.set(previous.buckets.subarray(oldHi), newHi);

  const decided: Decided = new Map();
  const moved = (j: number) => (j < lo ? j : j + shift);
  for (const [i, c] of previous.decided) {
    if (i >= lo && i < oldHi) continue;
    const at = moved(i);
    if (at >= lo && affected.has(buckets[at]!)) continue;
    decided.set(at, c.kind === 'covered' && shift !== 0 ? { kind: 'covered', by: c.by.map(moved) } : c);
  }

  // Walk only the touched buckets and the wild keys (their candidates), in table order.
  const touched = new Uint8Array(ids.size);
  for (const b of affected) touched[b] = 1;
  const walked = walkedIndexes(buckets, touched);
  const walk = new CoverageWalk(checker, memo, walked.map((i) => entries.keys[i]!));
  for (let p = 0; p < walked.length; p++) {
    const i = walked[p];
    if (i < lo || buckets[i]! < 0) {
      walk.skip(p);
      continue;
    }
    const c = walk.coverage(p);
    if (c.kind === 'covered') decided.set(i, { kind: 'covered', by: c.by.map((q) => walked[q]) });
    else if (c.kind === 'empty') decided.set(i, c);
    yield;
  }
  const witnesses = new Map<number, string>();
  for (const [i, w] of previous.witnesses) if (i < lo || i >= oldHi) witnesses.set(moved(i), w);
  return { entries: keptColumns(entries), segmentIds: ids, buckets, wild, witnesses, decided, conditional: false };
}
