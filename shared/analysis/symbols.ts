import type { Span } from '../php/ast';
import type { FileEvaluation } from '../evaluate/evaluate-file';
import type { RouteCall } from '../evaluate/interpreter';
import { PhpArray } from '../evaluate/values';
import { DECLARING_METHODS, ProducedIndex, countsNested, displayKey, methodsLabel, summarize, summaryTitle, uniqueCalls } from './declarations';
import { fromSpan } from './origins';
import { routeAssignments, type RouteAssignment } from './route-assignments';
import { describeTarget, mergedRows } from './route-table';

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
function callName(text: string, call: RouteCall): string {
  const site = call.site;
  const args = site.method === 'block' ? site.argSpans : site.argSpans.slice(0, 1);
  const shown = args.map((s) => text.slice(s.start, s.end)).join(', ');
  return `Route::${site.written}(${clip(shown, MAX_NAME_ARGS)})`;
}

function declarationSymbol(text: string, call: RouteCall, index: ProducedIndex, evaluation: FileEvaluation): RouteSymbol {
  const site = call.site;
  const selectionSpan = within(site.nameSpan, site.span);
  if (!DECLARING_METHODS.has(site.method)) {
    return { name: callName(text, call), detail: '', kind: 'statement', span: site.span, selectionSpan, children: [] };
  }
  const nested = countsNested(site.method);
  const summary = summarize(evaluation, index.of(site, nested));
  // A prefix()'s routes belong to the declarations inside it, which become its children.
  const children: RouteSymbol[] = nested
    ? []
    : summary.routes.map((r) => ({
        name: `${methodsLabel(r.methods)} ${r.key} → ${r.target === '' ? '(blocked)' : clip(r.target, 80)}`,
        detail: r.names.length ? `as ${r.names.join(', ')}` : '',
        kind: 'route' as const,
        span: site.span,
        selectionSpan: within(fromSpan(r.record), site.span),
        children: [],
      }));
  return { name: callName(text, call), detail: summaryTitle(summary), kind: nested ? 'prefix' : 'declaration', span: site.span, selectionSpan, children };
}

function assignmentSymbol(a: RouteAssignment): RouteSymbol {
  const o = a.origin;
  // A verb array describes itself (`GET → a/b, POST → a/c`).
  const target = a.value === undefined ? '' : a.value instanceof PhpArray ? describeTarget(a.value) : `→ ${describeTarget(a.value)}`;
  const where = a.methods.length ? '' : a.lost ?? 'not in $route';
  return {
    name: `$route['${a.key}']`,
    detail: [clip(target, 80), where].filter(Boolean).join(' · '),
    kind: 'assignment',
    span: o.span,
    selectionSpan: within(o.keySpan, o.span),
    children: [],
  };
}

/**
 * The outline of a route file: every Route:: call that ran and every `$route[...]` entry, nested
 * by where they are written (a call inside a prefix() closure or a `$nested` callable is a child
 * of that call); a declaration's produced routes are its first children. Calls the evaluation
 * never reached (an `if (false)` branch, after a fatal error) are not listed. Never throws.
 */
export function documentSymbols(text: string, evaluation: FileEvaluation): RouteSymbol[] {
  const index = new ProducedIndex(evaluation);
  const symbols: RouteSymbol[] = [];
  for (const call of uniqueCalls(evaluation)) {
    if (call.site.method === 'named') continue; // an expression, not a declaration
    symbols.push(declarationSymbol(text, call, index, evaluation));
  }
  for (const a of routeAssignments(evaluation)) symbols.push(assignmentSymbol(a));
  return nestBySpan(symbols);
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
      const key = displayKey(row.key);
      const names = row.names.length ? ` · as ${row.names.join(', ')}` : '';
      entries.push({
        fields: [key, row.targetText, ...row.names].map((s) => s.toLowerCase()),
        symbol: {
          name: key,
          detail: `${methodsLabel(row.methods)} → ${clip(row.targetText, 80)}${names}`,
          span: row.origin ? fromSpan(row.origin) : (row.span ?? { start: 0, end: 0 }),
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
 * Routes of every file whose URI pattern, name or target contains the query (case-insensitive),
 * then those that contain its characters in order; at most 500. An empty query lists routes.
 */
export function workspaceSymbols(files: readonly { file: string; text: string; evaluation: FileEvaluation }[], query: string): WorkspaceRouteSymbol[] {
  const q = (query ?? '').toLowerCase();
  const exact: WorkspaceRouteSymbol[] = [];
  const loose: WorkspaceRouteSymbol[] = [];
  for (const f of files) {
    if (exact.length >= MAX_WORKSPACE_SYMBOLS) break;
    if (!f?.evaluation) continue;
    for (const { fields, symbol } of searchEntries(f.evaluation)) {
      const list = q === '' || fields.some((s) => s.includes(q)) ? exact : loose.length < MAX_WORKSPACE_SYMBOLS && fields.some((s) => isSubsequence(q, s)) ? loose : undefined;
      if (!list || list.length >= MAX_WORKSPACE_SYMBOLS) continue;
      list.push({ ...symbol, file: f.file });
    }
  }
  return [...exact, ...loose].slice(0, MAX_WORKSPACE_SYMBOLS);
}
