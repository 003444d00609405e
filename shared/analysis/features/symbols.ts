import type { Span } from '../../php/ast';
import type { CallSite, RouteRecord } from '../../library/records';
import type { RecordedSite } from '../../runtime/call-site';
import type { DocumentPart } from '../../evaluate/document-state';
import { ProducedIndex } from '../model/produced';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { RouteCall } from '../../evaluate/interpreter';
import { PhpArray } from '../../runtime/values';
import { runSteps, type Steps } from '../../util/steps';
import { DECLARING_METHODS, countsNested, declarationSummary, methodsLabel, summaryTitle, uniqueCalls } from '../model/declarations';
import { recordsBySiteSteps } from '../model/records-by-site';
import { PeriodicList } from '../../util/periodic-list';
import { fromSpan } from '../model/origins';
import { routeAssignments, type RouteAssignment } from '../model/route-assignments';
import { describeTarget, EMPTY_TARGET, mergedRows } from '../model/route-table';
import { queryControllerMethod, queryUrl, reachesMethod, routesRouting, targetsOf, type SearchedFile } from './route-search';

/** One entry of a route file's outline. */
export interface RouteSymbol {
  name: string;
  detail: string;
  /** `declaration` a Route:: call, `prefix` a prefix() call, `statement` map()/reset(), `assignment` a `$route[...]` entry, `route` a route a declaration produced. */
  kind: 'declaration' | 'prefix' | 'statement' | 'assignment' | 'route';
  span: Span;
  /** Inside `span`: the method name of a call, the path of a route, the key of an assignment. */
  selectionSpan: Span;
  children: RouteSymbol[];
}

const MAX_NAME_ARGS = 48;

function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function within(inner: Span | undefined, outer: Span): Span {
  return inner && inner.start >= outer.start && inner.end <= outer.end && inner.start <= inner.end ? inner : { start: outer.start, end: outer.start };
}

/** `Route::resources('photos')`, `Route::prefix('api')`: the arguments a reader recognises the call by. */
function callName(text: string, site: CallSite): string {
  const args = site.method === 'block' ? site.argSpans : site.argSpans.slice(0, 1);
  const shown = args.map((s) => text.slice(s.start, s.end)).join(', ');
  return `Route::${site.written}(${clip(shown, MAX_NAME_ARGS)})`;
}

/** What an outline made of a declaration (see OutlineCalls). */
interface DescribedCall {
  /** Where the call started. */
  readonly start: number;
  /** What its summary was made of (see ProducedIndex.summaryInputs), kept by period: the same records under each method. */
  readonly records: PeriodicList<RouteRecord>;
  readonly reasons: PeriodicList<string>;
  readonly name: string;
  readonly detail: string;
  readonly selectionSpan: Span;
  /** Its routes' symbols: leaves, never changed once made. */
  readonly routes: readonly RouteSymbol[];
}

/**
 * The declarations a document's outlines described, by call (a part of its DocumentState). An
 * edit replays most statements, whose calls are the same objects as before: a call placed where it
 * was, whose records have the same fates, has the same summary (see ProducedIndex.summaryInputs),
 * so it is named and described as it was, and its routes are the same symbols (which lets the
 * server reuse their LSP form too).
 */
export class OutlineCalls {
  private readonly described = new WeakMap<RecordedSite, DescribedCall>();

  /** What was made of the call, if it still holds. */
  known(site: RecordedSite, start: number, inputs: ReturnType<ProducedIndex['summaryInputs']>): DescribedCall | undefined {
    const known = this.described.get(site);
    if (known === undefined || known.start !== start || !known.records.equals(inputs.records) || !known.reasons.equals(inputs.reasons)) return undefined;
    return known;
  }

  remember(site: RecordedSite, described: DescribedCall): void {
    this.described.set(site, described);
  }
}

export const OUTLINE_CALLS: DocumentPart<OutlineCalls> = { name: 'outlineCalls', make: () => new OutlineCalls() };

