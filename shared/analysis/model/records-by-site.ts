import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { MethodIndex } from '../../runtime/methods';
import type { CallSite, RouteRecord } from '../../library/records';
import type { Steps } from '../../util/steps';
import { StepsMemo } from '../../util/steps-memo';

export interface SiteRecord {
  m: MethodIndex;
  record: RouteRecord;
  /** Its place among the evaluation's records (0, 1, 2…): what is derived per record is kept in arrays by it. */
  i: number;
}

/** Every record of an evaluation by the call that created it and by the calls it ran inside. */
export interface RecordsBySite {
  /** Records each call created itself, by call start offset, method by method in creation order. */
  own: ReadonlyMap<number, readonly SiteRecord[]>;
  /** Records created while a call's callback ran (prefix() closures, `$nested` callables). */
  inside: ReadonlyMap<number, readonly SiteRecord[]>;
  /** The last `Route::map()` call, if any. */
  lastMap: CallSite | undefined;
  /** How many records there are (see SiteRecord.i). */
  count: number;
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
  const own = new Map<number, SiteRecord[]>();
  const inside = new Map<number, SiteRecord[]>();
  const maps = (evaluation.calls ?? []).filter((c) => c.site.method === 'map');
  const places = evaluation.places;
  let n = 0;
  for (let m = 0; m < (evaluation.methods ?? []).length; m++) {
    for (const record of evaluation.methods[m]?.library?.created ?? []) {
      const entry: SiteRecord = { m: m as MethodIndex, record, i: n };
      const start = places.start(record.site);
      // Offsets into an included file are not places in this document.
      if (!record.site.placed.span.file) push(own, start, entry);
      // Without a Set per record: `via` is almost always empty or one call long. A site on it
      // twice (recursion), or the record's own, counts once.
      const via = record.via;
      for (let i = 0; i < via.length; i++) {
        const v = places.start(via[i]!);
        if (via[i]!.placed.span.file || v === start || via.slice(0, i).some((x) => places.start(x) === v)) continue;
        push(inside, v, entry);
      }
      if ((++n & 4095) === 0) yield;
    }
  }
  const lastMap = maps[maps.length - 1]?.site;
  return { own, inside, lastMap: lastMap && places.site(lastMap), count: n };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
