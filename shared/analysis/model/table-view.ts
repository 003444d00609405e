import { keyToString, type Key, type PhpArray, type Value } from '../../runtime/values';
import type { EntryOriginInfo } from '../../library/records';
import { changedWindow, isUnchanged, type ChangedWindow } from '../../util/changed-window';
import { runSteps, type Steps } from '../../util/steps';
import { MappedRoutes } from '../../library/mapped-routes';
import { samePrint } from '../../library/record-table';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { DocumentPart } from '../../evaluate/document-state';

/** One method's `$route` as arrays, read once per evaluation and shared by the checks. */
export interface TableView {
  readonly keys: readonly string[];
  readonly values: readonly Value[];
  readonly origins: readonly (EntryOriginInfo | undefined)[];
}

const views = new WeakMap<PhpArray, TableView>();

/**
 * The view of `routes`, one of `evaluation`'s tables (a method's `$route`): the same object for
 * the same table, and for a table of a later version of the document whose routes are the same
 * (see RecentViews).
 */
export function tableView(evaluation: FileEvaluation, routes: PhpArray): TableView {
  let view = views.get(routes);
  if (!view) {
    const layout = routes.viewSource instanceof MappedRoutes ? routes.viewSource.layout() : undefined;
    if (layout) {
      const recent = evaluation.lineage.part(RECENT_VIEWS);
      view = recent.earlier(layout) ?? readView(routes);
      recent.remember(view, layout);
    } else view = readView(routes);
    views.set(routes, view);
  }
  return view;
}

/** A key as the view holds it (integer keys as strings). */
function viewKey(key: Key): string {
  return typeof key === 'string' ? key : keyToString(key);
}

function readView(routes: PhpArray): TableView {
  // Sized up front: tens of thousands of pushes would grow and copy each array again and again.
  const size = routes.size;
  const keys: string[] = new Array(size);
  const values: Value[] = new Array(size);
  const origins: (EntryOriginInfo | undefined)[] = new Array(size);
  let i = 0;
  routes.forEachEntry((value, key, origin) => {
    keys[i] = viewKey(key);
    values[i] = value;
    origins[i] = origin as EntryOriginInfo | undefined;
    i++;
  });
  if (i !== size) keys.length = values.length = origins.length = i;
  return { keys, values, origins };
}

type Layout = NonNullable<ReturnType<MappedRoutes['layout']>>;

/**
 * The views of a document's last evaluations' tables, with what they were read from (a part of
 * its DocumentState). An edit leaves most methods' tables as they were: the same input entries
 * over a table of the same records (its TablePrint), so the earlier view is the view, without
 * reading tens of thousands of routes again and without comparing them (viewChanges answers at
 * once for the same view). Methods whose tables are alike share one view too.
 */
export class RecentViews {
  private readonly recent: { view: TableView; layout: Layout }[] = [];

  remember(view: TableView, layout: Layout): void {
    const recent = this.recent;
    if (recent.some((r) => r.view === view)) return;
    recent.push({ view, layout });
    if (recent.length > KEPT_VIEWS) recent.shift();
  }

  earlier(now: Layout): TableView | undefined {
    const recent = this.recent;
    for (let r = recent.length - 1; r >= 0; r--) {
      const { view, layout } = recent[r];
      if (!samePrint(layout.table, now.table)) continue;
      if (layout.input.size !== now.input.size || (layout.added?.size ?? 0) !== (now.added?.size ?? 0)) continue;
      const tableSize = view.keys.length - layout.input.size - (layout.added?.size ?? 0);
      if (sameInput(view, layout.input, now.input) && (!now.added || sameEntries(view, layout.input.size + tableSize, now.added))) return view;
    }
    return undefined;
  }
}

const KEPT_VIEWS = 32;

/** The table views a document keeps between versions. */
export const RECENT_VIEWS: DocumentPart<RecentViews> = { name: 'tableViews', make: () => new RecentViews() };

/** Whether two inputs of map() hold the same entries, compared once per pair (every method's map() reads the same `$route`). */
const inputsCompared = new WeakMap<PhpArray, WeakMap<PhpArray, boolean>>();

function sameInput(view: TableView, earlier: PhpArray, now: PhpArray): boolean {
  if (earlier === now) return true;
  let answers = inputsCompared.get(now);
  if (!answers) inputsCompared.set(now, (answers = new WeakMap()));
  let same = answers.get(earlier);
  // The view begins with the earlier input's entries.
  if (same === undefined) answers.set(earlier, (same = sameEntries(view, 0, now)));
  return same;
}

