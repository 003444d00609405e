import type { Places } from '../../../evaluate/places';
import { orderVariesBetween } from '../../../evaluate/evaluate-file';
import { PhpArray, keyToString, type Value } from '../../../runtime/values';
import { tableView, viewChanges, type TableView } from '../../model/table-view';
import { isUnchanged, type ChangedWindow } from '../../../util/changed-window';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import { isDynamicKey, type EntryOriginInfo } from '../../../library/records';
import { ROUTER_SETTING_KEYS } from '../../../router/ci-router';
import { InclusionChecker } from '../../regular/inclusion';
import { literalKey } from '../../regular/inclusion-syntax';
import { keyWithinDefaultChars } from '../../regular/default-chars-keys';
import { decideTable, type TableEntries, type TableKeys } from './reachability-decisions';
import { checkState, reachabilityState, type DocumentDecisions, type TableDecisions } from './document-state';
import { steppedCheck, type Check } from '../core/context';
import { MethodGroups, branchesOf, describeMethods, fromSpan } from '../../model/origins';
import { finding, type Finding } from '../core/types';
import { StatementFixes } from '../core/statement-fixes';




/** One entry CodeIgniter tries under a method, as a finding reads it. */
interface TableEntry {
  readonly key: string;
  readonly origin: EntryOriginInfo;
  readonly blocked: boolean;
}

/** The entries CodeIgniter tries under a method, in view order from `from` to `to`, with the view index of each. */
interface Candidates {
  keys: string[];
  blocked: number[];
  at: number[];
  /** A route whose key is unknown stopped the list (it may match anything: what follows cannot be judged). */
  cut: boolean;
}

/** The entries CodeIgniter tries under a method, in order (verb arrays without the verb are skipped), with the view index of each. */
function candidates(view: TableView, method: RequestMethod, from = 0, to = view.keys.length): Candidates {
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  const keys: string[] = [];
  const blocked: number[] = [];
  const at: number[] = [];
  const { values, origins } = view;
  for (let i = from; i < to; i++) {
    const key = view.keys[i];
    if (ROUTER_SETTING_KEYS.has(key)) continue;
    const origin = origins[i];
    if (!origin) continue;
    // A route whose path is unknown may match anything: what follows it cannot be judged.
    if ((origin.kind === 'route' && origin.dynamic) || isDynamicKey(key)) return { keys, blocked, at, cut: true };
    let value: Value = values[i];
    if (value instanceof PhpArray) {
      const hit = [...value.entries()].find(([vk]) => keyToString(vk).toLowerCase() === verb);
      if (!hit) continue;
      value = hit[1];
    }
    keys.push(key);
    blocked.push(value === '' && origin.kind === 'route' && origin.site.method === 'block' ? 1 : 0);
    at.push(i);
  }
  return { keys, blocked, at, cut: false };
}

/** Candidates as decideTable reads them: each one's origin read from the view when asked for. */
function tableEntries(view: TableView, keys: readonly string[], blocked: Uint8Array, at: readonly number[]): TableEntries {
  return { keys, blocked, originAt: (i) => view.origins[at[i]!]! };
}

/**
 * The candidates of a table an edit changed between view indices `window.lo` and
 * `window.oldHi` (now `window.newHi`), from those of its previous version: the entries outside
 * the window are the same (see viewChanges), so only the window is read. Also the window in
 * candidate indices. Undefined when a route with an unknown key cut either list.
 */
function spliceCandidates(before: TableDecisions, view: TableView, method: RequestMethod, window: ChangedWindow): { entries: TableEntries; at: number[]; changed: ChangedWindow } | undefined {
  if (before.cut) return undefined;
  const middle = candidates(view, method, window.lo, window.newHi);
  if (middle.cut) return undefined;
  const old: TableKeys = before.decisions.entries;
  const oldAt = before.at;
  let p = 0;
  while (p < oldAt.length && oldAt[p] < window.lo) p++;
  let q = p;
  while (q < oldAt.length && oldAt[q] < window.oldHi) q++;
  const shift = window.newHi - window.oldHi;
  const keys = old.keys.slice(0, p).concat(middle.keys, old.keys.slice(q));
  const blocked = new Uint8Array(keys.length);
  blocked.set(old.blocked.subarray(0, p));
  blocked.set(middle.blocked, p);
  blocked.set(old.blocked.subarray(q), p + middle.keys.length);
  const at = oldAt.slice(0, p).concat(middle.at);
  for (let i = q; i < oldAt.length; i++) at.push(oldAt[i] + shift);
  return { entries: tableEntries(view, keys, blocked, at), at, changed: { lo: p, oldHi: q, newHi: p + middle.keys.length } };
}

const conditionalViews = new WeakMap<TableView, boolean>();

/** Whether a route of the table is inside an undecidable condition (its decisions then read origins, not keys alone); once per view. */
function anyConditional(view: TableView): boolean {
  let answer = conditionalViews.get(view);
  if (answer === undefined) conditionalViews.set(view, (answer = view.origins.some((o) => o !== undefined && branchesOf(o).length > 0)));
  return answer;
}

