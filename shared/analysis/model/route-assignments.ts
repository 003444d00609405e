import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { keyToString, type Key, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import type { AssignmentOrigin, EntryOriginInfo, EntryPlace, LiteralOrigin } from '../../library/records';
import type { RecordMarks } from '../../library/record-marks';

/**
 * The entries written straight into `$route` (`$route['x'] = 'y';`, or elements of an
 * `array(...)` assigned to it), found through the origins the final tables keep, including
 * entries a later write or map() replaced.
 */
export interface RouteAssignment {
  origin: AssignmentOrigin | LiteralOrigin;
  /** Where it is in the evaluation's text. */
  place: EntryPlace;
  key: string;
  /** The value where the entry is in the final `$route` (the first such method's). */
  value?: Value;
  /** Methods whose final `$route` holds this entry. */
  methods: RequestMethod[];
  /** Why it is in no final `$route`, when it is in none. */
  lost?: 'replaced' | 'overwritten by map()';
}

export function routeAssignments(evaluation: FileEvaluation): RouteAssignment[] {
  const byStart = new Map<number, RouteAssignment>();
  const note = (origin: EntryOriginInfo, key: Key, method?: RequestMethod, value?: Value, lost?: RouteAssignment['lost']): void => {
    // Entries written by an included file are not places in this document.
    if (origin.kind === 'route') return;
    const place = evaluation.places.entry(origin);
    if (place.span.file) return;
    let a = byStart.get(place.span.start);
    if (!a) {
      a = { origin, place, key: keyToString(key), methods: [] };
      byStart.set(place.span.start, a);
    }
    if (method) {
      if (!a.methods.includes(method)) a.methods.push(method);
      if (a.value === undefined) a.value = value;
    } else if (lost && a.lost === undefined) {
      a.lost = lost;
    }
  };
  // Entries earlier writes or map() replaced: the chain is short, but guard against cycles.
  const walkReplaced = (start: EntryOriginInfo | undefined, key: Key, marks: RecordMarks | undefined): void => {
    const seen = new Set<EntryOriginInfo>();
    let o = start;
    while (o && !seen.has(o)) {
      seen.add(o);
      let next: EntryOriginInfo | undefined;
      if (o.kind === 'assignment') next = o.replaced;
      else if (o.kind === 'route') {
        const overwrote = marks?.overwrote(o);
        if (overwrote) {
          note(overwrote, key, undefined, undefined, 'overwritten by map()');
          next = overwrote.kind === 'assignment' ? overwrote.replaced : undefined;
        }
      }
      if (next && next.kind !== 'route') note(next, key, undefined, undefined, 'replaced');
      o = next;
    }
  };
  (evaluation.methods ?? []).forEach((result, m) => {
    const routes = result?.routes;
    // One pass reading each entry's origin with it (a lookup per key costs as much again on a large table).
    const overwrites = result?.library?.marks.anyOverwrote ?? false;
    routes?.forEachEntry((v, k, entryOrigin) => {
      const origin = entryOrigin as EntryOriginInfo | undefined;
      if (!origin) return;
      note(origin, k, REQUEST_METHODS[m], v);
      // Most entries replaced nothing: no walk (nor its set) for them.
      if (origin.kind === 'assignment' ? origin.replaced : origin.kind === 'route' && overwrites) walkReplaced(origin, k, result.library?.marks);
    });
    const marks = result?.library?.marks;
    for (const record of result?.library?.overwriting ?? []) walkReplaced(record, record.key, marks);
  });
  const out = [...byStart.values()].sort((a, b) => a.place.span.start - b.place.span.start);
  for (const a of out) {
    a.methods = REQUEST_METHODS.filter((x) => a.methods.includes(x));
    if (a.methods.length > 0) delete a.lost;
  }
  return out;
}
