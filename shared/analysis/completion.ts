import type { Span } from '../php/ast';
import { ROUTE_METHOD_DOCS } from './library-docs';

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

/** Route names for `Route::named('|')`, with the pattern each returns. */
export function completeNamed(text: string, offset: number, names: ReadonlyMap<string, { from: string; methods: readonly string[] }>): CompletionEntry[] | undefined {
  const ctx = namedContext(text, offset);
  if (!ctx) return undefined;
  const out: CompletionEntry[] = [];
  for (const [name, info] of names) {
    out.push({
      label: name,
      kind: 'route-name',
      detail: info.from,
      documentation: `Route::named('${name}') returns '${info.from}' (${info.methods.join(', ')}).`,
      insertText: ctx.quote ? name : `'${name}'`,
      replace: ctx.replace,
    });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** The library's methods after `Route::`. */
export function completeRouteMethods(text: string, offset: number): CompletionEntry[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /\bRoute\s*::\s*([A-Za-z_]*)$/i.exec(text.slice(Math.max(lineStart, offset - 200), offset));
  if (!m) return undefined;
  const replace = { start: offset - m[1].length, end: offset };
  return Object.entries(ROUTE_METHOD_DOCS).map(([name, d]) => ({ label: name, kind: 'method' as const, detail: `Route::${d.signature}`, documentation: d.doc, replace }));
}