/** Names a kept call's symbol and describes it; returns the routes it produced, as symbols (none for prefix(), whose routes are its children's). */
function describeCall(text: string, symbol: RouteSymbol, call: RouteCall, evaluation: FileEvaluation): RouteSymbol[] {
  const site = evaluation.places.site(call.site);
  symbol.kind = !DECLARING_METHODS.has(site.method) ? 'statement' : countsNested(site.method) ? 'prefix' : 'declaration';
  // A declaration with no call written inside it, or a prefix() call, whose summary counts its
  // closure's routes: what the document's last outlines made of it may hold.
  const nested = symbol.kind === 'prefix';
  const memo = nested || (symbol.kind === 'declaration' && symbol.children.length === 0) ? evaluation.lineage.part(OUTLINE_CALLS) : undefined;
  const inputs = memo && ProducedIndex.of(evaluation).summaryInputs(site, nested);
  const known = memo && memo.known(call.site, site.span.start, inputs!);
  if (known) {
    symbol.name = known.name;
    symbol.detail = known.detail;
    symbol.selectionSpan = known.selectionSpan;
    return known.routes.slice();
  }
  symbol.name = callName(text, site);
  symbol.selectionSpan = within(site.nameSpan, site.span);
  if (symbol.kind === 'statement') return [];
  const summary = declarationSummary(evaluation, site);
  symbol.detail = summaryTitle(summary);
  const routes = nested ? [] : summary.routes.map(({ route: r, methods }) => ({
    name: `${methodsLabel(methods)} ${r.key} → ${r.target === '' ? EMPTY_TARGET : clip(r.target, 80)}`,
    detail: r.names.length ? `as ${r.names.join(', ')}` : '',
    kind: 'route' as const,
    span: site.span,
    selectionSpan: within(fromSpan(r.record, evaluation.places), site.span),
    children: [],
  }));
  if (memo) {
    memo.remember(call.site, { start: site.span.start, records: PeriodicList.of(inputs!.records), reasons: PeriodicList.of(inputs!.reasons), name: symbol.name, detail: symbol.detail, selectionSpan: symbol.selectionSpan, routes });
  }
  return routes;
}

/** Names a kept `$route[...]` entry's symbol and describes it. */
function describeAssignment(symbol: RouteSymbol, a: RouteAssignment): void {
  const o = a.place;
  // A verb array describes itself (`GET → a/b, POST → a/c`).
  const target = a.value === undefined ? '' : a.value instanceof PhpArray ? describeTarget(a.value) : `→ ${describeTarget(a.value)}`;
  const where = a.methods.length ? '' : a.lost ?? 'not in $route';
  symbol.name = `$route['${a.key}']`;
  symbol.detail = [clip(target, 80), where].filter(Boolean).join(' · ');
  symbol.kind = 'assignment';
  symbol.selectionSpan = within(o.keySpan, o.span);
}

export interface Outline {
  symbols: RouteSymbol[];
  /** Some symbols were left out to stay within the limit. */
  truncated: boolean;
}

/**
 * The outline of a route file: every Route:: call that ran and every `$route[...]` entry, nested
 * by where they are written (a call inside a prefix() closure or a `$nested` callable is a child
 * of that call); a declaration's produced routes are its first children. Calls the evaluation
 * never reached (an `if (false)` branch, after a fatal error) are not listed. Never throws.
 *
 * At most `maxSymbols` symbols, the shallowest first (every top-level entry before any child,
 * then every child before any grandchild), each level in document order: a huge file keeps its
 * whole top level, and only what is kept is named and described.
 */
export function documentOutline(text: string, evaluation: FileEvaluation, maxSymbols = Infinity): Outline {
  return runSteps(documentOutlineSteps(text, evaluation, maxSymbols));
}

/** What names and describes a symbol of the skeleton once it is kept. */
type Pending = { call: RouteCall; assignment?: undefined } | { call?: undefined; assignment: RouteAssignment };

