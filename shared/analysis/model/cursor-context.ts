/**
 * Where a cursor stands in PHP code, read from the text alone (no syntax tree: the code around a
 * cursor is usually half typed). The file is lexed with the indexer's tolerant tokenizer and the
 * brackets before the cursor are replayed on a stack, so strings, comments and nested calls are
 * skipped exactly, and an unterminated string only ever swallows text after the cursor.
 */

import type { Span } from '../../php/ast';
import { splitStatements, type StatementChunk } from '../../php/scanner';
import { lexPhp, type Token } from '../../workspace/php-lexer';
import { isRouteClassName } from '../../workspace/php-index-model';

export type FrameRole =
  /** `Route::method(`: method lower case (PHP method names are case-insensitive). */
  | { kind: 'route-call'; method: string; written: string; nameSpan: Span }
  /** `array(` or a `[` that starts an array literal. */
  | { kind: 'array' }
  /** `$x[` (also chained `$x['a'][`): `base` is the variable the chain starts from. */
  /** `chained`: an index after another (`$route['x']['get']`: a verb key, not a route's path). */
  | { kind: 'index'; base?: string; chained?: true }
  | { kind: 'block' }
  | { kind: 'other' };

/** A bracket open at the cursor. */
export interface Frame {
  open: '(' | '[' | '{';
  /** Index in `tokens` of the bracket. */
  token: number;
  role: FrameRole;
  /** Commas at this level before the cursor: the argument or element index. */
  argIndex: number;
  /** Index in `tokens` of the first token of the current argument or element. */
  argStart: number;
  /** Index in `tokens` of the current element's `=>`, -1 when none yet. */
  arrow: number;
  /** Literal string keys written before the cursor in this array. */
  keys: string[];
}

/** The quoted string the cursor is inside. */
export interface StringAtCursor {
  token: Token;
  /** Index in `tokens`. */
  index: number;
  quote: "'" | '"';
  contentStart: number;
  /** The text between the opening quote and the cursor, as written. */
  typed: string;
  /** Whether the string has its closing quote. */
  terminated: boolean;
}

export interface CursorContext {
  text: string;
  offset: number;
  tokens: Token[];
  /** Open brackets around the cursor, outermost first. */
  frames: Frame[];
  /** Number of tokens wholly before the cursor (the string or word at the cursor excluded). */
  before: number;
  string?: StringAtCursor;
  /** The identifier the cursor is in or just after. */
  word?: Token;
  /** True when the last token before the cursor is the `=` of `$route[...] =`. */
  afterRouteAssign: boolean;
}

export interface CursorOptions {
  /** Count a cursor on a string's opening quote as inside it (hover, definition). */
  openingQuote?: boolean;
}

/** The code context at `offset`, or undefined inside a comment or on odd input. */
export function cursorContext(text: string, offset: number, options: CursorOptions = {}): CursorContext | undefined {
  if (typeof text !== 'string' || !Number.isInteger(offset) || offset < 0 || offset > text.length) return undefined;
  let tokens: Token[];
  let from: number;
  try {
    ({ tokens, from } = tokensAround(text, offset));
  } catch {
    return undefined;
  }
  let before = 0;
  while (before < tokens.length && tokens[before].end <= offset) before++;
  let string: StringAtCursor | undefined;
  let word: Token | undefined;
  const last = tokens[before - 1];
  const next = tokens[before];
  if (last?.type === 'name' && last.end === offset) {
    word = last;
    before--;
  } else if (last?.type === 'string' && last.end === offset && !isTerminated(text, last)) {
    string = stringAt(text, tokens, before - 1, offset);
    before--;
  } else if (next?.type === 'string' && (next.start < offset || (options.openingQuote && next.start === offset))) {
    string = stringAt(text, tokens, before, offset);
  } else if (next?.type === 'name' && next.start < offset) {
    word = next;
  }
  if (string === undefined && word === undefined && inComment(text, tokens[before - 1]?.end ?? from, offset)) return undefined;
  const { frames, afterRouteAssign } = replay(tokens, before);
  return { text, offset, tokens, frames, before, string, word, afterRouteAssign };
}

/** The last text split into statements (requests on one version of a document share it). */
let lastSplit: { text: string; chunks: StatementChunk[] } | undefined;

function chunksOf(text: string): StatementChunk[] {
  if (lastSplit?.text !== text) lastSplit = { text, chunks: splitStatements(text).chunks };
  return lastSplit.chunks;
}

const OPEN = '<?php ';

/**
 * The tokens of the top-level statement around the cursor (with any statements the scanner cut
 * off an unterminated one before it): what the cursor's context can depend on. Lexing only that
 * keeps a request on a large file as cheap as on a small one.
 */
function tokensAround(text: string, offset: number): { tokens: Token[]; from: number } {
  const chunks = chunksOf(text);
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chunks[mid]!.start <= offset) lo = mid + 1;
    else hi = mid;
  }
  let first = lo - 1;
  while (first > 0 && chunks[first - 1]!.recovered) first--;
  const chunk = chunks[first];
  // Inline HTML around the cursor (a template, not a route file): the whole text is lexed.
  if (!chunk || chunks.slice(first, lo).some((c) => c.kind !== 'php')) return { tokens: lexPhp(text), from: 0 };
  const end = lo < chunks.length ? chunks[lo]!.start : text.length;
  const shift = chunk.start - OPEN.length;
  const tokens = lexPhp(OPEN + text.slice(chunk.start, end));
  for (const t of tokens) {
    t.start += shift;
    t.end += shift;
    // Content offsets exist for literal strings only (0 otherwise).
    if (t.literal) {
      t.contentStart += shift;
      t.contentEnd += shift;
    }
  }
  return { tokens, from: chunk.start };
}