/**
 * The decisions of an earlier method's table with this very view: methods whose tables hold the
 * same routes share one view (see RecentViews), and without a verb array, whose entry depends on
 * the method, they have the same candidates, so the same decisions (a file of plain `$route`
 * entries or of any() routes is decided once, not once per method).
 */
function alikeTable(decided: DocumentDecisions, view: TableView): TableDecisions | undefined {
  for (const table of decided) if (table !== undefined && table.view === view) return view.values.some((v) => v instanceof PhpArray) ? undefined : table;
  return undefined;
}

/** prefix('') and prefix('x/') are how such keys usually come about. */
function prefixHint(o: EntryOriginInfo): string {
  if (o.kind !== 'route' || o.prefix === '') return '';
  if (o.prefix === '/') return " prefix('') puts a '/' in front of it.";
  if (o.prefix.endsWith('//')) return ` prefix('${o.prefix.slice(0, -1)}') ends with '/', and prefix() adds another.`;
  return '';
}

/** The declaration an entry comes from, whatever its row. */
function declarationOf(o: EntryOriginInfo, places: Places): string {
  if (o.kind === 'route') return `r${o.site.placed.span.file?.path ?? ''}:${places.start(o.site)}`;
  const span = places.entry(o).span;
  return `a${span.file?.path ?? ''}:${span.start}`;
}

/** New decisions since the memo last rotated, after which an analysis decides everything again and rotates it. */
const MEMO_GROWTH_LIMIT = 10_000;

/** Whether a route is in the table whenever another is: unconditional, or declared under branches the other is under too. */
function presentWhenever(coverer: EntryOriginInfo, entry: EntryOriginInfo): boolean {
  if (coverer.kind === 'literal' || !coverer.conditional) return true;
  const mine = branchesOf(coverer);
  if (mine.length === 0) return false; // conditional without a branch (a loop over unknown values): it may not be there
  const theirs = new Set(branchesOf(entry));
  return mine.every((b) => theirs.has(b));
}

/**
 * `unreachable-route`: every URI a route matches is matched first by earlier routes of the same
 * method (decided exactly on the patterns' regular languages). `shadowed-block`: the same for a
 * block() path, which therefore never blocks anything.
 *
 * Successive evaluations of one document are decided incrementally: only the buckets an edit
 * touched are decided again, from the decisions and memo of the last one (the document's
 * `reachability` state). The check holds only `checker`, whose caches are functions of the keys' text.
 */