/** documentOutline(), pausing every few hundred symbols (to build it when idle). */
export function* documentOutlineSteps(text: string, evaluation: FileEvaluation, maxSymbols = Infinity): Steps<Outline> {
  // The skeleton holds spans only: what is left out is never named or described.
  const pending = new Map<RouteSymbol, Pending>();
  const skeleton: RouteSymbol[] = [];
  const blank = (span: Span): RouteSymbol => ({ name: '', detail: '', kind: 'statement', span, selectionSpan: span, children: [] });
  for (const call of uniqueCalls(evaluation)) {
    if (call.site.method === 'named') continue; // an expression, not a declaration
    const symbol = blank(evaluation.places.site(call.site).span);
    pending.set(symbol, { call });
    skeleton.push(symbol);
  }
  yield;
  for (const assignment of routeAssignments(evaluation)) {
    const symbol = blank(assignment.place.span);
    pending.set(symbol, { assignment });
    skeleton.push(symbol);
  }
  yield;
  const top = { children: nestBySpan(skeleton) };
  yield;
  yield* recordsBySiteSteps(evaluation);
  let budget = Math.max(0, Math.floor(maxSymbols));
  let truncated = false;
  let described = 0;
  // Level by level: a symbol is described when kept, which gives its candidates for the next level.
  let level: { holder: { children: RouteSymbol[] }; candidates: RouteSymbol[] }[] = [{ holder: top, candidates: top.children }];
  while (level.length) {
    const next: typeof level = [];
    for (const { holder, candidates } of level) {
      const kept = candidates.length <= budget ? candidates : candidates.slice(0, budget);
      truncated ||= kept.length < candidates.length;
      budget -= kept.length;
      holder.children = kept;
      for (const symbol of kept) {
        const p = pending.get(symbol);
        let routes: RouteSymbol[] = [];
        if (p?.call) routes = describeCall(text, symbol, p.call, evaluation);
        else if (p?.assignment) describeAssignment(symbol, p.assignment);
        const nested = symbol.children;
        // A route's symbol is a leaf the document's next outlines may share (see OutlineCalls): left as it is.
        if (nested.length) symbol.children = [];
        const own = routes.length && nested.length ? [...routes, ...nested] : routes.length ? routes : nested;
        if (own.length) next.push({ holder: symbol, candidates: own });
        if ((++described & 255) === 0) yield;
      }
    }
    level = next;
  }
  return { symbols: top.children, truncated };
}

/** The whole outline (see documentOutline). */
export function documentSymbols(text: string, evaluation: FileEvaluation): RouteSymbol[] {
  return documentOutline(text, evaluation).symbols;
}

/** Nests symbols by textual containment (one pass over them sorted by start, longest first). */
function nestBySpan(symbols: RouteSymbol[]): RouteSymbol[] {
  symbols.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const roots: RouteSymbol[] = [];
  const stack: RouteSymbol[] = [];
  for (const s of symbols) {
    while (stack.length && stack[stack.length - 1].span.end < s.span.end) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(s);
    stack.push(s);
  }
  return roots;
}

export interface WorkspaceRouteSymbol {
  /** The URI pattern. */
  name: string;
  /** Methods, target and route names: `GET|HEAD → photos/index · as photos`. */
  detail: string;
  file: string;
  /** Where the path is written (the route's declaration). */
  span: Span;
}

export const MAX_WORKSPACE_SYMBOLS = 500;

interface SearchEntry {
  /** Lower-case key, target and names, matched against the query. */
  fields: string[];
  /** Its string targets (a verb array's each): what a controller search asks the router about. */
  targets: string[];
  symbol: Omit<WorkspaceRouteSymbol, 'file'>;
}

/** Evaluations are immutable: their searchable rows are computed once, not once per keystroke. */
const entriesCache = new WeakMap<FileEvaluation, SearchEntry[]>();

