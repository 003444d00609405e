import { RE2JS } from 're2js';
import { GenerationalMap } from '../util/generational-map';
import { fromUtf8Bytes, utf8Bytes } from '../util/utf8-bytes';
import { BoundedMatcher } from './bounded-backtracking';
import { pcreSyntaxError } from './pcre-syntax';

/** Input longer than this is never given to the backtracking fallback. */
export const MAX_BACKTRACKING_INPUT = 256;

/** CodeIgniter's wildcard replacement: plain text replacement, wherever the text occurs. */
export function expandWildcards(key: string): string {
  return key.split(':any').join('[^/]+').split(':num').join('[0-9]+');
}

/**
 * Modular Extensions' (and Bonfire's) replacement in a module's routes file: `:any` becomes `.+`,
 * which may span several segments, where CodeIgniter's own is one segment.
 */
export function expandModuleWildcards(key: string): string {
  return key.split(':any').join('.+').split(':num').join('[0-9]+');
}

/** Characters that end a key's literal start: regular-expression syntax, CodeIgniter's `:any`/`:num` and its `#` delimiter. */
const NOT_LITERAL = new Set('\\^$.|?*+()[]{}:#');

/**
 * The text every URI a key matches starts with (`sec5/` for `sec5/(:num)/edit`): the key's
 * characters before the first piece of pattern syntax, less the last one when a quantifier
 * follows it. Empty when a top-level `|` could make the key match elsewhere (`#^a|b$#`).
 */
export function literalStart(key: string): string {
  if (key.includes('|') || key.includes('#')) return '';
  let i = 0;
  while (i < key.length && !NOT_LITERAL.has(key[i])) i++;
  const start = key.slice(0, i);
  return i < key.length && '?*+{'.includes(key[i]) ? start.slice(0, -1) : start;
}

/** Index of the first `#` that ends the pattern (CodeIgniter's delimiter), or -1. */
export function unescapedDelimiter(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '#') return i;
  }
  return -1;
}

