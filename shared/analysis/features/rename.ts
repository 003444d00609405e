/**
 * Renaming a route name: the `'as'` declarations and every literal `Route::named('...')` use,
 * refused whenever the result could silently break a route (a dynamic use, a clash, a name that
 * is not written as a literal).
 */

import type { Span } from '../../php/ast';
import { LineIndex } from '../../php/line-index';
import { cursorContext } from '../model/cursor-context';
import { cursorPosition } from '../model/cursor-position';
import { optionKeys } from '../../library/route-api';
import { declarationsIn, nameReferences, type RouteFileInput, type UsageInput } from './name-references';

export { nameReferences, declarationsIn, plainStringLiteral } from './name-references';
export type { NameDeclaration, NameReferences, NameUse, RouteFileInput, UsageInput } from './name-references';

export interface RenameEdit {
  file: string;
  span: Span;
  newText: string;
}

export type RenameResult = { edits: RenameEdit[] } | { error: string; at?: { file: string; span: Span } };

/** `file:line` when the file's text is known (a route file), else `file at offset n`. */
function where(file: string, span: Span, routeFiles: readonly RouteFileInput[]): string {
  const text = routeFiles.find((r) => r.file === file)?.text;
  return text === undefined ? `${file} at offset ${span.start}` : `${file}:${LineIndex.of(text).lineOf(span.start) + 1}`;
}

/** The edits renaming route `name` to `newName` across the workspace, or why it is refused. */
export function renameName(name: string, newName: string, routeFiles: readonly RouteFileInput[], usages: readonly UsageInput[]): RenameResult {
  if (typeof newName !== 'string' || newName.trim() === '') return { error: 'The new route name is empty.' };
  // Inserted as is between the quotes: characters that would need escaping are refused.
  if (/['"\\$\r\n]/.test(newName)) return { error: `'${newName}' holds a quote, a backslash, a \`$\` or a line break: pick a plain route name.` };
  if (newName === name) return { edits: [] };
  const refs = nameReferences(name, routeFiles, usages);
  if (refs.declarations.length === 0) return { error: `No route file declares a route named '${name}' ('as' => '${name}').` };
  const dynamic = refs.dynamicUses[0];
  if (dynamic) {
    const more = refs.dynamicUses.length > 1 ? ` (and ${refs.dynamicUses.length - 1} more)` : '';
    return {
      error: `Route::named() in ${where(dynamic.file, dynamic.span, routeFiles)} takes a name computed at runtime${more}: it may mean '${name}', so a rename could break it.`,
      at: dynamic,
    };
  }
  const computed = refs.declarations.find((d) => !d.literal);
  if (computed) {
    return { error: `The route '${name}' is named at ${where(computed.file, computed.span, routeFiles)} by an expression, not a plain string literal: rename it there by hand.`, at: { file: computed.file, span: computed.span } };
  }
  for (const r of routeFiles) {
    const clash = declarationsIn(r).find((d) => d.name === newName);
    if (clash) return { error: `'${newName}' already names the route declared at ${where(clash.file, clash.span, routeFiles)}: Route::named('${newName}') would return only one of them.`, at: { file: clash.file, span: clash.span } };
  }
  const edits: RenameEdit[] = [];
  const seen = new Set<string>();
  for (const ref of [...refs.declarations, ...refs.uses]) {
    const key = `${ref.file}\0${ref.span.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edits.push({ file: ref.file, span: ref.span, newText: newName });
  }
  edits.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span.start - b.span.start));
  return { edits };
}

/**
 * The route name under the cursor, between its quotes: the value of `'as' => '...'` in a route
 * call's options, or the argument of `Route::named('...')`. Undefined anywhere else.
 */
export function prepareRename(text: string, offset: number): { span: Span; name: string } | undefined {
  const ctx = cursorContext(text, offset, { openingQuote: true });
  const s = ctx?.string;
  if (!ctx || !s || !s.terminated || !s.token.literal) return undefined;
  const top = ctx.frames[ctx.frames.length - 1];
  const inNamed = top?.role.kind === 'route-call' && top.role.method === 'named' && top.argIndex === 0 && top.argStart === s.index;
  const pos = inNamed ? undefined : cursorPosition(ctx);
  const inAs = pos?.kind === 'option-value' && pos.key === 'as' && optionKeys(pos.method)?.includes('as') === true;
  if (!inNamed && !inAs) return undefined;
  return { span: { start: s.contentStart, end: s.token.end - 1 }, name: s.token.text };
}
