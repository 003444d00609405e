import type { Places } from '../../../evaluate/places';
import { describeValue } from '../../../runtime/convert';
import { ROUTER_SETTING_KEYS } from '../../../router/ci-router';
import { keyToString } from '../../../runtime/values';
import { REQUEST_METHODS } from '../../../runtime/methods';
import type { EntryOriginInfo, RouteRecord } from '../../../library/records';
import { wasMapped, type MarkedState } from '../../../library/record-marks';
import type { Check } from '../core/context';
import { CallGroups } from '../core/call-groups';
import { MethodGroups, branchesOf, compatibleBranches, describeMethods, fromSpan, sortMethods } from '../../model/origins';
import { finding, type Finding } from '../core/types';
import { tableView, type TableView } from '../../model/table-view';
import { StatementFixes } from '../core/statement-fixes';
import { compileModuleRouteKey, literalStart } from '../../../router/pattern';

interface Pair {
  later: EntryOriginInfo;
  earlier: EntryOriginInfo;
  key: string;
}

/** One later declaration with every earlier one it replaces, and under which methods. */
interface Replacement {
  later: EntryOriginInfo;
  key: string;
  /** Every key the declaration declares again (a resources() call declares several). */
  keys: Set<string>;
  earlier: Map<string, { origin: EntryOriginInfo; methods: Set<string> }>;
}

/** A declaration, whatever row of it (one finding per declaration, not per route a resources() call makes). */
function declarationIdentity(o: EntryOriginInfo, places: Places): string {
  if (o.kind === 'route') return `r${o.site.placed.span.file?.path ?? ''}:${places.start(o.site)}`;
  const span = places.entry(o).span;
  return `a${span.file?.path ?? ''}:${span.start}`;
}

function isBlock(o: EntryOriginInfo): boolean {
  return o.kind === 'route' && o.site.method === 'block';
}

function sameDeclaration(a: EntryOriginInfo, b: EntryOriginInfo, places: Places): boolean {
  if (a.kind === 'route' && b.kind === 'route') return places.start(a.site) === places.start(b.site) && a.row === b.row;
  return a === b;
}

function identity(o: EntryOriginInfo, places: Places): string {
  return o.kind === 'route' ? `r${places.start(o.site)}:${o.row ?? ''}` : `a${places.entry(o).span.start}`;
}

/**
 * Whether a route was declared before a map(): it reached `$route`, or a declaration that
 * replaced it before that map() did (the middle one of three declarations of a path is never
 * mapped itself, yet replaced the first before map() ran).
 */
function beforeAMap(record: RouteRecord, state: MarkedState): boolean {
  for (let r: RouteRecord | undefined = record; r; r = state.marks.replacedBy(r)) if (wasMapped(r, state)) return true;
  return false;
}

const overwriting = new WeakMap<TableView, readonly number[]>();

/** The view's entries written by an assignment that replaced an earlier entry (once per view: origins never change). */
function overwritingAssignments(view: TableView): readonly number[] {
  let found = overwriting.get(view);
  if (!found) {
    const list: number[] = [];
    const origins = view.origins;
    for (let i = 0; i < origins.length; i++) {
      const origin = origins[i];
      if (origin && origin.kind === 'assignment' && origin.replaced) list.push(i);
    }
    overwriting.set(view, (found = list));
  }
  return found;
}

/**
 * Whether two route keys may match one URI: equal, or one a literal path the other matches (read
 * with the HMVC routers' wider `:any`, which takes all CodeIgniter's does); two patterns may.
 */
function mayOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  const literalA = literalStart(a) === a;
  const literalB = literalStart(b) === b;
  if (literalA && literalB) return false;
  if (literalA) return compileModuleRouteKey(b).match(a) !== null;
  if (literalB) return compileModuleRouteKey(a).match(b) !== null;
  return true;
}

/**
 * `duplicate-route`: a declaration replaces one made earlier for an overlapping request method,
 * in the library (same `$from` after prefixes), when map() overwrites a `$route` entry in place,
 * or when a `$route[...]` assignment overwrites an entry. A replaced block() is `shadowed-block`.
 */