/** Whether `array`'s entries are the view's from index `from` on: same keys, values and origins. */
function sameEntries(view: TableView, from: number, array: PhpArray): boolean {
  let i = from;
  let same = true;
  array.forEachEntry((value, key, origin) => {
    if (!same) return;
    same = view.values[i] === value && view.origins[i] === origin && view.keys[i] === viewKey(key);
    i++;
  });
  return same;
}

/**
 * Keyed by the earlier view, holding the later: the other way round, every view held the one
 * before it, and an editor's views of every version it ever analysed stayed alive (about 1 MB
 * per edit of the 10,000-declaration file, each edit at a different statement).
 */
const changes = new WeakMap<TableView, { view: TableView; window: ChangedWindow }>();

/**
 * Where `view` differs from `previous` (entries compared as sameEntry does), computed once for
 * every check that asks about the same two versions of a table.
 */
export function viewChanges(previous: TableView, view: TableView): ChangedWindow {
  // The same view again (see earlierView): nothing to compare.
  if (previous === view) return { lo: view.keys.length, oldHi: view.keys.length, newHi: view.keys.length };
  const known = changes.get(previous);
  if (known?.view === view) return known.window;
  const window = changedWindow(previous.keys.length, view.keys.length, (i, j) => sameEntry(previous, i, view, j));
  changes.set(previous, { view, window });
  return window;
}

/** A judgement of one entry of a table (see EntryResults): what `scope` and the entry alone decide. */
export type EntryJudge<R, S> = (view: TableView, i: number, scope: S) => R | undefined;

/**
 * Per-entry results of one check over a document's tables, for its successive versions (a field
 * of the check's part of the DocumentState): after an edit only the entries between the first and
 * the last changed one are judged again, the others' results are carried over (moved). A result
 * must depend on the entry alone (key, value, what kind of declaration made it), never hold a
 * span: spans are read from the current origins.
 */
export class EntryResults<R, S = undefined> {
  /** The last results, by method. */
  private readonly snapshots = new Map<number, Snapshot<R, S>>();

  /**
   * @param scope what results also depend on (e.g. the controller catalog), handed to the
   * judgement: a different scope judges everything again
   */
  of(view: TableView, method: number, scope: S, judge: EntryJudge<R, S>): ReadonlyMap<number, R> {
    return runSteps(this.ofSteps(view, method, scope, judge));
  }

  /** of(), pausing every few judgements. */
  *ofSteps(view: TableView, method: number, scope: S, judge: EntryJudge<R, S>): Steps<ReadonlyMap<number, R>> {
    const previous = this.snapshots.get(method);
    const results = previous && previous.scope === scope && previous.judge === judge ? yield* update(previous, view, judge) : yield* judgeRange(view, 0, view.keys.length, scope, judge, new Map());
    this.snapshots.set(method, { view, results, scope, judge });
    return results;
  }
}

function* judgeRange<R, S>(view: TableView, from: number, to: number, scope: S, judge: EntryJudge<R, S>, into: Map<number, R>): Steps<Map<number, R>> {
  for (let i = from; i < to; i++) {
    const r = judge(view, i, scope);
    if (r !== undefined) into.set(i, r);
    if ((i & 63) === 63) yield;
  }
  return into;
}

function* update<R, S>(previous: Snapshot<R, S>, view: TableView, judge: EntryJudge<R, S>): Steps<Map<number, R>> {
  const window = viewChanges(previous.view, view);
  // Results are read, never written, once made: an unchanged table shares them.
  if (isUnchanged(window)) return previous.results;
  const { lo, oldHi, newHi } = window;
  // Built in table order (checks list findings' examples in that order).
  const results = new Map<number, R>();
  for (const [i, r] of previous.results) if (i < lo) results.set(i, r);
  yield* judgeRange(view, lo, newHi, previous.scope, judge, results);
  for (const [i, r] of previous.results) if (i >= oldHi) results.set(i + newHi - oldHi, r);
  return results;
}

interface Snapshot<R, S> {
  view: TableView;
  results: Map<number, R>;
  scope: S;
  judge: EntryJudge<R, S>;
}

/**
 * The same input to a per-entry judgement: same key and value, made the same way (the same kind
 * of call and expansion row, for a route), wherever it was written: statements evaluated again
 * make new origin objects for the same routes, and results never hold spans.
 */
function sameEntry(a: TableView, i: number, b: TableView, j: number): boolean {
  if (a.keys[i] !== b.keys[j] || a.values[i] !== b.values[j]) return false;
  const x = a.origins[i];
  const y = b.origins[j];
  if (x === y) return true;
  if (x === undefined || y === undefined || x.kind !== y.kind) return false;
  if (x.kind !== 'route' || y.kind !== 'route') return true;
  return x.site.method === y.site.method && x.row === y.row && x.dynamic === y.dynamic;
}
