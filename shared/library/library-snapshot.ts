import { NamedRoutes } from './named-routes';
import { RecordTable, type FrozenTable } from './record-table';
import { RecordMarks, type FrozenMarks } from './record-marks';
import type { CallTick, RouteRecord } from './records';
import { MethodState, type RouteLibrary } from './route-library';

interface SavedState {
  readonly routes: FrozenTable;
  readonly marks: FrozenMarks;
  /** Where the names start in `created` (see NamedRoutes). */
  readonly namedFrom: number;
  readonly created: readonly RouteRecord[];
  readonly callTicks: readonly number[];
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
}

/**
 * The library's state, copied (the tables and marks frozen: they and those restored later share
 * their entries); undefined when it is not at the top level (a prefix or `$nested` callable
 * running) or when a view of a table reads it as it is (`$route` right after map()), since the
 * copy would not be what the view reads.
 */
export function snapshotLibrary(library: RouteLibrary): LibrarySnapshot | undefined {
  if (!library.isClean() || library.states.some((s) => s.routes.hasReaders)) return undefined;
  return { states: library.states.map((s) => savedState(s, s.routes.freeze(), s.marks.freeze())) };
}

/** A method's state with the given frozen routes and marks, its lists copied. */
export function savedState(s: MethodState, routes: FrozenTable, marks: FrozenMarks): SavedState {
  return {
    routes,
    marks,
    namedFrom: s.named.from,
    created: s.created.slice(),
    callTicks: s.callTicks.slice(),
    createdNested: s.createdNested,
    closureTarget: s.closureTarget,
    replaced: s.replaced.slice(),
    overwriting: s.overwriting.slice(),
    maps: s.maps.slice(),
    ticks: s.ticks,
  };
}

/**
 * From now on, the library works on copies of its states, which are left as they are: an
 * evaluation handed out holds them (a closure the URL tester calls declares routes into the copies).
 */
export function detachStates(library: RouteLibrary): void {
  library.states.forEach((s, m) => {
    const copy = new MethodState();
    restoreState(copy, savedState(s, s.routes.frozenCopy(), s.marks.merged()));
    copy.prefix = s.prefix;
    copy.nestedPrefix = s.nestedPrefix;
    copy.nestedDepth = s.nestedDepth;
    library.states[m] = copy;
  });
}

/** Puts a fresh library into the snapshot's state; the snapshot stays as it is, to be restored again. */
export function restoreLibrary(library: RouteLibrary, snapshot: LibrarySnapshot): void {
  library.states.forEach((state, m) => {
    restoreState(state, snapshot.states[m]);
    state.routes.recall = library.recentTables;
  });
}

function restoreState(state: MethodState, saved: SavedState): void {
  state.routes = RecordTable.on(saved.routes);
  state.marks = RecordMarks.on(saved.marks);
  state.created = saved.created.slice();
  state.callTicks = saved.callTicks.slice();
  state.named = new NamedRoutes(() => state.created, saved.namedFrom);
  state.createdNested = saved.createdNested;
  state.closureTarget = saved.closureTarget;
  state.replaced = saved.replaced.slice();
  state.overwriting = saved.overwriting.slice();
  state.maps = saved.maps.slice();
  state.ticks = saved.ticks;
}
