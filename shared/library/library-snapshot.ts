import { NamedRoutes } from './named-routes';
import { RecordTable, type FrozenTable } from './record-table';
import { clearMarks, type CallTick, type RouteRecord } from './records';
import type { RouteLibrary } from './route-library';

/** A record's fields that later statements write, as they were when the snapshot was taken. */
interface RecordMarks {
  readonly record: RouteRecord;
  readonly replacedBy: RouteRecord['replacedBy'];
  readonly reset: RouteRecord['reset'];
  readonly overwrote: RouteRecord['overwrote'];
}

interface SavedState {
  readonly routes: FrozenTable;
  /** Where the names start in `created` (see NamedRoutes). */
  readonly namedFrom: number;
  readonly created: readonly RouteRecord[];
  readonly createdNested: boolean;
  readonly closureTarget: boolean;
  readonly replaced: readonly RouteRecord[];
  readonly overwriting: readonly RouteRecord[];
  readonly maps: readonly CallTick[];
  readonly ticks: number;
}

/** The library's state between two top-level statements, unchanged by what runs after (see evaluate/checkpoint.ts). */
export interface LibrarySnapshot {
  readonly states: readonly SavedState[];
  /** Only the records whose marks are set: nearly all are not. */
  readonly marks: readonly RecordMarks[];
}

/**
 * The library's state, copied (the tables frozen: they and the tables restored later share their routes); undefined when it is not at the top level (a prefix or `$nested`
 * callable running) or when a view of a table reads it as it is (`$route` right after map()),
 * since the copy would not be what the view reads.
 */
export function snapshotLibrary(library: RouteLibrary): LibrarySnapshot | undefined {
  if (!library.isClean() || library.states.some((s) => s.routes.hasReaders)) return undefined;
  const marks: RecordMarks[] = [];
  const states = library.states.map((s): SavedState => {
    for (const record of s.created) {
      const { replacedBy, reset, overwrote } = record;
      if (replacedBy || reset || overwrote) marks.push({ record, replacedBy, reset, overwrote });
    }
    return {
      routes: s.routes.freeze(),
      namedFrom: s.named.from,
      created: s.created.slice(),
      createdNested: s.createdNested,
      closureTarget: s.closureTarget,
      replaced: s.replaced.slice(),
      overwriting: s.overwriting.slice(),
      maps: s.maps.slice(),
      ticks: s.ticks,
    };
  });
  return { states, marks };
}

/** Puts a fresh library into the snapshot's state; the snapshot stays as it is, to be restored again. */
export function restoreLibrary(library: RouteLibrary, snapshot: LibrarySnapshot): void {
  library.states.forEach((state, m) => {
    const saved = snapshot.states[m];
    state.routes = RecordTable.on(saved.routes);
    state.created = saved.created.slice();
    state.named = new NamedRoutes(() => state.created, saved.namedFrom);
    state.createdNested = saved.createdNested;
    state.closureTarget = saved.closureTarget;
    state.replaced = saved.replaced.slice();
    state.overwriting = saved.overwriting.slice();
    state.maps = saved.maps.slice();
    state.ticks = saved.ticks;
    // Statements after the snapshot marked these records (replaced, reset, written over an entry): they will again.
    const created = saved.created;
    for (let i = 0; i < created.length; i++) clearMarks(created[i]);
  });
  for (const { record, replacedBy, reset, overwrote } of snapshot.marks) {
    record.replacedBy = replacedBy;
    record.reset = reset;
    record.overwrote = overwrote;
  }
}
