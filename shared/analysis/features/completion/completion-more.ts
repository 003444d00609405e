/**
 * Completion inside Route:: calls beyond names and methods: option keys and known option values,
 * target segments (modules, controllers, methods), and CodeIgniter's wildcards in `$from`.
 * Decided from the text around the cursor (see cursor-position.ts), so half-typed code works.
 */

import type { Span } from '../../../php/ast';
import type { ControllerListing } from '../../../workspace/controller-catalog';
import { cursorContext, type CursorContext, type StringAtCursor } from '../../model/cursor-context';
import { cursorPosition } from '../../model/cursor-position';
import { optionKeys } from '../../../library/route-api';
import { CONSTRAINT_VALUES, OPTION_DOCS, WILDCARDS } from './option-docs';
import { isRouteMethod } from '../../model/origins';
import { completeTargetSegments } from './target-completion';
import { markdownCode } from '../../../util/escape';

export type { MoreCompletionEntry, MoreCompletionKind } from './completion';
import type { MoreCompletionEntry } from './completion';

/**
 * Entries for the cursor, or undefined when it is in none of the places this file handles.
 * Without a listing, targets and `module` values offer nothing. `module`: the module whose routes
 * file this is (its targets are relative to it).
 */
export function completeMore(text: string, offset: number, listing?: ControllerListing, module?: string): MoreCompletionEntry[] | undefined {
  const ctx = cursorContext(text, offset);
  if (!ctx) return undefined;
  const pos = cursorPosition(ctx);
  if (!pos) return undefined;
  const s = ctx.string;
  switch (pos.kind) {
    case 'option-key':
      return optionKeyEntries(ctx, pos.method, pos.keys);
    case 'option-value':
      return optionValues(ctx, pos.method, pos.key, listing);
    case 'route-argument':
      if (!s) return undefined;
      if ((isRouteMethod(pos.method) && pos.argIndex === 0) || pos.method === 'block') return wildcards(text, offset, s);
      if (isRouteMethod(pos.method) && pos.argIndex === 1) return listing ? completeTargetSegments(text, offset, s, listing, module) : undefined;
      return undefined;
    case 'route-key':
      return s ? wildcards(text, offset, s) : undefined;
    case 'route-value':
      return s && listing ? completeTargetSegments(text, offset, s, listing, module) : undefined;
  }
}

/** The content of the string at the cursor from its start to its closing quote (or line end). */
function contentSpan(text: string, offset: number, s: StringAtCursor): Span {
  let end = offset;
  while (end < text.length && text[end] !== s.quote && text[end] !== '\n' && text[end] !== '\r') end++;
  return { start: s.contentStart, end };
}

/** Where an inserted value goes: into the string at the cursor, over the word typed, or at the cursor with quotes. */
function slot(ctx: CursorContext): { replace: Span; quoted: boolean } {
  if (ctx.string) return { replace: contentSpan(ctx.text, ctx.offset, ctx.string), quoted: true };
  if (ctx.word) return { replace: { start: ctx.word.start, end: ctx.word.end }, quoted: false };
  return { replace: { start: ctx.offset, end: ctx.offset }, quoted: false };
}

/** The keys the method reads, minus those already written before the cursor. */
function optionKeyEntries(ctx: CursorContext, method: string, written: string[]): MoreCompletionEntry[] {
  const { replace, quoted } = slot(ctx);
  return (optionKeys(method) ?? [])
    .filter((key) => !written.includes(key))
    .map((key) => ({
      label: key,
      kind: 'option' as const,
      detail: `Route::${method}() option`,
      documentation: OPTION_DOCS[method]?.[key],
      insertText: quoted ? key : `'${key}' => `,
      replace,
    }));
}

function optionValues(ctx: CursorContext, method: string, key: string, listing: ControllerListing | undefined): MoreCompletionEntry[] | undefined {
  if (!optionKeys(method)?.includes(key)) return undefined;
  const { replace, quoted } = slot(ctx);
  const entry = (value: string, detail: string, documentation: string, i: number): MoreCompletionEntry => ({
    label: value,
    kind: 'option-value',
    detail,
    documentation,
    insertText: quoted ? value : `'${value}'`,
    replace,
    sortText: String(i).padStart(4, '0'),
  });
  if (key === 'constraint') return CONSTRAINT_VALUES.map((c, i) => entry(c.value, 'id constraint', c.doc, i));
  if (key === 'module' && listing) {
    return listing.modules().map((m, i) => {
      const names = listing.controllers(m).map((c) => c.name);
      return entry(m, `modules/${m}/`, `Targets become ${markdownCode(`${m}/<controller>/…`)}. Controllers: ${names.map(markdownCode).join(', ') || 'none'}.`, i);
    });
  }
  return undefined;
}

/** `(:any)` and `(:num)`, replacing a wildcard already begun (`(`, `(:a`). */
function wildcards(text: string, offset: number, s: StringAtCursor): MoreCompletionEntry[] {
  const begun = /\((?::[a-z]*)?$/.exec(s.typed);
  let end = offset;
  if (begun) {
    while (end < text.length && /[a-z]/.test(text[end])) end++;
    if (text[end] === ')') end++;
  }
  const replace = { start: offset - (begun?.[0].length ?? 0), end };
  return WILDCARDS.map((w, i) => ({ label: w.value, kind: 'wildcard' as const, detail: `(${w.regex})`, documentation: w.doc, replace, sortText: String(i).padStart(4, '0') }));
}