function quoteOf(text: string, t: Token): { quote: "'" | '"'; contentStart: number } | undefined {
  const prefix = text[t.start] === 'b' || text[t.start] === 'B' ? 1 : 0;
  const q = text[t.start + prefix];
  return q === "'" || q === '"' ? { quote: q, contentStart: t.start + prefix + 1 } : undefined;
}

function isTerminated(text: string, t: Token): boolean {
  const q = quoteOf(text, t);
  if (!q) return true; // heredoc and nowdoc: not completed inside
  if (q.quote === "'") return t.literal;
  return t.end - 1 >= q.contentStart && text[t.end - 1] === '"';
}

function stringAt(text: string, tokens: Token[], index: number, offset: number): StringAtCursor | undefined {
  const token = tokens[index];
  const q = quoteOf(text, token);
  if (!q) return undefined;
  const typed = offset > q.contentStart ? text.slice(q.contentStart, offset) : '';
  return { token, index, quote: q.quote, contentStart: q.contentStart, typed, terminated: isTerminated(text, token) };
}

/** Whether a `//`, `#` or `/*` comment between two tokens is still open at `offset`. */
function inComment(text: string, from: number, offset: number): boolean {
  const gap = text.slice(from, offset);
  const block = gap.lastIndexOf('/*');
  if (block >= 0 && gap.indexOf('*/', block + 2) < 0) return true;
  const line = gap.slice(gap.lastIndexOf('\n') + 1);
  return /\/\/|#(?!\[)/.test(line.replace(/\/\*.*?\*\//g, ''));
}

const CLOSERS: Record<string, '(' | '[' | '{'> = { ')': '(', ']': '[', '}': '{' };

/** Replays the brackets of `tokens[0..before)` on a stack. */
function replay(tokens: Token[], before: number): { frames: Frame[]; afterRouteAssign: boolean } {
  const frames: Frame[] = [];
  let lastClosed: { frame: Frame; at: number } | undefined;
  let routeAssignAt = -1;
  const push = (open: Frame['open'], i: number, role: FrameRole): void => {
    frames.push({ open, token: i, role, argIndex: 0, argStart: i + 1, arrow: -1, keys: [] });
  };
  for (let i = 0; i < before; i++) {
    const t = tokens[i];
    if (t.type !== 'punct') continue;
    const prev = tokens[i - 1];
    const top = frames[frames.length - 1];
    switch (t.text) {
      case '(':
        push('(', i, roleOfParen(tokens, i));
        break;
      case '[':
      case '#[':
        push('[', i, t.text === '#[' ? { kind: 'other' } : roleOfBracket(prev, lastClosed, i));
        break;
      case '{':
        push('{', i, { kind: 'block' });
        break;
      case ')':
      case ']':
      case '}': {
        // Close the nearest matching bracket; a stray closer is ignored.
        const want = CLOSERS[t.text];
        let j = frames.length - 1;
        while (j >= 0 && frames[j].open !== want && !(want !== '{' && frames[j].open === '{')) j--;
        if (j >= 0 && frames[j].open === want) {
          lastClosed = { frame: frames[j], at: i };
          frames.length = j;
        }
        break;
      }
      case ',':
        if (top) {
          top.argIndex++;
          top.argStart = i + 1;
          top.arrow = -1;
        }
        break;
      case '=>':
        if (top) {
          top.arrow = i;
          const key = tokens[i - 1];
          if (top.argStart === i - 1 && key.type === 'string' && key.literal) top.keys.push(key.text);
        }
        break;
      case '=':
        if (prev?.text === ']' && lastClosed?.at === i - 1 && lastClosed.frame.role.kind === 'index' && lastClosed.frame.role.base === '$route') routeAssignAt = i;
        break;
      case ';':
      case '?>':
        // The statement ended: brackets it left open are abandoned.
        while (frames.length > 0 && frames[frames.length - 1].open !== '{') frames.pop();
        break;
    }
  }
  return { frames, afterRouteAssign: before > 0 && routeAssignAt === before - 1 };
}

function roleOfParen(tokens: Token[], i: number): FrameRole {
  const name = tokens[i - 1];
  if (name?.type !== 'name') return { kind: 'other' };
  if (/^array$/i.test(name.text) && tokens[i - 2]?.text !== '::' && tokens[i - 2]?.text !== '->') return { kind: 'array' };
  const colons = tokens[i - 2];
  const cls = tokens[i - 3];
  if (colons?.text === '::' && cls?.type === 'name' && isRouteClassName(cls.text)) {
    return { kind: 'route-call', method: name.text.toLowerCase(), written: name.text, nameSpan: { start: name.start, end: name.end } };
  }
  return { kind: 'other' };
}

function roleOfBracket(prev: Token | undefined, lastClosed: { frame: Frame; at: number } | undefined, i: number): FrameRole {
  if (prev?.type === 'var') return { kind: 'index', base: prev.text };
  if (prev?.type === 'string' || prev?.text === ')' || prev?.text === '}') return { kind: 'index' };
  if (prev?.text === ']') {
    const chained = lastClosed && lastClosed.at === i - 1 && lastClosed.frame.role.kind === 'index' ? lastClosed.frame.role.base : undefined;
    return chained === undefined ? { kind: 'index' } : { kind: 'index', base: chained, chained: true };
  }
  return { kind: 'array' };
}

/** The innermost `Route::x(` call around the cursor, unless a closure body lies in between. */
export function enclosingRouteCall(ctx: CursorContext): { frame: Frame; depth: number } | undefined {
  for (let d = ctx.frames.length - 1; d >= 0; d--) {
    const f = ctx.frames[d];
    if (f.open === '{') return undefined;
    if (f.role.kind === 'route-call') return { frame: f, depth: d };
  }
  return undefined;
}
