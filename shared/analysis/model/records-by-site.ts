import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { MethodIndex } from '../../runtime/methods';
import type { CallSite, RouteRecord } from '../../library/records';
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
  const own = new Map<number, number[]>();
  const inside = new Map<number, number[]>();
  const firsts: number[] = [];
  const maps = (evaluation.calls ?? []).filter((c) => c.site.method === 'map');
  const places = evaluation.places;
  let n = 0;
  for (let m = 0; m < (evaluation.methods ?? []).length; m++) {
    firsts.push(n);
    for (const record of createdUnder(evaluation, m)) {
      const start = places.start(record.site);
      // Offsets into an included file are not places in this document.
      if (!record.site.placed.span.file) push(own, start, n);
      // Without a Set per record: `via` is almost always empty or one call long. A site on it
      // twice (recursion), or the record's own, counts once.
      const via = record.via;
      for (let i = 0; i < via.length; i++) {
        const v = places.start(via[i]!);
        if (via[i]!.placed.span.file || v === start || via.slice(0, i).some((x) => places.start(x) === v)) continue;
        push(inside, v, n);
      }
      if ((++n & 4095) === 0) yield;
    }
  }
  const lastMap = maps[maps.length - 1]?.site;
  return new RecordsBySite(evaluation, own, inside, firsts, n, lastMap && places.site(lastMap));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