export function reachability(
  checker: InclusionChecker = new InclusionChecker(),
  /**
   * CodeIgniter 2's router: a key written without a pattern is looked up first, wherever it
   * stands (`isset($this->routes[$uri])`), so earlier patterns never take its URI.
   */
  options: {
    literalsFirst?: boolean;
    /**
     * The application permits URI characters beyond CodeIgniter's default (see uri-chars): only
     * keys every URI of which is of the default's characters are judged (keyWithinDefaultChars).
     */
    literalKeysOnly?: boolean;
  } = {},
): Check {
  return steppedCheck('reachability', function* ({ text, evaluation, describe }) {
    // One finding per declaration: a resources() call whose routes are all taken first gets one.
    const groups = new MethodGroups<{ entry: TableEntry; by: TableEntry[]; empty: boolean; keys: Set<string> }>();
    const state = reachabilityState(checkState(evaluation), checker);
    const memo = state.memo;
    let previous = state.previous;
    const decidingAll = !previous || memo.growth > MEMO_GROWTH_LIMIT;
    if (decidingAll) {
      // Deciding everything: what this analysis uses stays in the memo, what it does not goes.
      memo.rotate();
      previous = undefined;
    }
    const current: DocumentDecisions = [];
    for (const [m, result] of evaluation.methods.entries()) {
      // After an error, the table as it was when the file stopped: what it holds is judged all the same.
      if (!result.routes) continue;
      const method = REQUEST_METHODS[m];
      const view = tableView(evaluation, result.routes);
      const before = previous?.[m];
      let table: TableDecisions | undefined = alikeTable(current, view);
      if (!table && before && !before.decisions.conditional && !anyConditional(view)) {
        const window = viewChanges(before.view, view);
        if (isUnchanged(window)) {
          // The same keys in the same places: the same decisions (their origins are read from this view).
          table = { decisions: before.decisions, view, at: before.at, cut: before.cut };
        } else {
          // Only the changed entries are read again (their neighbours' candidates carry over).
          const spliced = spliceCandidates(before, view, method, window);
          // No route of the view is conditional (checked above), so none of its candidates.
          if (spliced) table = { decisions: yield* decideTable(spliced.entries, before.decisions, checker, memo, spliced.changed, false), view, at: spliced.at, cut: false };
        }
      }
      if (!table) {
        const { keys, blocked, at, cut } = candidates(view, method);
        table = { decisions: yield* decideTable(tableEntries(view, keys, Uint8Array.from(blocked), at), before?.decisions, checker, memo), view, at, cut };
      }
      current[m] = table;
      const list = table.decisions.entries;
      const at = table.at;
      // Origins are read from this version's view (decisions are kept without them).
      const entryAt = (i: number): TableEntry => ({ key: list.keys[i]!, origin: view.origins[at[i]!]!, blocked: list.blocked[i] === 1 });
      for (const [i, c] of table.decisions.decided) {
        const entry = entryAt(i);
        if (options.literalsFirst && c.kind === 'covered' && literalKey(entry.key) !== null) continue;
        if (options.literalKeysOnly && !keyWithinDefaultChars(entry.key)) continue;
        const by = c.kind === 'covered' ? c.by.map(entryAt) : [];
        // Concluded only when the routes that take its URIs exist whenever it does: a route of
        // one branch of an undecidable condition covers nothing of a route the other branch keeps.
        if (!by.every((b) => presentWhenever(b.origin, entry.origin))) continue;
        // Nor when which comes first depends on such a condition: one branch alone may put the route first.
        if (evaluation.orderVaries.length > 0 && by.some((b) => orderVariesBetween(evaluation, entry.key, b.key, m))) continue;
        const group = groups.add(`${declarationOf(entry.origin, evaluation.places)}:${c.kind === 'empty'}`, method, () => ({ entry, by: [], empty: c.kind === 'empty', keys: new Set() }));
        group.keys.add(entry.key);
        for (const b of by) if (!group.by.some((x) => x.key === b.key)) group.by.push(b);
      }
    }
    state.previous = current;
    if (decidingAll) memo.walkedAll();
    const out: Finding[] = [];
    const statements = new StatementFixes(text, evaluation);
    for (const { value, methods } of groups.entries()) {
      const { entry, by, empty, keys } = value;
      // Declared above the first route that takes its URIs, it is reached: when the statement can move there safely, a fix does it.
      // Worked out when asked for (it reads the whole evaluation's records); the message names the line cheaply.
      const takers = by.map((b) => b.origin);
      const move = empty ? undefined : () => statements.moveAbove(entry.origin, keys, takers);
      const firstAt = empty ? undefined : statements.firstTakerStatement(entry.origin, takers);
      const before = firstAt === undefined ? undefined : describe.at({ start: firstAt, end: firstAt });
      const deferredFixes = move && (() => { const fix = move(); return fix ? [fix] : []; });
      const subject = keys.size > 1 ? `${keys.size} routes of this declaration ('${entry.key}', …)` : `'${entry.key}'`;
      const where = methods.length === REQUEST_METHODS.length ? '' : ` under ${describeMethods(methods)}`;
      // The first taker in the message, every one in related information.
      const firsts = by.length === 0 ? '' : `'${by[0].key}' (${describe.at(fromSpan(by[0].origin, evaluation.places))})${by.length > 1 ? ` and ${by.length - 1} other route${by.length === 2 ? '' : 's'}` : ''}`;
      const related = by.map((b) => ({ span: fromSpan(b.origin, evaluation.places), message: `matches first: '${b.key}'` }));
      if (entry.blocked) {
        out.push(
          finding(
            'shadowed-block',
            fromSpan(entry.origin, evaluation.places),
            empty
              ? `The blocked path '${entry.key}' matches no URI CodeIgniter can route, so the block does nothing.`
              : `The block of ${keys.size > 1 ? `${keys.size} paths ('${entry.key}', …)` : `'${entry.key}'`} never takes effect${where}: ${firsts} ${by.length > 1 ? 'match' : 'matches'} ${keys.size > 1 ? 'their' : 'its'} URIs first.`,
            { methods, related, unnecessary: true, ...(deferredFixes ? { deferredFixes } : {}), ...(empty ? {} : { details: `declare the block before ${before ?? 'those routes'}` }) },
          ),
        );
        continue;
      }
      out.push(
        finding(
          'unreachable-route',
          fromSpan(entry.origin, evaluation.places),
          empty
            ? `'${entry.key}' matches no URI CodeIgniter can route: this route is never used.${prefixHint(entry.origin)}`
            : `${subject} ${keys.size > 1 ? 'are' : 'is'} never reached${where}: ${firsts} ${by.length > 1 ? 'match' : 'matches'} ${keys.size > 1 ? 'their' : 'its'} URIs first.`,
          {
            methods,
            related,
            unnecessary: true,
            ...(deferredFixes ? { deferredFixes } : {}),
            details: empty
              ? "URIs have no empty segments, no leading or trailing '/', and only letters, digits, spaces and ~%.:_-"
              : `${keys.size > 1 ? `${[...keys].map((k) => `'${k}'`).join(', ')}: ` : ''}CodeIgniter uses the first route that matches: declare it before ${before ?? 'them'}`,
          },
        ),
      );
    }
    return out;
  });
}
