import { RE2JS } from 're2js';

/**
 * A route key compiled the way CodeIgniter 3 uses it: `(:any)` and `(:num)` replaced, then
 * `#^KEY$#` as a PCRE pattern. Matching runs on RE2 (linear time, no catastrophic backtracking);
 * the few PCRE features RE2 lacks (look-arounds, back-references) fall back to a bounded
 * backtracking match on short input only.
 */
export interface CompiledPattern {
  /** The key with wildcards replaced, as CodeIgniter passes it to preg_match. */
  readonly regex: string;
  /** CodeIgniter substitutes `$n` in the target only when the key contains `(`. */
  readonly substitutes: boolean;
  /** Why PCRE would reject the pattern (preg_match returns false with a warning), if it would. */
  readonly error?: string;
  /** 're2' normally; 'backtracking' when the pattern needs features RE2 does not have. */
  readonly engine: 're2' | 'backtracking' | 'none';
  /** Number of capture groups. */
  readonly groups: number;
  /** Full-string match: index 0 is the whole URI, then each group ('' when it did not take part). */
  match(uri: string): string[] | null;
}

/** Input longer than this is never given to the backtracking fallback. */
export const MAX_BACKTRACKING_INPUT = 256;

const cache = new Map<string, CompiledPattern>();

/** CodeIgniter's wildcard replacement: plain text replacement, wherever the text occurs. */
export function expandWildcards(key: string): string {
  return key.split(':any').join('[^/]+').split(':num').join('[0-9]+');
}

/** Index of the first `#` that ends the pattern (CodeIgniter's delimiter), or -1. */
function unescapedDelimiter(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '#') return i;
  }
  return -1;
}

export function compileRouteKey(key: string): CompiledPattern {
  let hit = cache.get(key);
  if (!hit) {
    hit = compile(key);
    if (cache.size > 50_000) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}

function compile(key: string): CompiledPattern {
  const regex = expandWildcards(key);
  const substitutes = regex.includes('(');
  const delimiter = unescapedDelimiter(regex);
  if (delimiter >= 0) {
    return failed(regex, substitutes, `preg_match(): Unknown modifier '${regex[delimiter + 1] ?? ''}' (the key contains CodeIgniter's delimiter "#")`);
  }
  try {
    const re = RE2JS.compile(`^(?:${regex})$`);
    const groups = re.groupCount();
    return {
      regex,
      substitutes,
      engine: 're2',
      groups,
      match(uri: string): string[] | null {
        const m = re.matcher(uri);
        if (!m.matches()) return null;
        const out: string[] = [];
        for (let i = 0; i <= groups; i++) out.push(m.group(i) ?? '');
        return out;
      },
    };
  } catch (re2Error) {
    return compileBacktracking(regex, substitutes, re2Error instanceof Error ? re2Error.message : String(re2Error));
  }
}

function failed(regex: string, substitutes: boolean, error: string): CompiledPattern {
  return { regex, substitutes, error, engine: 'none', groups: 0, match: () => null };
}

/** PCRE syntax that JavaScript spells differently. */
function pcreToJs(regex: string): string {
  return regex
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\(\?>/g, '(?:')
    .replace(/([*+?}])\+/g, '$1');
}

function compileBacktracking(regex: string, substitutes: boolean, re2Error: string): CompiledPattern {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pcreToJs(regex)})$`);
  } catch {
    return failed(regex, substitutes, `preg_match(): Compilation failed: ${re2Error.replace(/^error parsing regexp: /, '')}`);
  }
  const groups = new RegExp(`${re.source}|`).exec('')!.length - 1;
  return {
    regex,
    substitutes,
    engine: 'backtracking',
    groups,
    match(uri: string): string[] | null {
      if (uri.length > MAX_BACKTRACKING_INPUT) return null;
      const m = re.exec(uri);
      return m ? Array.from(m, (g) => g ?? '') : null;
    },
  };
}

/**
 * `preg_replace('#^KEY$#', $target, $uri)` for a URI the key matched in full: the target with
 * `$n`, `${n}` and `\n` (n up to 99) replaced by the groups; missing groups give ''.
 */
export function substituteBackReferences(target: string, groups: string[]): string {
  return target.replace(/\\\\|\$\{(\d{1,2})\}|\$(\d{1,2})|\\(\d{1,2})/g, (whole, a: string | undefined, b: string | undefined, c: string | undefined) => {
    if (whole === '\\\\') return '\\';
    const n = Number(a ?? b ?? c);
    return groups[n] ?? '';
  });
}