function searchEntries(evaluation: FileEvaluation): SearchEntry[] {
  const cached = entriesCache.get(evaluation);
  if (cached) return cached;
  const entries: SearchEntry[] = [];
  try {
    for (const row of mergedRows(evaluation)) {
      if (row.key === 'translate_uri_dashes') continue;
      const key = row.key;
      const names = row.names.length ? ` · as ${row.names.join(', ')}` : '';
      entries.push({
        fields: [key, row.targetText, ...row.names].map((s) => s.toLowerCase()),
        targets: row.reserved || row.unknown !== undefined || key === 'default_controller' || key === '404_override' ? [] : targetsOf(row.target),
        symbol: {
          name: key,
          detail: `${methodsLabel(row.methods)} → ${clip(row.targetText, 80)}${names}`,
          span: row.origin ? fromSpan(row.origin, evaluation.places) : (row.span ?? { start: 0, end: 0 }),
        },
      });
    }
  } catch {
    // An evaluation without usable tables has no routes to list.
  }
  entriesCache.set(evaluation, entries);
  return entries;
}

function isSubsequence(query: string, s: string): boolean {
  let i = 0;
  for (let j = 0; j < s.length && i < query.length; j++) if (s[j] === query[i]) i++;
  return i === query.length;
}

/**
 * Routes of every file (at most 500), best first: for a query naming a controller method
 * (`Posts::show`, `posts::show`, `Posts.show`) the routes whose target reaches it; for a query that
 * is a concrete URL (`articles/12`, `/articles/12`) the routes that route it, as the router
 * matches it (see route-search.ts); then those whose URI pattern, name or target contains the
 * query (case-insensitive), then those that contain its characters in order. An empty query
 * lists routes.
 */
export function workspaceSymbols(files: readonly (SearchedFile & { text: string })[], query: string): WorkspaceRouteSymbol[] {
  const q = (query ?? '').toLowerCase();
  const out: WorkspaceRouteSymbol[] = [];
  // A route the first searches found is not listed again by the text search.
  const found = new Set<string>();
  const listed = new Set<string>();
  const identity = (s: WorkspaceRouteSymbol) => `${s.file}\u0000${s.span.start}\u0000${s.name}`;
  const add = (s: WorkspaceRouteSymbol) => {
    // One route may route a URL to several targets (PUT and DELETE of a resources() path): each is listed once.
    const whole = `${identity(s)}\u0000${s.detail}`;
    if (listed.has(whole) || out.length >= MAX_WORKSPACE_SYMBOLS) return;
    listed.add(whole);
    found.add(identity(s));
    out.push(s);
  };
  const controller = queryControllerMethod(query ?? '');
  const url = queryUrl(query ?? '');
  for (const f of files) {
    if (!f?.evaluation) continue;
    if (controller) {
      const reaches = reachesMethod(f, controller.class, controller.method);
      for (const { targets, symbol } of searchEntries(f.evaluation)) if (targets.some(reaches)) add({ ...symbol, file: f.file });
    }
    if (url !== undefined) for (const r of routesRouting(f, url)) add({ ...r, file: f.file });
    if (out.length >= MAX_WORKSPACE_SYMBOLS) return out;
  }
  const exact: WorkspaceRouteSymbol[] = [];
  const loose: WorkspaceRouteSymbol[] = [];
  const room = () => MAX_WORKSPACE_SYMBOLS - out.length;
  for (const f of files) {
    if (exact.length >= room()) break;
    if (!f?.evaluation) continue;
    for (const { fields, symbol } of searchEntries(f.evaluation)) {
      const list = q === '' || fields.some((s) => s.includes(q)) ? exact : loose.length < room() && fields.some((s) => isSubsequence(q, s)) ? loose : undefined;
      if (!list || list.length >= room()) continue;
      const s = { ...symbol, file: f.file };
      if (found.size === 0 || !found.has(identity(s))) list.push(s);
    }
  }
  return [...out, ...exact, ...loose].slice(0, MAX_WORKSPACE_SYMBOLS);
}
