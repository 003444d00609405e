import { expandWildcards, unescapedDelimiter } from '../../router/pattern';
import { withThousands } from '../../util/without-icu';
import { SYMBOL_OF } from './pattern-automata';

/**
 * Translation of a CodeIgniter route key (a PCRE pattern used as `#^KEY$#`) into JavaScript
 * regular-expression source (the subset position-nfa.ts reads), keeping the meaning exact on the URIs that can
 * reach the router (see inclusion.ts). Anything whose meaning could differ between PCRE and
 * JavaScript, or that has no regular language (look-arounds, back-references), is refused with a
 * reason instead of being guessed.
 */

/** One top-level alternative of `^KEY$`, with the anchors that apply to it. */
export interface Alternative {
  /** JavaScript source without anchors, no flags (read by position-nfa.ts, and valid for JavaScript, RE2 and PCRE alike). */
  readonly source: string;
  /** The alternative must start at the start of the URI (`^` applies to it). */
  readonly anchoredStart: boolean;
  /** The alternative must end at the end of the URI (`$` applies to it). */
  readonly anchoredEnd: boolean;
}

export type Translation =
  | { readonly ok: true; readonly alternatives: readonly Alternative[] }
  /** `delimiter`: the key contains an unescaped `#`, so preg_match fails and it never matches. */
  | { readonly ok: false; readonly reason: string; readonly delimiter?: boolean };

/** Characters that make a key more than a plain literal (PCRE metacharacters and the delimiter). */
const META = /[\\^$.|?*+()[\]{}#]/;

/** The expanded key itself when it is a plain literal (no metacharacter at all), else null. */
export function literalKey(key: string): string | null {
  const expanded = expandWildcards(key);
  return META.test(expanded) ? null : expanded;
}

/**
 * Whether the key is written without a pattern and every character of its one URI is one of
 * CodeIgniter's default permitted ones: what is concluded of it (taken first by an earlier key,
 * or no URI at all) holds whatever other characters an application permits.
 */
export function literalOfDefaultChars(key: string): boolean {
  const literal = literalKey(key);
  if (literal === null) return false;
  // The automata's own alphabet (pattern-automata.ts): '/' and the default's characters.
  for (let i = 0; i < literal.length; i++) {
    const c = literal.charCodeAt(i);
    if (c >= 128 || SYMBOL_OF[c] < 0) return false;
  }
  return true;
}

/**
 * The literal first segment every match of the key starts with, read from the text only (no
 * automaton): the key is one alternative starting with plain characters followed by an
 * unquantified `/` (or made only of such characters). Null when that cannot be seen cheaply.
 * Sound for keys that cannot be translated too: it relies on nothing after that `/`.
 */
export function textualFirstSegment(key: string): string | null {
  return firstSegmentOf(expandWildcards(key));
}

function firstSegmentOf(expanded: string): string | null {
  const m = /^\^*([A-Za-z0-9 ~%:_-]+)(\/(?![*+?{])|$)/.exec(expanded);
  if (!m) return null;
  return topLevelAlternatives(expanded) === 1 ? m[1]! : null;
}

/**
 * For a key with a textual first segment (see firstSegmentOf): the literal second segment every
 * match goes on with, when the key goes on with plain characters followed by an unquantified `/`
 * or its end (`admin/users/(:any)`: `users`). Two keys whose second segments differ share no URI.
 */
function secondSegmentOf(expanded: string): string | null {
  const m = /^\^*[A-Za-z0-9 ~%:_-]+\/([A-Za-z0-9 ~%:_-]+)(\/(?![*+?{])|$)/.exec(expanded);
  return m ? m[1]! : null;
}

/**
 * The part of a key before its first top-level, unquantified `/` (the whole key when there is
 * none): every URI the key matches starts with a string that part matches, followed by `/` or
 * the end. Null when the text does not show it (several top-level alternatives, `\Q`, a `/`
 * that is quantified).
 */
export function leadingPattern(key: string, expand: ExpandKey = expandWildcards): string | null {
  const s = expand(key);
  if (topLevelAlternatives(s) !== 1) return null;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i++;
      if (s[i] === '^') i++;
      if (s[i] === ']') i++;
      while (i < s.length && s[i] !== ']') {
        if (s[i] === '\\') i++;
        i++;
      }
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '/' && depth === 0) return /^[*+?{]/.test(s.slice(i + 1, i + 2)) ? null : s.slice(0, i);
  }
  return s;
}

/** Number of top-level alternatives (null when the text cannot be scanned reliably, e.g. `\Q`). */
function topLevelAlternatives(s: string): number | null {
  let depth = 0;
  let count = 1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      if (s[i + 1] === 'Q') return null;
      i++;
    } else if (c === '[') {
      i++;
      if (s[i] === '^') i++;
      if (s[i] === ']') i++;
      while (i < s.length && s[i] !== ']') {
        if (s[i] === '\\') i++;
        else if (s[i] === '[' && /^\[([:.=]).*?\1\]/.test(s.slice(i))) return null;
        i++;
      }
      if (i >= s.length) return null;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) count++;
  }
  return count;
}

