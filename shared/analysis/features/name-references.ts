/**
 * Where a route name is written across the workspace: its declarations (the `'as'` option of a
 * route call, from the evaluation) and its literal `Route::named('...')` uses (from the indexer).
 */

import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { PhpArray, type Value } from '../../runtime/values';
import type { LiteralOrigin } from '../../library/records';
import { indexPhpFile, type NamedUsage } from '../../workspace/php-index';
import { decodeStringContent } from '../../workspace/php-index-model';
import { optionKeys, optionsArgIndex } from '../../library/route-api';

export interface RouteFileInput {
  file: string;
  text: string;
  evaluation: FileEvaluation;
}

export interface UsageInput {
  file: string;
  usages: readonly NamedUsage[];
}

export interface NameDeclaration {
  file: string;
  name: string;
  /** The name between the quotes when `literal`; else the `'as'` value expression (or the call). */
  span: Span;
  /** True when the `'as'` value is a plain string literal, so it can be edited in place. */
  literal: boolean;
}

export interface NameUse {
  file: string;
  /** The name between the quotes. */
  span: Span;
}

export interface NameReferences {
  declarations: NameDeclaration[];
  uses: NameUse[];
  /** `Route::named()` calls anywhere whose argument is not a literal: they could name anything. */
  dynamicUses: { file: string; span: Span }[];
}

/** The content of a string literal without interpolation, or undefined for any other expression. */
export function plainStringLiteral(text: string, span: Span | undefined): { content: Span; value: string } | undefined {
  if (!span || span.start < 0 || span.end > text.length) return undefined;
  const prefix = text[span.start] === 'b' || text[span.start] === 'B' ? 1 : 0;
  const quote = text[span.start + prefix];
  if ((quote !== "'" && quote !== '"') || span.end - span.start < prefix + 2 || text[span.end - 1] !== quote) return undefined;
  const raw = text.slice(span.start + prefix + 1, span.end - 1);
  // An unescaped quote inside means several expressions (`'a' . 'b'`); `$` or `{$` means interpolation.
  if (new RegExp(`(^|[^\\\\])(\\\\\\\\)*${quote}`).test(raw)) return undefined;
  if (quote === '"' && /\$[A-Za-z_\x80-\uffff{]|\{\$/.test(raw)) return undefined;
  return { content: { start: span.start + prefix + 1, end: span.end - 1 }, value: decodeStringContent(raw, quote) };
}

/** The name an `'as'` value gives, as the library stores it (PHP casts it to an array key); undefined when none. */
function declaredName(value: Value | undefined): string | undefined {
  if (typeof value === 'number') return value === 0 ? undefined : String(value);
  if (typeof value !== 'string' || value === '' || value === '0') return undefined;
  return value;
}

/** Every name declared in one route file, each declaration once (calls re-run by loops or per method too). */
export function declarationsIn(input: RouteFileInput): NameDeclaration[] {
  const out: NameDeclaration[] = [];
  const seen = new Set<string>();
  for (const call of input.evaluation?.calls ?? []) {
    const method = call.site.method;
    if (!optionKeys(method)?.includes('as')) continue;
    const idx = optionsArgIndex(method, (i) => call.args[i] instanceof PhpArray);
    const options = idx === undefined ? undefined : call.args[idx];
    if (!(options instanceof PhpArray)) continue;
    const name = declaredName(options.get('as'));
    if (name === undefined) continue;
    const origin = options.originOf('as') as LiteralOrigin | undefined;
    const places = input.evaluation!.places;
    const valueSpan = origin?.kind === 'literal' ? places.literal(origin).valueSpan : undefined;
    const literal = plainStringLiteral(input.text, valueSpan);
    const site = places.site(call.site);
    const span = literal?.value === name ? literal.content : (valueSpan ?? site.argSpans[idx!] ?? site.span);
    const key = `${span.start}:${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: input.file, name, span, literal: literal?.value === name });
  }
  return out;
}

/** Supplied usages plus those of the route files themselves, each call once. */
function allUsages(routeFiles: readonly RouteFileInput[], usages: readonly UsageInput[]): { file: string; usage: NamedUsage }[] {
  const out: { file: string; usage: NamedUsage }[] = [];
  const seen = new Set<string>();
  const add = (file: string, list: readonly NamedUsage[]): void => {
    for (const usage of list) {
      const key = `${file}\0${usage.callSpan.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ file, usage });
    }
  };
  for (const u of usages) add(u.file, u.usages ?? []);
  for (const r of routeFiles) add(r.file, indexPhpFile(r.text).namedUsages);
  return out;
}

/** The declarations and literal uses of `name`, and every dynamic `Route::named()` use. */
export function nameReferences(name: string, routeFiles: readonly RouteFileInput[], usages: readonly UsageInput[]): NameReferences {
  const refs: NameReferences = { declarations: [], uses: [], dynamicUses: [] };
  for (const r of routeFiles) refs.declarations.push(...declarationsIn(r).filter((d) => d.name === name));
  for (const { file, usage } of allUsages(routeFiles, usages)) {
    if (usage.name === undefined) {
      // A call without an argument names nothing (PHP stops with an ArgumentCountError).
      if (usage.argSpan) refs.dynamicUses.push({ file, span: usage.argSpan });
    } else if (usage.name === name && usage.nameSpan) {
      refs.uses.push({ file, span: usage.nameSpan });
    }
  }
  return refs;
}