/** Counts capture groups without compiling: `(` not escaped, not in a class, not `(?:`-like. */
export function countGroups(regex: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i++;
    else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (regex[i + 1] === '^') i++;
      if (regex[i + 1] === ']') i++;
    } else if (c === '(') {
      if (regex[i + 1] !== '?') n++;
      else if (/^\(\?(P?<[A-Za-z_]|')/.test(regex.slice(i, i + 4))) n++;
    }
  }
  return n;
}

type Matcher = { find(uri: string, from: number): { start: number; end: number; groups: string[] } | null };

/**
 * A route key as CodeIgniter 3 uses it: `(:any)`/`(:num)` replaced, then `#^KEY$#` as a PCRE
 * pattern (so a top-level `a|b` means "starts with a, or ends with b"). Matching runs on RE2
 * (linear time); the few PCRE features RE2 lacks fall back to a backtracking match on short input
 * only, with a step budget. Compilation happens on first use: analyses that only need the group
 * count never pay it.
 */
export class CompiledPattern {
  /** The key with wildcards replaced, as CodeIgniter passes it to preg_match. */
  readonly regex: string;
  /** CodeIgniter substitutes `$n` in the target only when the key contains `(`. */
  readonly substitutes: boolean;
  /** Number of capture groups. */
  readonly groups: number;
  private compiled: { matcher: Matcher; engine: 're2' | 'backtracking' } | { error: string } | undefined;

  /** @param regex the key with its wildcards replaced (CodeIgniter's replacement unless given) */
  constructor(
    readonly key: string,
    regex = expandWildcards(key),
  ) {
    this.regex = regex;
    this.substitutes = this.regex.includes('(');
    this.groups = countGroups(this.regex);
  }

  private compile(): { matcher: Matcher; engine: 're2' | 'backtracking' } | { error: string } {
    if (this.compiled) return this.compiled;
    const delimiter = unescapedDelimiter(this.regex);
    if (delimiter >= 0) {
      this.compiled = { error: `preg_match(): Unknown modifier '${this.regex[delimiter + 1] ?? ''}' (the key contains CodeIgniter's delimiter "#")` };
    } else {
      // On bytes, as preg_match() without `u` reads the key and the URI (see utf8-bytes.ts).
      const bytes = utf8Bytes(this.regex);
      this.compiled = compileRe2(bytes) ?? compileBacktracking(bytes);
    }
    return this.compiled;
  }

  private structural: string | null | undefined;

  /**
   * A structural reason PCRE certainly rejects the key (the `#` delimiter, an unbalanced group…),
   * found without compiling; null when there is none. Computed once per key.
   */
  get syntaxError(): string | null {
    if (this.structural === undefined) {
      this.structural =
        unescapedDelimiter(this.regex) >= 0 ? `it contains '#', CodeIgniter's pattern delimiter; escape it as '\\#'` : (pcreSyntaxError(this.regex) ?? null);
    }
    return this.structural;
  }

  /** Why PCRE would reject the pattern (preg_match fails with a warning), if it would. */
  get error(): string | undefined {
    const c = this.compile();
    return 'error' in c ? c.error : undefined;
  }

  get engine(): 're2' | 'backtracking' | 'none' {
    const c = this.compile();
    return 'error' in c ? 'none' : c.engine;
  }

  /** `preg_match('#^KEY$#', $uri, $m)`: the groups of the first match (index 0 the matched text). */
  match(uri: string): string[] | null {
    return this.matchBytes(utf8Bytes(uri));
  }

  /** The bytes every match starts with (see literalStart), and whether they are the whole pattern. */
  private prefix: { bytes: string; whole: boolean } | undefined;

  /** match() of a URI written as its bytes (utf8Bytes), converted once for a loop trying it on many keys. */
  matchBytes(bytes: string): string[] | null {
    // Most keys tried on a URI start with other text: told without compiling a program (about
    // 14 KB each in RE2, kept with the key), and a key of plain text needs none at all.
    const prefix = (this.prefix ??= literalPrefix(this.regex));
    if (!bytes.startsWith(prefix.bytes)) return null;
    if (prefix.whole) return bytes === prefix.bytes ? [fromUtf8Bytes(bytes)] : null;
    const c = this.compile();
    if ('error' in c) return null;
    const groups = c.matcher.find(bytes, 0)?.groups;
    return groups ? groups.map(fromUtf8Bytes) : null;
  }

  /** `preg_replace('#^KEY$#', $replacement, $uri)`: every match replaced, with `$n` expanded. */
  replace(uri: string, replacement: string): string {
    const c = this.compile();
    if ('error' in c) return uri;
    const bytes = utf8Bytes(uri);
    const written = utf8Bytes(replacement);
    let out = '';
    let pos = 0;
    for (let from = 0; from <= bytes.length; ) {
      const m = c.matcher.find(bytes, from);
      if (!m) break;
      out += bytes.slice(pos, m.start) + substituteBackReferences(written, m.groups);
      pos = m.end;
      from = m.end > m.start ? m.end : m.end + 1;
    }
    return fromUtf8Bytes(out + bytes.slice(pos));
  }
}

/** A pattern's literal start as bytes, and whether it is the whole pattern (text without syntax). */
function literalPrefix(regex: string): { bytes: string; whole: boolean } {
  const start = literalStart(regex);
  return { bytes: utf8Bytes(start), whole: start === regex && start !== '' };
}

function compileRe2(regex: string): { matcher: Matcher; engine: 're2' } | undefined {
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^${regex}$`);
  } catch {
    return undefined;
  }
  const n = re.groupCount();
  return {
    engine: 're2',
    matcher: {
      find(uri, from) {
        const m = re.matcher(uri);
        if (!m.find(from)) return null;
        const groups: string[] = [];
        for (let i = 0; i <= n; i++) groups.push(m.group(i) ?? '');
        return { start: m.start(), end: m.end(), groups };
      },
    },
  };
}

/** PCRE syntax that JavaScript spells differently. */
function pcreToJs(regex: string): string {
  return regex
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\(\?>/g, '(?:')
    .replace(/([*+?}])\+/g, '$1');
}

function compileBacktracking(regex: string): { matcher: Matcher; engine: 'backtracking' } | { error: string } {
  const source = `^${pcreToJs(regex)}$`;
  let bounded: BoundedMatcher;
  try {
    // RegExp tells whether (and why) the pattern is invalid; it never runs on user input.
    new RegExp(source);
    bounded = new BoundedMatcher(source);
  } catch (e) {
    return { error: `preg_match(): Compilation failed: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
  return {
    engine: 'backtracking',
    matcher: {
      // Short input and a step budget: `((a+)+)+\1$` gives up (no match) as PCRE does at its backtrack limit.
      find: (uri, from) => (uri.length > MAX_BACKTRACKING_INPUT ? null : bounded.find(uri, from)),
    },
  };
}

/** Compiled keys: a table's keys stay, keys typed long ago (with their compiled programs) go. */
const cache = new GenerationalMap<string, CompiledPattern>(20_000);

export function compileRouteKey(key: string): CompiledPattern {
  let hit = cache.get(key);
  if (!hit) cache.set(key, (hit = new CompiledPattern(key)));
  return hit;
}

const moduleCache = new GenerationalMap<string, CompiledPattern>(5_000);

/** A key of a module's routes file, as the HMVC routers match it (see expandModuleWildcards). */
export function compileModuleRouteKey(key: string): CompiledPattern {
  let hit = moduleCache.get(key);
  if (!hit) moduleCache.set(key, (hit = new CompiledPattern(key, expandModuleWildcards(key))));
  return hit;
}

/**
 * Expands a preg_replace replacement for one match: `$n`, `${n}` and `\n` (n up to 99) become
 * the groups; groups that did not take part or do not exist give ''.
 */
export function substituteBackReferences(target: string, groups: string[]): string {
  return target.replace(/\\\\|\$\{(\d{1,2})\}|\$(\d{1,2})|\\(\d{1,2})/g, (whole, a: string | undefined, b: string | undefined, c: string | undefined) => {
    if (whole === '\\\\') return '\\';
    const n = Number(a ?? b ?? c);
    return groups[n] ?? '';
  });
}