class Refused extends Error {}

function refuse(reason: string): never {
  throw new Refused(reason);
}

const HEX2 = /^[0-9A-Fa-f]{2}/;

function hex(code: number): string {
  return `\\x${code.toString(16).padStart(2, '0')}`;
}

const SAFE_OUTSIDE = new Uint8Array(128);
const SAFE_INSIDE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~%: ') {
  SAFE_OUTSIDE[ch.charCodeAt(0)] = 1;
  SAFE_INSIDE[ch.charCodeAt(0)] = 1;
}
SAFE_OUTSIDE[0x2d] = 1; // '-' is only special inside a class

/** A literal ASCII character outside a class, written so that JS, RE2 and PCRE agree. */
function literalOutside(code: number): string {
  return SAFE_OUTSIDE[code] ? String.fromCharCode(code) : hex(code);
}

function literalInside(code: number): string {
  return SAFE_INSIDE[code] ? String.fromCharCode(code) : hex(code);
}

/**
 * Keys come as the router's preg_match() reads them, without the `u` modifier: as bytes, one
 * character each (util/utf8-bytes.ts), so a byte 0x80–0xFF is a literal byte, as
 * PCRE takes it (a quantifier after `ſ` applies to its last byte only). A character beyond 0xFF
 * means the key was not written as bytes: it is modelled, as before bytes were read, by atoms
 * that match no URI character.
 */
const NON_ASCII_OUTSIDE = '\\xff\\xff';
/** Inside a class only the order relative to ASCII matters (every byte is >= 0x80). */
const NON_ASCII_INSIDE = '\\xff';
/** The highest byte: what a key written as bytes may hold. */
const MAX_BYTE = 0xff;
/** A character beyond a byte, in a class: ordered as the highest byte. */
const NON_ASCII_CODE = 0xff;

type Last = 'none' | 'atom' | 'quantifier' | 'anchor';

type ClassItem = { kind: 'char'; code: number; src: string } | { kind: 'set'; src: string } | { kind: 'dash' };

/** Translates a raw route key; never throws. */
export function translateRouteKey(key: string): Translation {
  return translateExpanded(expandWildcards(key));
}

/** What the inclusion checker needs to know about a key before any automaton work. */
export interface KeyText {
  /** The key with `:any` and `:num` expanded, as CodeIgniter hands it to preg_match. */
  readonly expanded: string;
  /** The expanded key when it is a plain literal, else null (see literalKey). */
  readonly literal: string | null;
  /** See textualFirstSegment. */
  readonly firstSegment: string | null;
  /** With a textual first segment, the literal second one every match goes on with, when the text shows it too (see secondSegmentOf). */
  readonly secondSegment: string | null;
}

/** How a key's `:any` and `:num` are written out: CodeIgniter's (`[^/]+`), or a module routes file's (`.+`). */
export type ExpandKey = (key: string) => string;

export function describeKey(key: string, expand: ExpandKey = expandWildcards): KeyText {
  const expanded = expand(key);
  const firstSegment = firstSegmentOf(expanded);
  return { expanded, literal: META.test(expanded) ? null : expanded, firstSegment, secondSegment: firstSegment === null ? null : secondSegmentOf(expanded) };
}

