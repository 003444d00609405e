/**
 * A tolerant PHP tokenizer for the indexer's recovery path. It never throws and never recurses:
 * nested constructs (`"{$a["{$b}"]}"`, heredocs in interpolation, ...) live on an explicit mode
 * stack, and every step consumes at least one character.
 *
 * It knows what decides where code is: inline HTML outside `<?php` / `<?=` ... `?>` (short tags
 * off, as the parser is configured), comments (`//` and `#` end at a newline or `?>`), every kind
 * of string with `{$...}` / `${...}` interpolation, heredoc and nowdoc, PHP 8 attributes `#[`.
 * Only top-level code is emitted as tokens: whitespace, comments and inline HTML are dropped, a
 * string is one token, and nothing inside string interpolation is emitted.
 */

import { decodeStringContent } from './php-index-model';

export type TokenType = 'name' | 'var' | 'string' | 'number' | 'punct';

export interface Token {
  type: TokenType;
  start: number;
  end: number;
  /** name, var, number, punct: the source text. string: the decoded value when `literal`, else ''. */
  text: string;
  /** Strings only: a complete single- or double-quoted string without interpolation. */
  literal: boolean;
  /** Strings only: offsets of the text between the quotes, when `literal`. */
  contentStart: number;
  contentEnd: number;
}

type Mode =
  | { kind: 'dq'; close: number; start: number; prefix: number; interpolated: boolean }
  | { kind: 'heredoc'; terminator: RegExp; start: number; lineStart: boolean }
  | { kind: 'interp'; depth: number };

const OPEN_TAG = /<\?(?:php(?=[ \t\r\n]|$)|=)/gi;
/** With short_open_tag on, a bare `<?` opens PHP too (an XML declaration, `<?xml`, is left as text). */
const OPEN_TAG_SHORT = /<\?(?:php(?=[ \t\r\n]|$)|=|(?!xml))/gi;
const LABEL = '[A-Za-z_\\x80-\\uffff][A-Za-z0-9_\\x80-\\uffff]*';
const HEREDOC_START = new RegExp(`<<<[ \\t]*(?:"(${LABEL})"|'(${LABEL})'|(${LABEL}))(?:\\r\\n|\\n|\\r)`, 'y');

/** Operators of three and two characters (the longest match wins); anything else is one character. */
const PUNCT3 = new Set(['...', '<=>', '===', '!==', '**=', '??=', '?->', '<<=', '>>=']);
const PUNCT2 = new Set([
  '::', '->', '=>', '==', '!=', '<>', '<=', '>=', '.=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
  '&&', '||', '??', '++', '--', '<<', '>>', '**', '#[', '${',
]);
/** First characters of the operators above. */
const MULTI_START = new Set([...PUNCT3, ...PUNCT2].map((p) => p.charCodeAt(0)));

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
}
function isIdentPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80 || (c >= 48 && c <= 57);
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/**
 * The closing line of a heredoc/nowdoc: at a line start, optional indentation, the label, then no
 * identifier character. Sticky (`y`) to test one line start, global (`g`) to search for it.
 */
function terminatorFor(label: string, flags: 'g' | 'y'): RegExp {
  return new RegExp(`(?<![^\\r\\n])[ \\t]*${label}(?![A-Za-z0-9_\\x80-\\uffff])`, flags);
}

/** @param shortTags read `<?` as an open tag, as PHP does with short_open_tag on */
export function lexPhp(text: string, shortTags = false): Token[] {
  return new Lexer(text, shortTags ? OPEN_TAG_SHORT : OPEN_TAG).run();
}

