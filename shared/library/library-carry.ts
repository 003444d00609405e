import type { LibrarySnapshot } from './library-snapshot';
import { RecordTable } from './record-table';
import type { RouteRecord } from './records';
import type { MethodState } from './route-library';

/**
 * The Route library's static state a route file left, for a file PHP includes after it in the
 * same request: Bonfire includes a module's `config/routes.php` after the main one with the class
 * already loaded, so the module's `Route::map()` also returns what the main file registered.
 *
 * The records are copied (ids kept): what the later file does to them (replaced, reset, written
 * over an entry) must not show in the earlier file's evaluation, which editors keep analysing.
 * The library's prefixes are not carried: a file that ends inside `prefix()` has stopped the request.
 */
export function carriedLibrary(states: readonly MethodState[]): LibrarySnapshot {
  const marked: { record: RouteRecord; replacedBy: RouteRecord['replacedBy']; reset: RouteRecord['reset']; overwrote: RouteRecord['overwrote'] }[] = [];
  const carried = states.map((state) => {
    const copies = new Map<RouteRecord, RouteRecord>();
    const created = state.created.map((record) => {
      const copy: RouteRecord = { ...record, storedOver: undefined, foundBelow: undefined };
      copies.set(record, copy);
      return copy;
    });
    for (const copy of created) {
      const replacedBy = copy.replacedBy && (copies.get(copy.replacedBy) ?? copy.replacedBy);
      if (replacedBy || copy.reset || copy.overwrote) marked.push({ record: copy, replacedBy, reset: copy.reset, overwrote: copy.overwrote });
    }
    const table = new RecordTable();
    state.routes.forEachEntry((_to, _key, record) => table.store(copies.get(record) ?? { ...record }));
    return {
      routes: table.freeze(),
      namedFrom: state.named.from,
      created,
      createdNested: state.createdNested,
      closureTarget: state.closureTarget,
      replaced: state.replaced.map((r) => copies.get(r) ?? r),
      overwriting: state.overwriting.map((r) => copies.get(r) ?? r),
      maps: state.maps.slice(),
      ticks: state.ticks,
    };
  });
  return { states: carried, marks: marked };
}