export const duplicates: Check = ({ text, evaluation, describe }) => {
  const pairs = new MethodGroups<Replacement>();
  const shadowedBlocks = new MethodGroups<Pair>();
  // Asked once, not per pair: a file of n duplicates would otherwise cost n² (100,000 calls on one line).
  const hasMap = CallGroups.of(evaluation).of('map').length > 0;
  const consider = (method: (typeof REQUEST_METHODS)[number], state: MarkedState, later: EntryOriginInfo, earlier: EntryOriginInfo, key: string) => {
    // A setting of the router set twice (an environment's default controller, say) is not a route declared twice.
    if (ROUTER_SETTING_KEYS.has(key)) return;
    if ((later.kind === 'route' && later.dynamic) || (earlier.kind === 'route' && earlier.dynamic)) return;
    if (sameDeclaration(later, earlier, evaluation.places)) return;
    // Blocking an already blocked path changes nothing.
    if (isBlock(later) && isBlock(earlier)) return;
    // A replacement made after the last map() never reaches $route: routes-after-map says so.
    if (later.kind === 'route' && hasMap && !beforeAMap(later, state)) return;
    if (!compatibleBranches(branchesOf(later), branchesOf(earlier))) return;
    if (isBlock(earlier)) {
      shadowedBlocks.add(`${identity(later, evaluation.places)}|${identity(earlier, evaluation.places)}`, method, () => ({ later, earlier, key }));
      return;
    }
    const r = pairs.add(declarationIdentity(later, evaluation.places), method, () => ({ later, key, keys: new Set(), earlier: new Map() }));
    r.keys.add(key);
    const e = r.earlier.get(declarationIdentity(earlier, evaluation.places)) ?? r.earlier.set(declarationIdentity(earlier, evaluation.places), { origin: earlier, methods: new Set() }).get(declarationIdentity(earlier, evaluation.places))!;
    e.methods.add(method);
  };
  evaluation.methods.forEach((result, m) => {
    const method = REQUEST_METHODS[m];
    // The library lists the few records replaced or written over an entry: no pass over all of them.
    const state = result.library;
    const { replaced, overwriting, marks } = state;
    for (let ri = 0; ri < replaced.length; ri++) {
      const record = replaced[ri];
      consider(method, state, marks.replacedBy(record)!, record, keyToString(record.key));
    }
    for (let ri = 0; ri < overwriting.length; ri++) {
      const record = overwriting[ri];
      if (result.routes?.originOf(record.key) === record) consider(method, state, record, marks.overwrote(record)!, keyToString(record.key));
    }
    // Assignments that overwrite an entry of the final $route (read from the view the other checks share).
    if (!result.routes) return;
    const view = tableView(evaluation, result.routes);
    for (const i of overwritingAssignments(view)) {
      let origin = view.origins[i];
      while (origin && origin.kind === 'assignment' && origin.replaced) {
        const replaced: EntryOriginInfo = origin.replaced;
        consider(method, state, origin, replaced, view.keys[i]);
        origin = replaced;
      }
    }
  });
  const out: Finding[] = [];
  const statements = new StatementFixes(text, evaluation);
  for (const { value: r, methods } of pairs.entries()) {
    const earlier = [...r.earlier.values()];
    // One earlier declaration of this one route, replaced wherever it was declared: deleting it changes nothing else (see removeEarlier).
    // Worked out when asked for: it reads the whole evaluation's records (about 20 ms at 10,000 declarations).
    const removal = earlier.length === 1 && r.keys.size === 1 && !isBlock(r.later) && !isBlock(earlier[0].origin) ? () => statements.removeEarlier(earlier[0].origin, r.later, r.key, earlier[0].methods, mayOverlap) : undefined;
    // The fact in the message; each replaced declaration's target and methods beside it, in related information.
    const what = earlier.length === 1 ? describe.declaration(earlier[0].origin, evaluation.places) : `${earlier.length} earlier declarations`;
    const several = r.keys.size > 1 ? `${r.keys.size} routes of this declaration ('${r.key}', …) are` : `'${r.key}' is`;
    const message = isBlock(r.later)
      ? `block() blocks '${r.key}', which ${what} routes: under ${describeMethods(methods)} that route never works.`
      : `${several} declared again: ${what} never takes effect${methods.length === REQUEST_METHODS.length ? '' : ` under ${describeMethods(methods)}`}.`;
    out.push(
      finding('duplicate-route', fromSpan(r.later, evaluation.places), message, {
        methods,
        related: earlier.map((e) => {
          const target = e.origin.kind === 'route' ? ` (target ${describeValue(e.origin.to)})` : '';
          const under = e.methods.size !== methods.length ? ` under ${describeMethods(sortMethods(e.methods as Set<(typeof REQUEST_METHODS)[number]>))}` : '';
          return { span: fromSpan(e.origin, evaluation.places), message: r.keys.size > 1 ? `the replaced declaration${under}` : `the replaced declaration of '${r.key}'${target}${under}` };
        }),
        ...(removal ? { deferredFixes: () => { const fix = removal(); return fix ? [fix] : []; } } : {}),
        ...(isBlock(r.later) ? {} : { details: `${r.keys.size > 1 ? `${[...r.keys].map((k) => `'${k}'`).join(', ')}: ` : ''}a PHP array keeps the first position and the last value: remove one of them or give them different paths` }),
      }),
    );
  }
  for (const { value: p, methods } of shadowedBlocks.entries()) {
    out.push(
      finding(
        'shadowed-block',
        fromSpan(p.earlier, evaluation.places),
        `'${p.key}' is blocked here, but ${describe.declaration(p.later, evaluation.places)} declares it again: the path is routed, not blocked.`,
        { methods, unnecessary: true, related: [{ span: fromSpan(p.later, evaluation.places), message: `the later declaration of '${p.key}'` }] },
      ),
    );
  }
  return out;
};
