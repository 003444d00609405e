import type { Span } from '../../../php/ast';
import { matchGroups } from './completion-match';
import { ROUTE_METHOD_DOCS } from '../library-docs';
import { markdownText } from '../../../util/escape';

export interface CompletionEntry {
  label: string;
  kind: 'route-name' | 'method' | 'option' | 'wildcard';
  detail?: string;
  documentation?: string;
  /** Text to insert (defaults to the label) over `replace`. */
  insertText?: string;
  replace: Span;
}

export interface NamedContext {
  /** What is typed of the name so far. */
  prefix: string;
  replace: Span;
  /** The quote already typed, if any. */
  quote?: string;
}

const NAMED_OPEN = /Route\s*::\s*named\s*\(\s*(?:(['"])([^'"\n]*))?$/i;

/** Is `offset` inside `Route::named(...)`'s first argument (even an unterminated one)? */
export function namedContext(text: string, offset: number): NamedContext | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = NAMED_OPEN.exec(text.slice(Math.max(lineStart, offset - 300), offset));
  if (!m) return undefined;
  const quote = m[1];
  const prefix = m[2] ?? '';
  let end = offset;
  while (end < text.length && /[^'"\n)\s,]/.test(text[end])) end++;
  return { prefix, quote, replace: { start: offset - prefix.length, end } };
}

export interface RouteNameInfo {
  from: string;
  methods: readonly string[];
}

interface NameChoice {
  readonly name: string;
  readonly lower: string;
  readonly info: RouteNameInfo;
  documentation?: string;
  quoted?: string;
}

/**
 * Route names to complete, sorted once (by code unit, the order completions are ranked in) and
 * kept while the names stay the same: with thousands of names, sorting them and writing their
 * documentation on every request was most of a completion's time.
 */
export class NameChoices {
  private sorted: NameChoice[] | undefined;

  constructor(private readonly names: ReadonlyMap<string, RouteNameInfo>) {}

  get size(): number {
    return this.names.size;
  }

  list(): readonly NameChoice[] {
    if (!this.sorted) {
      this.sorted = [...this.names].map(([name, info]) => ({ name, lower: name.toLowerCase(), info }));
      this.sorted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    return this.sorted;
  }

  /**
   * The first `limit` names in completion order for what was typed: names starting with it, then
   * names holding its characters in order, each group sorted. Only these become entries.
   */
  best(typed: string, limit: number): readonly NameChoice[] {
    const all = this.list();
    if (typed === '') return all.length <= limit ? all : all.slice(0, limit);
    const t = typed.toLowerCase();
    const { prefixed, others } = matchGroups(all, (c) => c.lower, () => t, limit);
    return [...prefixed, ...others].slice(0, limit);
  }
}

/**
 * Route names for `Route::named('|')`, with the pattern each returns, sorted by name. When there
 * are more than `limit`, only the best `limit` for what is typed (see NameChoices.best): a caller
 * showing 100 asks for 101 to know whether there are more.
 */
export function completeNamed(text: string, offset: number, names: NameChoices | ReadonlyMap<string, RouteNameInfo>, limit = Infinity): CompletionEntry[] | undefined {
  const ctx = namedContext(text, offset);
  if (!ctx) return undefined;
  const choices = names instanceof NameChoices ? names : new NameChoices(names);
  const picked = choices.size <= limit ? choices.list() : choices.best(ctx.prefix, limit);
  return picked.map((c) => ({
    label: c.name,
    kind: 'route-name',
    detail: c.info.from,
    // Written when read: an editor that resolves items asks for the one it shows.
    get documentation() {
      return (c.documentation ??= markdownText(`Route::named('${c.name}') returns '${c.info.from}' (${c.info.methods.join(', ')}).`));
    },
    insertText: ctx.quote ? c.name : (c.quoted ??= `'${c.name}'`),
    replace: ctx.replace,
  }));
}

/** The library's methods after `Route::`. */
export function completeRouteMethods(text: string, offset: number): CompletionEntry[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /\bRoute\s*::\s*([A-Za-z_]*)$/i.exec(text.slice(Math.max(lineStart, offset - 200), offset));
  if (!m) return undefined;
  const replace = { start: offset - m[1].length, end: offset };
  return Object.entries(ROUTE_METHOD_DOCS).map(([name, d]) => ({ label: name, kind: 'method' as const, detail: `Route::${d.signature}`, documentation: d.doc, replace }));
}

export type MoreCompletionKind = CompletionEntry['kind'] | 'option-value' | 'module' | 'folder' | 'controller' | 'controller-method';

export interface MoreCompletionEntry extends Omit<CompletionEntry, 'kind'> {
  kind: MoreCompletionKind;
  /** Keeps the offered order where it means something (constraints, segments). */
  sortText?: string;
}