class Lexer {
  private readonly len: number;
  private readonly tokens: Token[] = [];
  /** Open strings and interpolations, innermost last; code is emitted only while it is empty. */
  private readonly stack: Mode[] = [];
  private inPhp = false;
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly openTag: RegExp,
  ) {
    this.len = text.length;
  }

  run(): Token[] {
    const { text, len, stack } = this;
    while (this.pos < len) {
      if (!this.inPhp) {
        const openTag = this.openTag;
        openTag.lastIndex = this.pos;
        const m = openTag.exec(text);
        if (!m) break;
        this.pos = m.index + m[0].length;
        this.inPhp = true;
        continue;
      }
      const top = stack.length === 0 ? undefined : stack[stack.length - 1];
      if (top === undefined) this.code(undefined);
      else if (top.kind === 'interp') this.code(top);
      else if (top.kind === 'dq') this.doubleQuoted(top);
      else this.heredoc(top);
    }
    // An unterminated string runs to the end of the file.
    const outer = stack[0];
    if (outer !== undefined && outer.kind !== 'interp') this.push('string', outer.start, len, '');
    return this.tokens;
  }

  private push(type: TokenType, start: number, end: number, value: string): void {
    this.tokens.push({ type, start, end, text: value, literal: false, contentStart: 0, contentEnd: 0 });
  }

  private pushString(start: number, end: number, literal: boolean, prefix: number, quote: string): void {
    if (!literal) {
      this.push('string', start, end, '');
      return;
    }
    const contentStart = start + prefix + 1;
    const contentEnd = end - 1;
    const value = decodeStringContent(this.text.slice(contentStart, contentEnd), quote);
    this.tokens.push({ type: 'string', start, end, text: value, literal: true, contentStart, contentEnd });
  }

  /** One step in code (top level, or inside `{$...}` interpolation where nothing is emitted). */
  private code(interp: { kind: 'interp'; depth: number } | undefined): void {
    const text = this.text;
    const len = this.len;
    const emit = this.stack.length === 0;
    let pos = this.pos;
    const c = text.charCodeAt(pos);
    if (isSpace(c)) {
      pos++;
      while (pos < len && isSpace(text.charCodeAt(pos))) pos++;
      this.pos = pos;
      return;
    }
    const next = pos + 1 < len ? text.charCodeAt(pos + 1) : 0;
    // names (qualified names are one token, as in PHP 8), and b'...' b"..." strings
    if (isIdentStart(c) || (c === 92 /* \ */ && isIdentStart(next))) {
      if ((c === 98 || c === 66) /* b B */ && (next === 39 || next === 34 || (next === 60 && text.startsWith('<<<', pos + 1)))) {
        const after = this.string(pos, 1, emit);
        if (after >= 0) {
          this.pos = after;
          return;
        }
      }
      let end = pos + 1;
      for (;;) {
        while (end < len && isIdentPart(text.charCodeAt(end))) end++;
        if (end + 1 < len && text.charCodeAt(end) === 92 && isIdentStart(text.charCodeAt(end + 1))) end += 2;
        else break;
      }
      if (emit) this.push('name', pos, end, text.slice(pos, end));
      this.pos = end;
      return;
    }
    // variables
    if (c === 36 /* $ */ && isIdentStart(next)) {
      let end = pos + 2;
      while (end < len && isIdentPart(text.charCodeAt(end))) end++;
      if (emit) this.push('var', pos, end, text.slice(pos, end));
      this.pos = end;
      return;
    }
    if (c >= 48 && c <= 57) {
      let end = pos + 1;
      while (end < len) {
        const d = text.charCodeAt(end);
        if (isIdentPart(d) || (d === 46 /* . */ && end + 1 < len && text.charCodeAt(end + 1) >= 48 && text.charCodeAt(end + 1) <= 57)) end++;
        else break;
      }
      if (emit) this.push('number', pos, end, text.slice(pos, end));
      this.pos = end;
      return;
    }
    // comments
    if ((c === 35 /* # */ && next !== 91 /* [ */) || (c === 47 /* / */ && next === 47)) {
      let j = pos + 1;
      while (j < len) {
        const d = text.charCodeAt(j);
        if (d === 10 || d === 13) break;
        if (d === 63 /* ? */ && !interp && text.charCodeAt(j + 1) === 62 /* > */) break;
        j++;
      }
      this.pos = j;
      return;
    }
    if (c === 47 && next === 42 /* * */) {
      const e = text.indexOf('*/', pos + 2);
      this.pos = e < 0 ? len : e + 2;
      return;
    }
    // close tag
    if (c === 63 && next === 62 && !interp) {
      this.push('punct', pos, pos + 2, '?>');
      this.pos = pos + 2;
      this.inPhp = false;
      return;
    }
    // strings
    if (c === 39 || c === 34 || c === 96) {
      this.pos = this.string(pos, 0, emit);
      return;
    }
    if (c === 60 /* < */ && next === 60 && text.charCodeAt(pos + 2) === 60) {
      const after = this.string(pos, 0, emit);
      if (after >= 0) {
        this.pos = after;
        return;
      }
    }
    // punctuation
    let p: string;
    if (MULTI_START.has(c)) {
      const three = text.slice(pos, pos + 3);
      const two = three.slice(0, 2);
      p = PUNCT3.has(three) ? three : PUNCT2.has(two) ? two : text[pos];
    } else {
      p = text[pos];
    }
    if (interp) {
      if (p === '{' || p === '${') interp.depth++;
      else if (p === '}' && --interp.depth === 0) this.stack.pop();
    }
    if (emit) this.push('punct', pos, pos + p.length, p);
    this.pos = pos + p.length;
  }

  /**
   * A string starting at `at` (after a `b` prefix of length `prefix`): single-quoted strings and
   * nowdocs are read at once, the others open a mode. Returns the position after what was read,
   * or -1 when `<<<` does not start a heredoc.
   */
  private string(at: number, prefix: number, emit: boolean): number {
    const text = this.text;
    const len = this.len;
    const q = text.charCodeAt(at + prefix);
    if (q === 39 /* ' */) {
      let j = at + prefix + 1;
      while (j < len) {
        const c = text.charCodeAt(j);
        if (c === 92 /* \ */) j += 2;
        else if (c === 39) break;
        else j++;
      }
      if (j >= len) {
        if (emit) this.push('string', at, len, '');
        return len;
      }
      if (emit) this.pushString(at, j + 1, true, prefix, "'");
      return j + 1;
    }
    if (q === 34 /* " */ || q === 96 /* ` */) {
      // Backticks run a shell command: never a literal.
      this.stack.push({ kind: 'dq', close: q, start: at, prefix, interpolated: q === 96 });
      return at + prefix + 1;
    }
    HEREDOC_START.lastIndex = at + prefix;
    const m = HEREDOC_START.exec(text);
    if (!m) return -1;
    const bodyStart = at + prefix + m[0].length;
    if (m[2] !== undefined) {
      // nowdoc: no escapes, no interpolation
      const term = terminatorFor(m[2], 'g');
      term.lastIndex = bodyStart;
      const e = term.exec(text);
      const end = e ? e.index + e[0].length : len;
      if (emit) this.push('string', at, end, '');
      return end;
    }
    this.stack.push({ kind: 'heredoc', terminator: terminatorFor(m[1] ?? m[3], 'y'), start: at, lineStart: true });
    return bodyStart;
  }

  /** `$` or `{` inside a double-quoted string or heredoc: interpolation, or a plain character. */
  private interpolation(at: number, mode: { interpolated: boolean }): number {
    const text = this.text;
    const c = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    if (c === 36 /* $ */) {
      if (next === 123 /* { */) {
        mode.interpolated = true;
        this.stack.push({ kind: 'interp', depth: 1 });
        return at + 2;
      }
      if (isIdentStart(next)) mode.interpolated = true;
      return at + 1;
    }
    if (next === 36) {
      // `{$`: the code step reads the variable
      mode.interpolated = true;
      this.stack.push({ kind: 'interp', depth: 1 });
    }
    return at + 1;
  }

  private doubleQuoted(mode: Extract<Mode, { kind: 'dq' }>): void {
    const text = this.text;
    let pos = this.pos;
    const c = text.charCodeAt(pos);
    if (c === 92) {
      this.pos = pos + 2;
      return;
    }
    if (c === mode.close) {
      this.stack.pop();
      this.pos = pos + 1;
      if (this.stack.length === 0) this.pushString(mode.start, pos + 1, !mode.interpolated, mode.prefix, '"');
      return;
    }
    if (c === 36 || c === 123) {
      this.pos = this.interpolation(pos, mode);
      return;
    }
    pos++;
    while (pos < this.len) {
      const d = text.charCodeAt(pos);
      if (d === 92 || d === mode.close || d === 36 || d === 123) break;
      pos++;
    }
    this.pos = pos;
  }

  private heredoc(mode: Extract<Mode, { kind: 'heredoc' }>): void {
    const text = this.text;
    const pos = this.pos;
    if (mode.lineStart) {
      mode.lineStart = false;
      mode.terminator.lastIndex = pos;
      const m = mode.terminator.exec(text);
      if (m) {
        this.stack.pop();
        this.pos = pos + m[0].length;
        if (this.stack.length === 0) this.push('string', mode.start, this.pos, '');
        return;
      }
    }
    const c = text.charCodeAt(pos);
    if (c === 10 || c === 13) {
      this.pos = pos + (c === 13 && text.charCodeAt(pos + 1) === 10 ? 2 : 1);
      mode.lineStart = true;
      return;
    }
    if (c === 92) {
      const d = text.charCodeAt(pos + 1);
      this.pos = pos + (d === 10 || d === 13 ? 1 : 2);
      return;
    }
    if (c === 36 || c === 123) {
      this.pos = this.interpolation(pos, { interpolated: true }); // heredocs are never literal
      return;
    }
    this.pos = pos + 1;
  }
}
