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
  literal?: boolean;
  /** Strings only: offsets of the text between the quotes, when `literal`. */
  content?: { start: number; end: number };
}


type Mode =
  | { kind: 'dq'; close: number; start: number; prefix: number; interpolated: boolean }
  | { kind: 'heredoc'; terminator: RegExp; start: number; lineStart: boolean }
  | { kind: 'interp'; depth: number };

const PUNCT3 = new Set(['...', '<=>', '===', '!==', '**=', '??=', '?->', '<<=', '>>=']);
const PUNCT2 = new Set([
  '::', '->', '=>', '==', '!=', '<>', '<=', '>=', '.=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
  '&&', '||', '??', '++', '--', '<<', '>>', '**',
]);

const OPEN_TAG = /<\?(?:php(?=[ \t\r\n]|$)|=)/gi;
const HEREDOC_START = /<<<[ \t]*(?:"([A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)"|'([A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)'|([A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*))(?:\r\n|\n|\r)/y;
const NAME = /\\?[A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*(?:\\[A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)*/y;
const NUMBER = /[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?/y;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** The closing line of a heredoc/nowdoc: at a line start, optional indentation, the label, then no identifier character. */
function terminatorFor(label: string): RegExp {
  return new RegExp(`(?<![^\\r\\n])[ \\t]*${label}(?![A-Za-z0-9_\\x80-\\uffff])`, 'g');
}

export function lexPhp(text: string): Token[] {
  const len = text.length;
  const tokens: Token[] = [];
  const stack: Mode[] = [];
  let inPhp = false;
  let pos = 0;

  const emitString = (start: number, end: number, literal: boolean, prefix: number, quote: string): void => {
    if (literal) {
      const content = { start: start + prefix + 1, end: end - 1 };
      tokens.push({ type: 'string', start, end, text: decodeStringContent(text.slice(content.start, content.end), quote), literal, content });
    } else {
      tokens.push({ type: 'string', start, end, text: '', literal: false });
    }
  };

  /** Starts a string at `pos` (after an optional `b` prefix of length `prefix`); returns the new position. */
  const startString = (at: number, prefix: number, emit: boolean): number => {
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
        if (emit) emitString(at, len, false, prefix, "'");
        return len;
      }
      if (emit) emitString(at, j + 1, true, prefix, "'");
      return j + 1;
    }
    if (q === 34 /* " */ || q === 96 /* ` */) {
      stack.push({ kind: 'dq', close: q, start: at, prefix, interpolated: q === 96 });
      return at + prefix + 1;
    }
    // <<< heredoc / nowdoc
    HEREDOC_START.lastIndex = at + prefix;
    const m = HEREDOC_START.exec(text);
    if (!m) return -1;
    const bodyStart = at + prefix + m[0].length;
    if (m[2] !== undefined) {
      const term = terminatorFor(m[2]);
      term.lastIndex = bodyStart;
      const e = term.exec(text);
      const end = e ? e.index + e[0].length : len;
      if (emit) emitString(at, end, false, prefix, "'");
      return end;
    }
    const label = m[1] ?? m[3];
    stack.push({ kind: 'heredoc', terminator: terminatorFor(label), start: at, lineStart: true });
    return bodyStart;
  };

  /** `$`, `{` in a double-quoted string or heredoc: interpolation, or a plain character. */
  const interpolation = (at: number, mode: { interpolated: boolean }): number => {
    const c = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    if (c === 36 /* $ */) {
      if (next === 123 /* { */) {
        mode.interpolated = true;
        stack.push({ kind: 'interp', depth: 1 });
        return at + 2;
      }
      if (isIdentStart(next)) mode.interpolated = true;
      return at + 1;
    }
    // '{'
    if (next === 36) {
      mode.interpolated = true;
      stack.push({ kind: 'interp', depth: 1 });
      return at + 1; // the code step reads the variable
    }
    return at + 1;
  };

  const codeStep = (interp: { kind: 'interp'; depth: number } | undefined): void => {
    const emit = stack.length === 0;
    const c = text.charCodeAt(pos);
    if (isSpace(c)) {
      pos++;
      while (pos < len && isSpace(text.charCodeAt(pos))) pos++;
      return;
    }
    const next = text.charCodeAt(pos + 1);
    // comments
    if ((c === 35 /* # */ && next !== 91 /* [ */) || (c === 47 /* / */ && next === 47)) {
      let j = pos + 1;
      while (j < len) {
        const d = text.charCodeAt(j);
        if (d === 10 || d === 13) break;
        if (d === 63 /* ? */ && text.charCodeAt(j + 1) === 62 /* > */ && !interp) break;
        j++;
      }
      pos = j;
      return;
    }
    if (c === 47 && next === 42 /* * */) {
      const e = text.indexOf('*/', pos + 2);
      pos = e < 0 ? len : e + 2;
      return;
    }
    // close tag
    if (c === 63 && next === 62 && !interp) {
      tokens.push({ type: 'punct', start: pos, end: pos + 2, text: '?>' });
      pos += 2;
      inPhp = false;
      return;
    }
    // strings
    if (c === 39 || c === 34 || c === 96) {
      pos = startString(pos, 0, emit);
      return;
    }
    if ((c === 98 || c === 66) /* b B */ && (next === 39 || next === 34)) {
      pos = startString(pos, 1, emit);
      return;
    }
    if (c === 60 /* < */ && next === 60 && text.charCodeAt(pos + 2) === 60) {
      const after = startString(pos, 0, emit);
      if (after >= 0) {
        pos = after;
        return;
      }
    }
    if ((c === 98 || c === 66) && next === 60 && text.startsWith('<<<', pos + 1)) {
      const after = startString(pos, 1, emit);
      if (after >= 0) {
        pos = after;
        return;
      }
    }
    // variables
    if (c === 36 /* $ */ && isIdentStart(next)) {
      NAME.lastIndex = pos + 1;
      const m = NAME.exec(text);
      const end = pos + 1 + (m ? m[0].length : 1);
      if (emit) tokens.push({ type: 'var', start: pos, end, text: text.slice(pos, end) });
      pos = end;
      return;
    }
    // names (qualified names are one token, as in PHP 8)
    if (isIdentStart(c) || (c === 92 /* \ */ && isIdentStart(next))) {
      NAME.lastIndex = pos;
      const m = NAME.exec(text);
      const end = m ? pos + m[0].length : pos + 1;
      if (emit) tokens.push({ type: 'name', start: pos, end, text: text.slice(pos, end) });
      pos = end;
      return;
    }
    if (c >= 48 && c <= 57) {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      const end = m ? pos + m[0].length : pos + 1;
      if (emit) tokens.push({ type: 'number', start: pos, end, text: text.slice(pos, end) });
      pos = end;
      return;
    }
    // punctuation
    let p: string;
    const three = text.slice(pos, pos + 3);
    if (PUNCT3.has(three)) p = three;
    else if (PUNCT2.has(three.slice(0, 2)) || three.startsWith('#[') || three.startsWith('${')) p = three.slice(0, 2);
    else p = text[pos];
    if (interp) {
      if (p === '{' || p === '${') interp.depth++;
      else if (p === '}' && --interp.depth === 0) stack.pop();
    }
    if (emit) tokens.push({ type: 'punct', start: pos, end: pos + p.length, text: p });
    pos += p.length;
  };

  const dqStep = (mode: Extract<Mode, { kind: 'dq' }>): void => {
    const c = text.charCodeAt(pos);
    if (c === 92) {
      pos += 2;
      return;
    }
    if (c === mode.close) {
      stack.pop();
      pos++;
      if (stack.length === 0) emitString(mode.start, pos, !mode.interpolated, mode.prefix, '"');
      return;
    }
    if (c === 36 || c === 123) {
      pos = interpolation(pos, mode);
      return;
    }
    pos++;
    // skip plain characters quickly
    while (pos < len) {
      const d = text.charCodeAt(pos);
      if (d === 92 || d === mode.close || d === 36 || d === 123) break;
      pos++;
    }
  };

  const heredocStep = (mode: Extract<Mode, { kind: 'heredoc' }>): void => {
    if (mode.lineStart) {
      mode.lineStart = false;
      mode.terminator.lastIndex = pos;
      const m = mode.terminator.exec(text);
      if (m && m.index === pos) {
        stack.pop();
        pos += m[0].length;
        if (stack.length === 0) emitString(mode.start, pos, false, 0, '"');
        return;
      }
    }
    const c = text.charCodeAt(pos);
    if (c === 10 || c === 13) {
      pos++;
      if (c === 13 && text.charCodeAt(pos) === 10) pos++;
      mode.lineStart = true;
      return;
    }
    if (c === 92) {
      const d = text.charCodeAt(pos + 1);
      pos += d === 10 || d === 13 ? 1 : 2;
      return;
    }
    if (c === 36 || c === 123) {
      pos = interpolation(pos, { interpolated: true }); // heredocs are never literal
      return;
    }
    pos++;
  };

  while (pos < len) {
    if (!inPhp) {
      OPEN_TAG.lastIndex = pos;
      const m = OPEN_TAG.exec(text);
      if (!m) break;
      pos = m.index + m[0].length;
      inPhp = true;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) codeStep(undefined);
    else if (top.kind === 'interp') codeStep(top);
    else if (top.kind === 'dq') dqStep(top);
    else heredocStep(top);
  }
  // An unterminated string runs to the end of the file.
  const outer = stack[0];
  if (outer !== undefined && outer.kind !== 'interp') emitString(outer.start, len, false, 0, '"');
  return tokens;
}
