/**
 * CI_URI::filter_uri(): CodeIgniter tests each URI segment, trimmed, with
 * `preg_match('/^[' . $permitted_uri_chars . ']+$/i' . (UTF8_ENABLED ? 'u' : ''), $segment)` and
 * answers 400 ("disallowed characters") when it does not match, or when preg_match() fails. A
 * segment PHP calls empty() (`''`, `'0'`) is not tested, nor is any when the setting is empty.
 * UTF8_ENABLED is assumed (a UTF-8 `charset`, CodeIgniter's default): case folding then lets `ſ`
 * and the Kelvin sign through wherever `s` and `k` are permitted, as RE2's folding does.
 */

import { RE2JS } from 're2js';

/** What CodeIgniter's URI filter does with a segment, for one `permitted_uri_chars`. */
export type UriFilter =
  /** Segments must match `^[chars]+$`, case-insensitively; `setting` says which value, for messages. */
  | { kind: 'class'; chars: string; pattern: RE2JS; setting: string }
  /** Nothing is filtered (the setting is empty or unset). */
  | { kind: 'none' }
  /** preg_match() fails on the pattern: every segment it tests is refused. */
  | { kind: 'refuses'; why: string }
  /** What the setting lets through is not known statically. */
  | { kind: 'unknown'; why: string };

/** CodeIgniter's own config.php's value. */
export const DEFAULT_PERMITTED_URI_CHARS = 'a-z 0-9~%.:_\\-';

/** The filter of a literal `permitted_uri_chars` value; `source`, the file setting it, for messages. */
export function uriFilterOf(chars: string, source?: string): UriFilter {
  const setting = `${source === undefined ? '' : `${source}'s `}permitted_uri_chars '${shownChars(chars)}'`;
  if (chars === '') return { kind: 'none' };
  // PHP ends the pattern at the first unescaped delimiter, whatever the brackets: the rest is read
  // as modifiers, and `]` is none ("Unknown modifier").
  if (/(?:^|[^\\])(?:\\\\)*\//.test(chars)) return { kind: 'refuses', why: `${setting} holds an unescaped '/', which ends preg_match()'s pattern: PHP fails on it ("Unknown modifier"), and CodeIgniter refuses every URI segment` };
  const body = re2ClassBody(chars);
  if (typeof body !== 'string') return { kind: 'unknown', why: `${setting} holds ${body.feature}, not read here` };
  try {
    return { kind: 'class', chars, pattern: RE2JS.compile(`^[${body}]+$`, RE2JS.CASE_INSENSITIVE), setting };
  } catch (e) {
    // A range out of order fails in PCRE as in RE2; anything else RE2 refuses may be PCRE's own syntax.
    const reversed = /(?:^|[^\\])([^\\\]])-([^\\\]])/.exec(chars);
    if (reversed && reversed[2].codePointAt(0)! < reversed[1].codePointAt(0)!) {
      return { kind: 'refuses', why: `${setting} holds the range '${reversed[1]}-${reversed[2]}', out of order: PHP's preg_match() fails on it, and CodeIgniter refuses every URI segment` };
    }
    return { kind: 'unknown', why: `${setting} is not read here (${e instanceof Error ? e.message : String(e)})` };
  }
}

/**
 * The class's text for RE2. PHP's `u` modifier also sets PCRE2_UCP: `\w` and `\d` are Unicode's
 * (PHP 8.2: `\w` lets `é` through), where RE2's are ASCII's; they are written as Unicode
 * properties. Other class escapes and POSIX classes, whose Unicode readings differ more, are not read.
 */
function re2ClassBody(chars: string): string | { feature: string } {
  let body = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '[' && chars[i + 1] === ':') return { feature: 'a POSIX class' };
    if (c !== '\\') {
      body += c;
      continue;
    }
    const e = chars[i + 1] ?? '';
    i++;
    if (e === 'w') body += '\\p{L}\\p{N}_';
    else if (e === 'd') body += '\\p{Nd}';
    else if (e === 'p' || e === 'P' || !/[A-Za-z0-9]/.test(e)) body += `\\${e}`;
    else return { feature: `'\\${e}'` };
  }
  return body;
}

export const DEFAULT_URI_FILTER = uriFilterOf(DEFAULT_PERMITTED_URI_CHARS, "CodeIgniter's default config.php");

/** Whether the filter refuses one segment: true, false, or undefined when not known. */
export function refuses(filter: UriFilter, segment: string): boolean | undefined {
  if (segment === '' || segment === '0' || filter.kind === 'none') return false;
  if (filter.kind === 'refuses') return true;
  if (filter.kind === 'unknown') return undefined;
  return !filter.pattern.matches(segment);
}

/**
 * The first segment the filter (CodeIgniter's default unless given) refuses, with why (what a
 * user sees beside CodeIgniter's "disallowed characters"); `unknown` when one may be refused and
 * none surely is.
 */
export function refusedSegment(filter: UriFilter | undefined, segments: readonly string[]): { segment: string; why: string } | { unknown: string } | undefined {
  filter ??= DEFAULT_URI_FILTER;
  let unsure = false;
  for (const segment of segments) {
    const verdict = refuses(filter, segment);
    if (verdict === true) return { segment, why: filter.kind === 'refuses' ? filter.why : `the segment '${shownChars(segment)}' holds a character ${filter.kind === 'class' ? filter.setting : 'the setting'} does not permit` };
    if (verdict === undefined) unsure = true;
  }
  return unsure && filter.kind === 'unknown' ? { unknown: `whether CodeIgniter's URI filter lets this URI through is not known: ${filter.why}` } : undefined;
}

/** A `permitted_uri_chars` value (or a URI segment) as messages quote it: cut at 60 characters. */
export function shownChars(chars: string): string {
  return chars.length > 60 ? `${chars.slice(0, 59)}…` : chars;
}
