/**
 * CodeIgniter's `permitted_uri_chars` and the URI alphabet the reachability checks assume: the
 * default's, `a-z 0-9~%.:_\-` read case-insensitively (CI_URI::_filter_uri() tests each segment
 * with `/^[<chars>]+$/i`). An application that permits more (`+`, `(`, `?`, an empty value that
 * filters nothing) routes URIs the checks' automata never hold: what they conclude may not hold.
 */

import { permittedUriCharsOf, type PermittedUriChars } from './url-suffix';
import { DEFAULT_URI_FILTER, shownChars, uriFilterOf, type UriFilter } from '../router/uri-filter';
import type { ProjectFiles } from './project-files';

/**
 * Why an application's URIs may hold characters beyond the default: its config.php (or the
 * environment's) sets permitted_uri_chars to more, or otherwise than to a literal, or does not
 * set it (CI_URI then filters nothing). Undefined when it sets a part of the default, or when
 * there is no config.php to read (a repository keeping CodeIgniter's as config.php.dist).
 */
export function uriCharsBeyondOf(appDir: string, environment: string | undefined, files: ProjectFiles): string | undefined {
  const set = permittedUriCharsOf(appDir, environment, files);
  return uriCharsBeyondOfSetting(set, uriFilterOfSetting(set));
}

/** uriCharsBeyondOf() of a setting already read, and of the filter it makes. */
export function uriCharsBeyondOfSetting(set: PermittedUriChars | undefined, filter: UriFilter): string | undefined {
  if (set === undefined) return undefined;
  if (!set.set) return `${set.source}, so CodeIgniter filters no character`;
  if (set.chars === undefined) return set.source.replace(/ sets it /, ' sets permitted_uri_chars ');
  // A value PHP's preg_match() fails on refuses every URI: say so rather than what it seems to permit.
  if (filter.kind === 'refuses') return filter.why;
  const beyond = charsBeyondDefault(set.chars);
  return beyond && `${set.source} sets permitted_uri_chars to '${shownChars(set.chars)}', which ${beyond}`;
}

/**
 * The URI filter a setting makes: CodeIgniter's default when there is no config/config.php to
 * read (a repository keeping CodeIgniter's as config.php.dist), as the reachability checks assume;
 * none when config.php leaves it unset; unknown when it is not a literal.
 */
export function uriFilterOfSetting(set: PermittedUriChars | undefined): UriFilter {
  if (set === undefined) return DEFAULT_URI_FILTER;
  if (!set.set) return { kind: 'none' };
  if (set.chars === undefined) return { kind: 'unknown', why: set.source.replace(/ sets it /, ' sets permitted_uri_chars ') };
  return uriFilterOf(set.chars, set.source);
}

/** One character of the default alphabet. */
const DEFAULT_CHAR = /^[a-z0-9 ~%.:_-]$/i;

/** Ranges wider than this are not read character by character: they permit more than the default. */
const MAX_RANGE = 128;

/** What a character class's item is: a code point, or a feature not read (a class escape, a POSIX class). */
type Item = { char: number; escaped?: true } | { feature: string };

/**
 * Why a `permitted_uri_chars` value lets URIs hold characters the default lacks; undefined when
 * every character it permits is one of the default's (a narrower value: what the checks
 * conclude then holds for fewer URIs, so still holds).
 */
export function charsBeyondDefault(chars: string): string | undefined {
  if (chars === '') return 'is empty: CodeIgniter then filters no character';
  if (chars.startsWith('^')) return "starts with '^': it permits every character it does not list";
  const items: Item[] = [];
  for (let i = 0; i < chars.length; ) {
    const c = chars.codePointAt(i)!;
    const width = c > 0xffff ? 2 : 1;
    if (c === 0x5c /* \ */) {
      const e = chars.codePointAt(i + 1);
      if (e === undefined) return "ends with a lone '\\'";
      // `\d`, `\w`, `\p{…}`…: a class of characters; `\-`, `\.`, `\\`: the character itself.
      items.push(/[A-Za-z0-9]/.test(String.fromCodePoint(e)) ? { feature: `\\${String.fromCodePoint(e)}` } : { char: e, escaped: true });
      i += e > 0xffff ? 3 : 2;
      continue;
    }
    if (c === 0x5b /* [ */ || c === 0x5d /* ] */) items.push({ feature: String.fromCodePoint(c) });
    else items.push({ char: c });
    i += width;
  }
  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if ('feature' in item) return `holds '${item.feature}', not read here`;
    const dash = items[k + 1];
    const to = items[k + 2];
    // `x-y`: a range, unless the dash is the last item (then a character, as at the start).
    if (dash !== undefined && 'char' in dash && dash.char === 0x2d && !dash.escaped && to !== undefined && 'char' in to) {
      if (to.char < item.char) return `holds the range '${String.fromCodePoint(item.char)}-${String.fromCodePoint(to.char)}', out of order (PHP's preg_match() fails on it)`;
      if (to.char - item.char > MAX_RANGE) return `permits the range '${String.fromCodePoint(item.char)}-${String.fromCodePoint(to.char)}'`;
      for (let c = item.char; c <= to.char; c++) if (!DEFAULT_CHAR.test(String.fromCodePoint(c))) return `permits '${String.fromCodePoint(c)}'`;
      k += 2;
      continue;
    }
    if (!DEFAULT_CHAR.test(String.fromCodePoint(item.char))) return `permits '${String.fromCodePoint(item.char)}'`;
  }
  return undefined;
}
