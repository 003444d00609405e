import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { PhpArray } from '../../runtime/values';
import { isDynamicKey, type LiteralOrigin } from '../../library/records';
import { decodeStringContent } from '../../workspace/php-index-model';
import { isRouteMethod } from './origins';
import { routeAssignments } from './route-assignments';

/** A PHP string literal without interpolation, as written in the source. */
export interface StringLiteral {
  quote: "'" | '"';
  /** Between the quotes. */
  contentSpan: Span;
  value: string;
}

/** Interpolation in a double-quoted string: `$name`, `{$`, `${`. */
const INTERPOLATION = /\$[A-Za-z_\x80-\uffff{]|\{\$/;

/** Reads the literal an expression span covers; undefined for anything else (concatenation, heredoc...). */
export function readStringLiteral(text: string, span: Span | undefined): StringLiteral | undefined {
  if (!span || span.start < 0 || span.end > text.length || span.end - span.start < 2) return undefined;
  const prefix = text[span.start] === 'b' || text[span.start] === 'B' ? 1 : 0;
  const quote = text[span.start + prefix];
  if ((quote !== "'" && quote !== '"') || text[span.end - 1] !== quote || span.end - span.start < prefix + 2) return undefined;
  const contentSpan = { start: span.start + prefix + 1, end: span.end - 1 };
  const raw = text.slice(contentSpan.start, contentSpan.end);
  // An unescaped quote inside means the span is not one literal (e.g. `'a' . 'b'`).
  if (quote === "'" ? /(^|[^\\])(\\\\)*'/.test(raw) : /(^|[^\\])(\\\\)*"/.test(raw)) return undefined;
  if (quote === '"' && INTERPOLATION.test(raw)) return undefined;
  return { quote, contentSpan, value: decodeStringContent(raw, quote) };
}

/** A route target written as a literal, with the route keys (patterns) it serves. */
export interface TargetLiteral {
  literal: StringLiteral;
  /** The expression (quotes included). */
  span: Span;
  /** The keys of the routes using it, when known statically; several when a prefix or `$nested` repeats it. */
  keys: string[];
}

/**
 * The target literals of a file: the `$to` argument of any()/verb calls and the values of
 * `$route[...]` entries (each element of a verb array too). Generated routes (resources(),
 * context(), block()) have no target in the source and are not included.
 */
export function targetLiterals(text: string, evaluation: FileEvaluation): TargetLiteral[] {
  const bySpan = new Map<number, { span: Span; keys: Set<string> }>();
  const add = (span: Span | undefined, key: string | undefined): void => {
    if (!span) return;
    let entry = bySpan.get(span.start);
    if (!entry) {
      entry = { span, keys: new Set() };
      bySpan.set(span.start, entry);
    }
    if (key !== undefined) entry.keys.add(key);
  };
  for (const result of evaluation.methods ?? []) {
    for (const record of result?.library?.created ?? []) {
      if (record.row !== undefined || !isRouteMethod(record.site.method)) continue;
      const site = evaluation.places.site(record.site);
      if (site.span.file) continue;
      const dynamicKey = isDynamicKey(record.key);
      add(site.argSpans[1], dynamicKey ? undefined : String(record.key));
    }
  }
  for (const a of routeAssignments(evaluation)) {
    if (a.key === 'translate_uri_dashes') continue;
    if (a.value instanceof PhpArray) {
      // A verb array: `$route['x'] = array('GET' => 'a/b', 'POST' => 'a/c')`.
      for (const k of a.value.keys()) {
        const origin = a.value.originOf(k) as LiteralOrigin | undefined;
        if (origin?.kind === 'literal') add(origin.valueSpan, a.key);
      }
      continue;
    }
    add(a.place.valueSpan, a.key);
  }
  const out: TargetLiteral[] = [];
  for (const { span, keys } of bySpan.values()) {
    const literal = readStringLiteral(text, span);
    if (literal) out.push({ literal, span, keys: [...keys] });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}
