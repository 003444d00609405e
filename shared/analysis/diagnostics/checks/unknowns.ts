import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import { isDynamicKey } from '../../../library/records';
import type { RequestMethod } from '../../../runtime/methods';
import { sortMethods } from '../../model/origins';
import { unknownRoutes, unknownTarget, type UnknownRoute } from '../../model/route-table';
import type { Check } from '../core/context';
import { finding, type Finding } from '../core/types';
import { tableView, viewChanges, type TableView } from '../../model/table-view';
import { checkState } from './document-state';

/** Whether a table's key is an unknown route's (see DYNAMIC_KEY_PREFIX, which starts with NUL). */
function unknownKey(k: string): boolean {
  return k.charCodeAt(0) === 0 && isDynamicKey(k);
}

/** How many entries of a view, between two of its indices, are unknown routes. */
function countIn(view: TableView, from: number, to: number): number {
  const { keys, values } = view;
  let n = 0;
  for (let i = from; i < to; i++) if (unknownKey(keys[i]!) || unknownTarget(values[i]!) !== undefined) n++;
  return n;
}

/** Unknown routes per view (views are reused while a table does not change). */
const counts = new WeakMap<TableView, number>();

function unknownCount(view: TableView, previous: TableView | undefined): number {
  let n = counts.get(view);
  if (n !== undefined) return n;
  const before = previous && counts.get(previous);
  if (previous && before !== undefined) {
    const w = viewChanges(previous, view);
    n = before - countIn(previous, w.lo, w.oldHi) + countIn(view, w.lo, w.newHi);
  } else n = countIn(view, 0, view.keys.length);
  counts.set(view, n);
  return n;
}

/**
 * Whether any final table holds an unknown route: counted once per table, and per edit only where
 * it changed (from the document's last views, its state's `unknownViews`).
 */
function anyUnknown(evaluation: FileEvaluation): boolean {
  const state = checkState(evaluation);
  const previous = state.unknownViews;
  const views: (TableView | undefined)[] = [];
  let found = false;
  evaluation.methods.forEach(({ routes, routesUnknown, error }, m) => {
    if (!routes) {
      if (routesUnknown && !error) found = true;
      return;
    }
    const view = (views[m] = tableView(evaluation, routes));
    if (unknownCount(view, previous[m]) > 0) found = true;
  });
  state.unknownViews = views;
  return found;
}

/**
 * `dynamic-route`: one finding per route whose path or target cannot be known statically (read
 * from a database, config_item(), an unknown function). It stands somewhere in the table all
 * the same: the checks conclude nothing it could change, and `match` says it may come first.
 */
export const unknownRouteFindings: Check = ({ evaluation }) => {
  if (!anyUnknown(evaluation)) return [];
  // One per declaration (a resources() call with an unknown name makes several rows), its methods joined.
  const byPlace = new Map<string, { route: UnknownRoute; methods: Set<RequestMethod> }>();
  for (const u of unknownRoutes(evaluation)) {
    if (!u.span) continue;
    // Places in a file the route file included are that file's offsets.
    const at = `${u.span.file?.path ?? ''}:${u.span.start}`;
    const place = byPlace.get(at) ?? byPlace.set(at, { route: u, methods: new Set() }).get(at)!;
    for (const m of u.methods) place.methods.add(m);
  }
  const out: Finding[] = [];
  for (const { route, methods } of byPlace.values()) {
    const consequence = route.pathUnknown ? 'checks skip this route, and it may take any URI first' : 'its target is not checked';
    out.push(finding('dynamic-route', route.span!, `Not known statically: ${route.reason}.`, { methods: sortMethods(methods), details: /constant /.test(route.reason) ? `${consequence}; a ciRoutes.constants entry (or --define) makes it known` : consequence }));
  }
  return out;
};
