import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { MethodIndex } from '../../runtime/methods';
import type { CallSite, RouteRecord } from '../../library/records';
import type { RecordedSite } from '../../runtime/call-site';
import type { Places } from '../../evaluate/places';
import type { Steps } from '../../util/steps';
import { StepsMemo } from '../../util/steps-memo';

/**
 * Every record of an evaluation by the call that created it and by the calls it ran inside. A
 * record is named by its place among the evaluation's records, method by method in creation
 * order (0, 1, 2…): what is derived per record and method is kept in arrays by it. Places, not an
 * object per record and method: a context-heavy file of 10,000 declarations has 270,000 of them.
 */
export class RecordsBySite {
  constructor(
    private readonly evaluation: FileEvaluation,
    /** Places of the records each call created itself, by call start offset, method by method in creation order. */
    readonly own: ReadonlyMap<number, readonly number[]>,
    /** Places of the records created while a call's callback ran (prefix() closures, `$nested` callables). */
    readonly inside: ReadonlyMap<number, readonly number[]>,
    /** The place of each method's first record (see recordAt); a method without records has the next one's. */
    private readonly firsts: readonly number[],
    /** How many records there are. */
    readonly count: number,
    /** The last `Route::map()` call, if any. */
    readonly lastMap: CallSite | undefined,
  ) {}

  /** The method of the record at a place. */
  methodAt(i: number): MethodIndex {
    let m = this.firsts.length - 1;
    while (m > 0 && this.firsts[m]! > i) m--;
    return m as MethodIndex;
  }

  /** The record at a place. */
  recordAt(i: number): RouteRecord {
    const m = this.methodAt(i);
    return createdUnder(this.evaluation, m)[i - this.firsts[m]!]!;
  }
}

function createdUnder(evaluation: FileEvaluation, m: number): readonly RouteRecord[] {
  return evaluation.methods[m]?.library?.created ?? [];
}

const memo = new StepsMemo<FileEvaluation, RecordsBySite>(build);

/** The index of an evaluation, built once: hovers, outlines and lenses all read it. */
export function recordsBySite(evaluation: FileEvaluation): RecordsBySite {
  return memo.get(evaluation);
}

/** recordsBySite(), pausing every few thousand records (to build it when idle). */
export function recordsBySiteSteps(evaluation: FileEvaluation): Steps<RecordsBySite> {
  return memo.steps(evaluation);
}

function* build(evaluation: FileEvaluation): Steps<RecordsBySite> {
  const maps = (evaluation.calls ?? []).filter((c) => c.site.method === 'map');
  const places = evaluation.places;
  const methods = (evaluation.methods ?? []).length;
  let count = 0;
  for (let m = 0; m < methods; m++) count += createdUnder(evaluation, m).length;
  // Two passes: each call's list is made at its final length. Grown one push at a time, the lists
  // of a context-heavy file of 1,000 declarations were 4.5 MB of garbage per version.
  const NOT_HERE = -1;
  const starts = new Int32Array(count);
  const ownCounts = new Map<number, number>();
  const insideCounts = new Map<number, number>();
  /** Places with calls they ran inside, and those calls' starts (few: prefix() closures, `$nested` callables). */
  const insidePlaces: number[] = [];
  const insideStarts: number[] = [];
  const firsts: number[] = [];
  let n = 0;
  for (let m = 0; m < methods; m++) {
    firsts.push(n);
    for (const record of createdUnder(evaluation, m)) {
      const start = places.start(record.site);
      // Offsets into an included file are not places in this document.
      starts[n] = record.site.placed.span.file ? NOT_HERE : start;
      if (starts[n] !== NOT_HERE) ownCounts.set(start, (ownCounts.get(start) ?? 0) + 1);
      // Without a Set per record: `via` is almost always empty or one call long. A site on it
      // twice (recursion), or the record's own, counts once.
      const via = record.via;
      for (let i = 0; i < via.length; i++) {
        const v = places.start(via[i]!);
        if (via[i]!.placed.span.file || v === start || seenBefore(via, i, v, places)) continue;
        insidePlaces.push(n);
        insideStarts.push(v);
        insideCounts.set(v, (insideCounts.get(v) ?? 0) + 1);
      }
      if ((++n & 4095) === 0) yield;
    }
  }
  // Filled from the back, so that each list's count, taken down, is its next free slot.
  const own = listsOf(ownCounts);
  for (let i = count - 1; i >= 0; i--) if (starts[i] !== NOT_HERE) putBack(own, ownCounts, starts[i]!, i);
  const inside = listsOf(insideCounts);
  for (let k = insidePlaces.length - 1; k >= 0; k--) putBack(inside, insideCounts, insideStarts[k]!, insidePlaces[k]!);
  const lastMap = maps[maps.length - 1]?.site;
  return new RecordsBySite(evaluation, own, inside, firsts, n, lastMap && places.site(lastMap));
}

/** Whether a call before `i` on `via` starts at `v`. */
function seenBefore(via: readonly RecordedSite[], i: number, v: number, places: Places): boolean {
  for (let j = 0; j < i; j++) if (places.start(via[j]!) === v) return true;
  return false;
}

/** A list of its final length for each count. */
function listsOf(counts: ReadonlyMap<number, number>): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const [start, c] of counts) lists.set(start, new Array<number>(c).fill(0));
  return lists;
}

/** Puts `place` in the last free slot of `start`'s list (`left` counts the slots still free). */
function putBack(lists: ReadonlyMap<number, number[]>, left: Map<number, number>, start: number, place: number): void {
  const slot = left.get(start)! - 1;
  left.set(start, slot);
  lists.get(start)![slot] = place;
}
