import type { Span } from '../../php/ast';
import type { FileEvaluation, MethodResult } from '../../evaluate/evaluate-file';
import type { Places } from '../../evaluate/places';
import type { CallSite, EntryOriginInfo, RouteRecord } from '../../library/records';
import { wasMapped } from '../../library/record-marks';

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

const ACTIVE: Fate = Object.freeze({ kind: 'active' });

/** Where an analysis limit stopped the evaluation, if one did (see EvalProblem.stops). */
export function stopOf(evaluation: FileEvaluation): Span | undefined {
  return evaluation.problems.find((p) => p.stops)?.span;
}

/** What finally happened to a route under one method: hovers, the outline and lenses all say this. */
export function fateOf(record: RouteRecord, result: MethodResult | undefined, lastMap: CallSite | undefined, places: Places, stop?: Span): Fate {
  const marks = result?.library.marks;
  const reset = marks?.resetBy(record);
  if (reset) return { kind: 'reset', at: places.site(reset.site) };
  const final = result?.routes?.originOf(record.key);
  if (final === record) return ACTIVE;
  const replacedBy = marks?.replacedBy(record);
  if (replacedBy) return { kind: 'replaced', by: replacedBy };
  // A fatal error stops the script: nothing reaches CodeIgniter's router.
  if (result?.error && result.error.class !== 'ParseError') return { kind: 'error', message: `${result.error.class}: ${result.error.message}`, at: result.error.span };
  if (!result || !wasMapped(record, result.library)) return stop ? { kind: 'unknown', stop } : { kind: 'not-mapped', lastMap };
  return { kind: 'overwritten', by: final as EntryOriginInfo | undefined };
}

/** Why a route is not in `$route`, in a few words. */
export function lostReason(fate: Fate, methodFailed: boolean): string {
  switch (fate.kind) {
    case 'active':
      return 'active';
    case 'replaced':
      return 'replaced';
    case 'reset':
      return 'reset';
    case 'not-mapped':
      if (methodFailed) return 'lost to an error';
      return fate.lastMap ? 'lost after map()' : 'not mapped';
    case 'unknown':
      return 'unknown (analysis stopped)';
    case 'overwritten':
      return fate.by ? 'overwritten in $route' : 'not in $route';
    case 'error':
      return 'lost to an error';
  }
}
