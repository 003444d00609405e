import { savedState, type LibrarySnapshot } from './library-snapshot';
import type { MethodState } from './route-library';

/**
 * The Route library's static state a route file left, for a file PHP includes after it in the
 * same request: Bonfire includes a module's `config/routes.php` after the main one with the class
 * already loaded, so the module's `Route::map()` also returns what the main file registered.
 *
 * Records never change and what later statements do to them is kept in the later file's own
 * marks (see RecordMarks): what the later file does (replace, reset, write over an entry) does
 * not show in the earlier file's evaluation, which editors keep analysing. The earlier file's
 * tables and marks are read, never changed (it is an evaluation handed out). The library's prefixes are not
 * carried: a file that ends inside `prefix()` has stopped the request.
 */
export function carriedLibrary(states: readonly MethodState[]): LibrarySnapshot {
  return { states: states.map((state) => savedState(state, state.routes.frozenCopy(), state.marks.merged())) };
}