/** translateRouteKey for a key whose wildcards are already expanded. */
export function translateExpanded(s: string): Translation {
  if (unescapedDelimiter(s) >= 0) {
    return { ok: false, delimiter: true, reason: `the key contains CodeIgniter's delimiter "#", so preg_match() fails on it` };
  }
  try {
    return { ok: true, alternatives: translate(s) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    return { ok: false, reason: `cannot translate the pattern: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Copies of an item the automaton of a key may hold once counted repetitions are expanded
 * (`(a{1,20}){1,20}` holds 400 `a`s): nested ones multiply, and building the automaton of
 * `((a{1,20}){1,20}){1,20}` (8,000) took seconds.
 */
export const MAX_EXPANDED_ITEMS = 1_000;

/** The longest key the analysis translates (a literal one included): longer keys are left undecided. */
export const MAX_KEY_LENGTH = 4_096;

function translate(s: string): Alternative[] {
  if (s.length > MAX_KEY_LENGTH) refuse(`the key is longer than ${withThousands(MAX_KEY_LENGTH)} characters`);
  const alternatives: Alternative[] = [];
  let out = '';
  // Expanded size: of the items of each open group (outermost first) and of the last item.
  const sizes: number[] = [0];
  let lastSize = 0;
  const grow = (items: number): void => {
    sizes[sizes.length - 1]! += items;
    if (sizes[sizes.length - 1]! > MAX_EXPANDED_ITEMS) refuse(`its counted repetitions expand to more than ${withThousands(MAX_EXPANDED_ITEMS)} items`);
  };
  let anchoredStart = false;
  let endSeen = false;
  let depth = 0;
  const groups: { at: number; alternation: boolean }[] = [];
  let last: Last = 'none';
  /** Whether the current top-level alternative has produced anything but `^` so far. */
  let started = false;
  let i = 0;

  const closeAlternative = (isLast: boolean): void => {
    alternatives.push({
      source: out,
      anchoredStart: alternatives.length === 0 || anchoredStart,
      anchoredEnd: isLast || endSeen,
    });
    out = '';
    anchoredStart = false;
    endSeen = false;
    started = false;
    last = 'none';
  };
  const atom = (src: string): void => {
    if (endSeen) refuse('a "$" assertion before the end of an alternative is not supported');
    out += src;
    last = 'atom';
    started = true;
    lastSize = 1;
    grow(1);
  };

  while (i < s.length) {
    const c = s[i]!;
    const code = s.codePointAt(i)!;
    if (code > 0x7f) {
      atom(code <= MAX_BYTE ? hex(code) : NON_ASCII_OUTSIDE);
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    switch (c) {
      case '\\': {
        atom(escapeOutside(s, i));
        i += escapeLength(s, i);
        continue;
      }
      case '[': {
        const cls = characterClass(s, i);
        atom(cls.src);
        i = cls.end;
        continue;
      }
      case '(': {
        if (endSeen) refuse('a "$" assertion before the end of an alternative is not supported');
        groupOpening(s, i);
        groups.push({ at: out.length, alternation: false });
        sizes.push(0);
        out += '(?:';
        i += groupOpeningLength(s, i);
        depth++;
        last = 'none';
        started = true;
        continue;
      }
      case ')': {
        if (depth === 0) refuse('unmatched ")"');
        depth--;
        // Captures mean nothing for a language (back-references are refused): every group is
        // non-capturing, and one without alternation or quantifier is inlined.
        const group = groups.pop()!;
        const quantified = /^(?:[*+?]|\{\d+(?:,\d*)?\})/.test(s.slice(i + 1, i + 24));
        if (group.alternation || quantified) out += ')';
        else out = out.slice(0, group.at) + out.slice(group.at + 3);
        lastSize = sizes.pop()!;
        grow(lastSize);
        last = 'atom';
        i++;
        continue;
      }
      case '|': {
        if (depth === 0) closeAlternative(false);
        else {
          groups[groups.length - 1]!.alternation = true;
          out += '|';
          last = 'none';
        }
        i++;
        continue;
      }
      case '^': {
        if (depth > 0) refuse('a "^" assertion inside a group is not supported');
        if (started || endSeen) refuse('a "^" assertion after the start of an alternative is not supported');
        anchoredStart = true;
        last = 'anchor';
        i++;
        continue;
      }
      case '$': {
        if (depth > 0) refuse('a "$" assertion inside a group is not supported');
        endSeen = true;
        last = 'anchor';
        i++;
        continue;
      }
      case '*':
      case '+':
      case '?': {
        i = quantifier(s, i, i + 1, c);
        // `x+` is built as `xx*`.
        if (c === '+') grow(lastSize);
        continue;
      }
      case '{': {
        const m = /^\{(\d+)(?:,(\d*))?\}/.exec(s.slice(i, i + 32));
        if (m) {
          const min = Number(m[1]);
          const max = m[2] === undefined ? min : m[2] === '' ? Infinity : Number(m[2]);
          if (min > 1000 || (max !== Infinity && max > 1000)) refuse(`repetition count ${m[0]} is too large to analyse`);
          if (max < min) refuse(`repetition ${m[0]} is out of order`);
          i = quantifier(s, i, i + m[0].length, m[0]);
          // `x{m,n}` is n copies of x, and `x{m,}` m copies and a `x*`.
          grow(lastSize * ((max === Infinity ? min + 1 : max) - 1));
          continue;
        }
        if (/^\{\s*\d*\s*(?:,\s*\d*\s*)?\}/.test(s.slice(i, i + 32)) && /^\{[^}]*\d/.test(s.slice(i, i + 32))) {
          refuse(`"${s.slice(i, s.indexOf('}', i) + 1)}" is read differently by PCRE versions`);
        }
        atom(hex(0x7b));
        i++;
        continue;
      }
      case '.':
        atom('.');
        i++;
        continue;
      default:
        atom(literalOutside(code));
        i++;
        continue;
    }
  }
  if (depth > 0) refuse('missing ")"');
  closeAlternative(true);
  return alternatives;

  function quantifier(src: string, at: number, after: number, text: string): number {
    if (last === 'none') refuse(`quantifier "${text}" does not follow a repeatable item`);
    if (last === 'anchor') refuse(`quantifier "${text}" applied to an assertion`);
    if (last === 'quantifier') refuse(`quantifier "${src.slice(at - 1, after)}" follows another quantifier (possessive or nested)`);
    let j = after;
    let lazy = false;
    if (src[j] === '?') {
      lazy = true;
      j++;
    }
    if (src[j] === '+' && !lazy) refuse(`possessive quantifier "${text}+" is not supported`);
    out += src.slice(at, j);
    last = 'quantifier';
    return j;
  }
}

function escapeLength(s: string, i: number): number {
  const next = s.codePointAt(i + 1);
  if (next === undefined) return 1;
  if (s[i + 1] === 'x' && HEX2.test(s.slice(i + 2, i + 4))) return 4;
  return next > 0xffff ? 3 : 2;
}

/** Describes PCRE escapes that have no exact JavaScript counterpart. */
function unsupportedEscape(e: string): string {
  switch (e) {
    case 'A':
    case 'z':
    case 'Z':
    case 'G':
      return `the PCRE anchor \\${e} is not supported`;
    case 'b':
    case 'B':
      return `the word-boundary assertion \\${e} is not supported`;
    case 'K':
      return 'the match-reset \\K is not supported';
    case 'Q':
    case 'E':
      return 'the \\Q...\\E quoting is not supported';
    case 'h':
    case 'H':
    case 'v':
    case 'V':
    case 'R':
    case 'X':
    case 'C':
    case 'N':
    case 'p':
    case 'P':
      return `the PCRE escape \\${e} is not supported`;
    case 'g':
    case 'k':
      return `the back-reference \\${e} is not supported`;
    default:
      if (/[1-9]/.test(e)) return `the back-reference \\${e} is not supported`;
      if (e === '0') return 'the octal escape \\0 is not supported';
      return `the escape \\${e} is not supported`;
  }
}

function escapeOutside(s: string, i: number): string {
  if (i + 1 >= s.length) refuse('the pattern ends with a backslash');
  const e = s[i + 1]!;
  const code = s.codePointAt(i + 1)!;
  if (code > 0x7f) return code <= MAX_BYTE ? hex(code) : NON_ASCII_OUTSIDE;
  if ('dDwWsStnrf'.includes(e)) return `\\${e}`;
  if (e === 'x') {
    const h = s.slice(i + 2, i + 4);
    if (HEX2.test(h)) return hex(parseInt(h, 16));
    refuse('the escape \\x without two hex digits is not supported');
  }
  if (/[A-Za-z0-9]/.test(e)) refuse(unsupportedEscape(e));
  return literalOutside(code);
}

function groupOpeningLength(s: string, i: number): number {
  if (s[i + 1] !== '?') return 1;
  const rest = s.slice(i, i + 40);
  const named = /^\(\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|'[A-Za-z_][A-Za-z0-9_]*')/.exec(rest);
  if (named) return named[0].length;
  return 3; // (?: and (?|
}

/** Checks a group opening: refuses everything but plain, non-capturing and named groups. */
function groupOpening(s: string, i: number): void {
  if (s[i + 1] === '*') refuse('PCRE verbs "(*...)" are not supported');
  if (s[i + 1] !== '?') return;
  const rest = s.slice(i, i + 40);
  if (rest.startsWith('(?:') || rest.startsWith('(?|')) return;
  if (rest.startsWith('(?=') || rest.startsWith('(?!')) refuse(`the look-ahead "${rest.slice(0, 3)}" is not supported`);
  if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) refuse(`the look-behind "${rest.slice(0, 4)}" is not supported`);
  if (rest.startsWith('(?>')) refuse('the atomic group "(?>" is not supported');
  if (rest.startsWith('(?P=') || rest.startsWith('(?P>') || rest.startsWith('(?&') || /^\(\?[R0-9+-]/.test(rest)) {
    if (/^\(\?-[a-zA-Z]/.test(rest)) refuse('inline flags "(?-...)" are not supported');
    refuse(`the back-reference or subroutine call "${rest.slice(0, 4)}" is not supported`);
  }
  if (rest.startsWith('(?#')) refuse('comments "(?#...)" are not supported');
  if (rest.startsWith('(?(')) refuse('conditional groups "(?(...)" are not supported');
  if (/^\(\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|'[A-Za-z_][A-Za-z0-9_]*')/.test(rest)) return;
  if (/^\(\?\^?[a-zA-Z]*(?:-[a-zA-Z]*)?[:)]/.test(rest)) refuse(`inline flags "${/^\(\?[^:)]*[:)]/.exec(rest)![0]}" are not supported`);
  refuse(`the group syntax "${rest.slice(0, 4)}" is not supported`);
}

/** A character class `[...]` starting at `start`, with PCRE's rules (`]` first is literal). */
function characterClass(s: string, start: number): { src: string; end: number } {
  let i = start + 1;
  let negated = false;
  if (s[i] === '^') {
    negated = true;
    i++;
  }
  const items: ClassItem[] = [];
  if (s[i] === ']') {
    items.push({ kind: 'char', code: 0x5d, src: hex(0x5d) });
    i++;
  }
  for (;;) {
    if (i >= s.length) refuse('missing "]" at the end of a character class');
    const c = s[i]!;
    const code = s.codePointAt(i)!;
    if (c === ']') {
      i++;
      break;
    }
    if (code > 0x7f) {
      items.push(code <= MAX_BYTE ? { kind: 'char', code, src: hex(code) } : { kind: 'char', code: NON_ASCII_CODE, src: NON_ASCII_INSIDE });
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    if (c === '[' && /^[:.=]/.test(s[i + 1] ?? '')) refuse('POSIX bracket expressions like "[:alpha:]" are not supported');
    if (c === '-') {
      items.push({ kind: 'dash' });
      i++;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= s.length) refuse('the pattern ends with a backslash');
      const e = s[i + 1]!;
      const ecode = s.codePointAt(i + 1)!;
      if (ecode > 0x7f) {
        items.push(ecode <= MAX_BYTE ? { kind: 'char', code: ecode, src: hex(ecode) } : { kind: 'char', code: NON_ASCII_CODE, src: NON_ASCII_INSIDE });
        i += ecode > 0xffff ? 3 : 2;
        continue;
      }
      if ('dDwWsS'.includes(e)) {
        items.push({ kind: 'set', src: `\\${e}` });
        i += 2;
        continue;
      }
      const simple: Record<string, number> = { t: 9, n: 10, r: 13, f: 12, b: 8 };
      if (simple[e] !== undefined) {
        items.push({ kind: 'char', code: simple[e]!, src: hex(simple[e]!) });
        i += 2;
        continue;
      }
      if (e === 'x') {
        const h = s.slice(i + 2, i + 4);
        if (!HEX2.test(h)) refuse('the escape \\x without two hex digits is not supported');
        const v = parseInt(h, 16);
        items.push({ kind: 'char', code: v, src: hex(v) });
        i += 4;
        continue;
      }
      if (/[A-Za-z0-9]/.test(e)) refuse(`${unsupportedEscape(e)} (in a character class)`);
      items.push({ kind: 'char', code: ecode, src: hex(ecode) });
      i += 2;
      continue;
    }
    items.push({ kind: 'char', code, src: literalInside(code) });
    i++;
  }
  // A dash first or last is a literal character.
  const asChar = (k: number): void => {
    if (items[k]?.kind === 'dash') items[k] = { kind: 'char', code: 0x2d, src: hex(0x2d) };
  };
  asChar(0);
  asChar(items.length - 1);
  let body = '';
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const next = items[k + 1];
    if (item.kind === 'dash') refuse('a "-" in the middle of a character class, next to a range or a class escape, is not supported');
    if (next?.kind === 'dash') {
      const hi = items[k + 2]!;
      if (item.kind !== 'char' || hi.kind !== 'char') refuse('a range with a class escape like "[\\w-.]" is not supported');
      if (item.code > hi.code) refuse('a character class range is out of order');
      body += `${item.src}-${hi.src}`;
      k += 2;
      if (items[k + 1]?.kind === 'dash') refuse('a "-" right after a range in a character class is not supported');
      continue;
    }
    body += item.src;
  }
  if (items.length === 0) refuse('empty character class');
  return { src: `[${negated ? '^' : ''}${body}]`, end: i };
}
