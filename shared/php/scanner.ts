/**
 * Splits PHP source into top-level statements without building a syntax tree.
 *
 * Each chunk can then be parsed on its own, which gives two things a whole-file parse cannot:
 * a syntax error costs only the statement it is in, and an edit only re-parses the statements
 * whose text changed. The scanner understands exactly what decides where a statement ends:
 * comments, every kind of string (with `{$...}` interpolation), heredoc/nowdoc, bracket depth,
 * `?>` and the alternative `if (...): ... endif;` syntax.
 */

export interface StatementChunk {
  /** Offset of the first significant character. */
  start: number;
  /** Offset just past the terminator (`;`, `}` or `?>` excluded). */
  end: number;
  kind: 'php' | 'inline';
  /** Set when the statement ran to the end of the file unterminated and was cut to recover. */
  recovered?: string;
}

export interface ScanResult {
  chunks: StatementChunk[];
  /** True when the scan work budget ran out; the remaining text is one `php` chunk. */
  truncated: boolean;
  /**
   * Restart points, ascending: the offsets at which the scan was in PHP mode between statements
   * (the top of its main loop). What the scan does from such a point depends only on the text
   * from there on (and on the start of the line it is in), so a later scan can resume there.
   */
  restarts: number[];
  /** The work budget spent when each restart point was reached (a resumed scan goes on counting). */
  spent: number[];
}

const BLOCK_STATEMENTS = new Set([
  'if', 'foreach', 'for', 'while', 'switch', 'function', 'class', 'abstract', 'final',
  'interface', 'trait', 'enum', 'namespace', 'try', 'declare', 'readonly',
]);
const CONTINUATIONS = new Set(['else', 'elseif', 'catch', 'finally']);
const ALT_OPENERS = new Set(['if', 'foreach', 'for', 'while', 'switch', 'declare']);
const ALT_CLOSERS = new Set(['endif', 'endforeach', 'endfor', 'endwhile', 'endswitch', 'enddeclare']);

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** Thrown (not an Error: no stack trace to capture, and half-typed files throw it often). */
class Unterminated {
  constructor(
    readonly what: string,
    /** Where the unterminated construct starts. */
    readonly at?: number,
  ) {}
}

/** Low-level lexical helpers over one text; every method returns the offset after what it skipped. */
class Lexer {
  constructor(readonly text: string) {}

  lineEnd(i: number): number {
    const n = this.text.indexOf('\n', i);
    return n < 0 ? this.text.length : n;
  }

  /** Skips whitespace and comments. Stops before `?>`. */
  skipTrivia(i: number): number {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(i);
      if (isSpace(c)) {
        i++;
      } else if (c === 35 /* # */ && t.charCodeAt(i + 1) !== 91 /* [ */) {
        i = this.lineComment(i);
      } else if (c === 47 /* / */ && t.charCodeAt(i + 1) === 47) {
        i = this.lineComment(i);
      } else if (c === 47 && t.charCodeAt(i + 1) === 42 /* * */) {
        const e = t.indexOf('*/', i + 2);
        if (e < 0) throw new Unterminated('comment', i);
        i = e + 2;
      } else {
        return i;
      }
    }
  }

  /** A `//` or `#` comment ends at the newline or just before `?>`. */
  private lineComment(i: number): number {
    const t = this.text;
    const nl = this.lineEnd(i);
    // Looks for `?>` on this line only: `indexOf('?>')` would read to the end of the file for every comment.
    for (let j = i; j < nl - 1; j++) {
      if (t.charCodeAt(j) === 63 /* ? */ && t.charCodeAt(j + 1) === 62 /* > */) return j;
    }
    return nl;
  }

  singleQuoted(i: number): number {
    const t = this.text;
    for (let j = i + 1; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === 92 /* \ */) j++;
      else if (c === 39 /* ' */) return j + 1;
    }
    throw new Unterminated('string');
  }

  /** Double-quoted or backtick string; `{$ ... }` interpolation may itself hold strings. */
  interpolated(i: number, quote: number): number {
    const t = this.text;
    for (let j = i + 1; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === 92) j++;
      else if (c === quote) return j + 1;
      else if (c === 123 /* { */ && t.charCodeAt(j + 1) === 36 /* $ */) j = this.braces(j) - 1;
    }
    throw new Unterminated('string');
  }

  /** From an opening `{`, returns the offset after its matching `}`. */
  braces(i: number): number {
    const t = this.text;
    let depth = 0;
    for (let j = i; j < t.length; ) {
      const c = t.charCodeAt(j);
      if (c === 123) {
        depth++;
        j++;
      } else if (c === 125) {
        depth--;
        j++;
        if (depth === 0) return j;
      } else {
        j = this.token(j);
      }
    }
    throw new Unterminated('interpolation');
  }

  /** Heredoc or nowdoc starting at `<<<`; returns the offset after the closing label. */
  heredoc(i: number): number | undefined {
    const t = this.text;
    let j = i + 3;
    while (t.charCodeAt(j) === 32 || t.charCodeAt(j) === 9) j++;
    const q = t.charCodeAt(j);
    const quoted = q === 39 || q === 34;
    if (quoted) j++;
    const labelStart = j;
    if (!isIdentStart(t.charCodeAt(j))) return undefined;
    while (isIdentPart(t.charCodeAt(j))) j++;
    const label = t.slice(labelStart, j);
    if (quoted) {
      if (t.charCodeAt(j) !== q) return undefined;
      j++;
    }
    if (t.charCodeAt(j) === 13) j++;
    if (t.charCodeAt(j) !== 10) return undefined;
    let line = j + 1;
    while (line <= t.length) {
      let k = line;
      while (t.charCodeAt(k) === 32 || t.charCodeAt(k) === 9) k++;
      if (t.startsWith(label, k) && !isIdentPart(t.charCodeAt(k + label.length))) {
        return k + label.length;
      }
      const nl = t.indexOf('\n', line);
      if (nl < 0) break;
      line = nl + 1;
    }
    throw new Unterminated('heredoc');
  }

  /** Skips one token that is not trivia and not a bracket; returns the offset after it. */
  token(i: number): number {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 39) return this.singleQuoted(i);
    if (c === 34 || c === 96) return this.interpolated(i, c);
    if (c === 60 && t.startsWith('<<<', i)) {
      const end = this.heredoc(i);
      if (end !== undefined) return end;
      return i + 3;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (isIdentPart(t.charCodeAt(j))) j++;
      return j;
    }
    if (isSpace(c) || c === 35 || (c === 47 && (t.charCodeAt(i + 1) === 47 || t.charCodeAt(i + 1) === 42))) {
      return Math.max(this.skipTrivia(i), i + 1);
    }
    return i + 1;
  }
}

/** Finds the first later line, no more indented than `from`'s line, that can start a statement. */
function recoveryCut(text: string, from: number): number {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const indentOf = (s: number): number => {
    let k = s;
    while (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9) k++;
    return k - s;
  };
  const base = indentOf(lineStart);
  let nl = text.indexOf('\n', from);
  while (nl >= 0) {
    const s = nl + 1;
    const ind = indentOf(s);
    const c = text.charCodeAt(s + ind);
    const continuation = c === 125 || c === 41 || c === 93 || c === 46 || c === 44 || c === 63 || c === 58 ||
      c === 45 || c === 61 || Number.isNaN(c) || c === 10 || c === 13;
    if (ind <= base && !continuation) return s;
    nl = text.indexOf('\n', s);
  }
  return text.length;
}

/** The next `<?php`, `<?=` or `<?` at or after `from`. */
function openTag(text: string, from: number): RegExpExecArray | null {
  const re = /<\?(php(?=[\s]|$)|=)?/gi;
  re.lastIndex = from;
  return re.exec(text);
}

/** The offset just past the next open tag, or -1 when the file has none. */
function openTagAfter(text: string, from: number): number {
  const m = openTag(text, from);
  return m ? m.index + m[0].length : -1;
}

/** A scan in progress: what it has found so far and the work it has spent. */
interface ScanState {
  readonly text: string;
  readonly lx: Lexer;
  readonly budget: number;
  readonly chunks: StatementChunk[];
  readonly restarts: number[];
  readonly spent: number[];
  scanned: number;
  truncated: boolean;
}

function newScanState(text: string, budget: number, chunks: StatementChunk[] = [], restarts: number[] = [], spent: number[] = [], scanned = 0): ScanState {
  return { text, lx: new Lexer(text), budget, chunks, restarts, spent, scanned, truncated: false };
}

function resultOf(st: ScanState): ScanResult {
  return { chunks: st.chunks, truncated: st.truncated, restarts: st.restarts, spent: st.spent };
}

function defaultBudget(text: string): number {
  return text.length * 8 + 10_000;
}

/** Records the inline HTML from `from` up to the next open tag; returns the offset after the tag. */
function htmlUntilOpenTag(text: string, chunks: StatementChunk[], from: number): number {
  const m = openTag(text, from);
  if (!m) {
    if (from < text.length) chunks.push({ start: from, end: text.length, kind: 'inline' });
    return text.length;
  }
  if (m.index > from) chunks.push({ start: from, end: m.index, kind: 'inline' });
  return m.index + m[0].length;
}

/** After `?>` at `at`: the HTML that follows (a newline right after the tag belongs to the tag). */
function afterCloseTag(text: string, chunks: StatementChunk[], at: number): number {
  return htmlUntilOpenTag(text, chunks, at + 2 + (text.charCodeAt(at + 2) === 10 ? 1 : 0));
}

/**
 * The scanner's main loop, from restart point `i` to the end of the text, or until `stopAt`
 * accepts a restart point (which is then not recorded: the caller completes the result).
 * Returns the restart point it stopped at, or -1 when it ran to the end.
 */
function scanFrom(st: ScanState, i: number, stopAt?: (i: number, scanned: number) => boolean): number {
  const { text, lx, chunks } = st;
  let scanned = st.scanned;
  try {
    while (i < text.length) {
      if (stopAt?.(i, scanned)) return i;
      st.restarts.push(i);
      st.spent.push(scanned);
      if (scanned > st.budget) {
        st.truncated = true;
        chunks.push({ start: i, end: text.length, kind: 'php', recovered: 'scan budget exhausted' });
        break;
      }
      let start: number;
      try {
        start = lx.skipTrivia(i);
      } catch (e) {
        // An unterminated comment: PHP rejects the file ("Unterminated comment"); report it as a
        // statement of its own and keep the statements after it, as for any unterminated construct.
        const at = e instanceof Unterminated && e.at !== undefined ? e.at : i;
        scanned += text.length - at;
        const end = Math.max(recoveryCut(text, at), at + 1);
        chunks.push({ start: at, end: trimEnd(text, at, end), kind: 'php', recovered: 'unterminated comment' });
        i = end;
        continue;
      }
      if (start >= text.length) break;
      if (text.startsWith('?>', start)) {
        i = afterCloseTag(text, chunks, start);
        continue;
      }
      const r = scanStatement(lx, start);
      scanned += r.end - start + 1;
      if (r.unterminated) {
        const cut = recoveryCut(text, start);
        const end = Math.max(cut, start + 1);
        chunks.push({ start, end: trimEnd(text, start, end), kind: 'php', recovered: r.unterminated });
        i = end;
        continue;
      }
      chunks.push({ start, end: r.end, kind: 'php' });
      i = r.end;
      if (r.closeTag) i = afterCloseTag(text, chunks, r.end);
    }
    return -1;
  } finally {
    st.scanned = scanned;
  }
}

/**
 * Splits `text` into statements. Never throws. `budget` bounds the characters scanned in total,
 * so hostile input (endless recovery re-scans) stays linear.
 */
export function splitStatements(text: string, budget = defaultBudget(text)): ScanResult {
  const st = newScanState(text, budget);
  scanFrom(st, htmlUntilOpenTag(text, st.chunks, 0));
  return resultOf(st);
}

/**
 * A scan made by resuming an earlier one: its chunks are the earlier scan's before the edit,
 * new ones around the edit, then the earlier scan's after the edit, moved by `delta`.
 */
export interface Rescan {
  scan: ScanResult;
  /** `scan.chunks[0, keptBefore)` are the earlier scan's first chunks, the same objects. */
  keptBefore: number;
  /**
   * `scan.chunks[movedFrom...]` are the earlier scan's from `oldMovedFrom` on, moved by `delta`
   * (copies, but the same objects when `delta` is 0: chunks are never changed once made).
   */
  movedFrom: number;
  oldMovedFrom: number;
  delta: number;
}

/**
 * The same result as `splitStatements(text, budget)`, computed by rescanning only around the
 * edit that turned `oldText` (which `previous` scanned) into `text`: the scan resumes at a
 * restart point before the edit and stops at the first restart point after it that the earlier
 * scan also reached, the rest of which is then the earlier scan's, moved. Costs a comparison of
 * the two texts, the rescanned part and one pass over the earlier chunks.
 */
export function resplitStatements(previous: ScanResult, oldText: string, text: string, budget = defaultBudget(text)): Rescan {
  const full = (): Rescan => {
    const scan = splitStatements(text, budget);
    return { scan, keptBefore: 0, movedFrom: scan.chunks.length, oldMovedFrom: previous.chunks.length, delta: text.length - oldText.length };
  };
  if (previous.truncated) return full();
  const prefix = commonPrefixLength(oldText, text);
  const suffix = commonSuffixLength(oldText, text, prefix);
  const resumeAt = resumePoint(previous, prefix);
  if (resumeAt < 0) return full();

  const keptBefore = chunksBefore(previous.chunks, previous.restarts[resumeAt], 0);
  const st = newScanState(
    text, budget,
    previous.chunks.slice(0, keptBefore),
    previous.restarts.slice(0, resumeAt),
    previous.spent.slice(0, resumeAt),
    previous.spent[resumeAt],
  );
  const tail = new TailMatcher(previous, oldText, text, suffix, budget);
  const stoppedAt = scanFrom(st, previous.restarts[resumeAt], (i, scanned) => tail.joinsAt(i, scanned));
  const delta = text.length - oldText.length;
  if (stoppedAt < 0) {
    return { scan: resultOf(st), keptBefore, movedFrom: st.chunks.length, oldMovedFrom: previous.chunks.length, delta };
  }
  const movedFrom = st.chunks.length;
  tail.appendTo(st);
  return { scan: resultOf(st), keptBefore, movedFrom, oldMovedFrom: tail.chunkIndex, delta };
}

/**
 * The index of the restart point to resume at for an edit starting at `prefix`, or -1 for none.
 * Nothing the earlier scan found before it may depend on the edited text: a statement's scan
 * looks a little past its end (for `else`, `;` or the character after an open tag), but never
 * past the next restart point, hence one restart point back from the last one at or before the
 * edit; and a statement cut for recovery read to the end of the file to find it unterminated.
 */
function resumePoint(previous: ScanResult, prefix: number): number {
  const { restarts, chunks } = previous;
  let at = lastAtOrBefore(restarts, prefix) - 1;
  if (at < 0) return -1;
  for (let c = 0; c < chunks.length && chunks[c].start < restarts[at]; c++) {
    if (chunks[c].recovered) {
      // The scan that found it started at the last restart point at or before its start.
      at = lastAtOrBefore(restarts, chunks[c].start);
      break;
    }
  }
  return at;
}

/**
 * Decides where a resumed scan may stop and take the earlier scan's chunks from there on, and
 * appends them. Restart points are offered in ascending order.
 */
class TailMatcher {
  /** Index of the earlier scan's first restart point at or after the offered one, moved back. */
  private restartIndex: number;
  /** Index of the earlier scan's first chunk at or after that restart point. */
  chunkIndex = 0;
  /** Index of the earlier scan's first recovered chunk from `chunkIndex` on (or its length). */
  private recoveredIndex = 0;
  /** Where the earlier text's first newline after the edit is (-2 until needed). */
  private firstNewlineAfterEdit = -2;
  private readonly oldEditEnd: number;
  private readonly newEditEnd: number;
  private readonly delta: number;

  constructor(
    private readonly previous: ScanResult,
    private readonly oldText: string,
    text: string,
    suffix: number,
    private readonly budget: number,
  ) {
    this.oldEditEnd = oldText.length - suffix;
    this.newEditEnd = text.length - suffix;
    this.delta = text.length - oldText.length;
    this.restartIndex = firstAtOrAfter(previous.restarts, this.oldEditEnd);
  }

  /** Whether the resumed scan, at restart point `i` having spent `scanned`, may stop here. */
  joinsAt(i: number, scanned: number): boolean {
    if (i < this.newEditEnd) return false;
    const { restarts, spent, chunks } = this.previous;
    const oldAt = i - this.delta;
    while (this.restartIndex < restarts.length && restarts[this.restartIndex] < oldAt) this.restartIndex++;
    if (restarts[this.restartIndex] !== oldAt) return false;
    // From here on the text is the same, so is the scan, but for two things: the budget, which the
    // whole scan shares; and a cut for recovery, which looks back to the start of its line.
    const lastSpent = spent[spent.length - 1] - spent[this.restartIndex] + scanned;
    if (lastSpent > this.budget) return false;
    this.chunkIndex = chunksBefore(chunks, oldAt, this.chunkIndex);
    this.recoveredIndex = Math.max(this.recoveredIndex, this.chunkIndex);
    while (this.recoveredIndex < chunks.length && !chunks[this.recoveredIndex].recovered) this.recoveredIndex++;
    return this.recoveredIndex === chunks.length || this.lineStartUnchanged(chunks[this.recoveredIndex].start);
  }

  /** Whether the line holding `at` (an offset in the earlier text) starts after the edit. */
  private lineStartUnchanged(at: number): boolean {
    if (this.firstNewlineAfterEdit === -2) this.firstNewlineAfterEdit = this.oldText.indexOf('\n', this.oldEditEnd);
    return this.firstNewlineAfterEdit >= 0 && this.firstNewlineAfterEdit < at;
  }

  /** Appends the earlier scan's rest, from the restart point `joinsAt` accepted, moved. */
  appendTo(st: ScanState): void {
    const { restarts, spent, chunks } = this.previous;
    const delta = this.delta;
    const extra = st.scanned - spent[this.restartIndex];
    for (let k = this.restartIndex; k < restarts.length; k++) {
      st.restarts.push(restarts[k] + delta);
      st.spent.push(spent[k] + extra);
    }
    for (let c = this.chunkIndex; c < chunks.length; c++) st.chunks.push(delta === 0 ? chunks[c] : movedChunk(chunks[c], delta));
  }
}

/** A copy of `chunk` moved by `delta` (chunks are shared between scans, so never changed). */
function movedChunk(chunk: StatementChunk, delta: number): StatementChunk {
  const moved: StatementChunk = { start: chunk.start + delta, end: chunk.end + delta, kind: chunk.kind };
  if (chunk.recovered !== undefined) moved.recovered = chunk.recovered;
  return moved;
}

/** The number of chunks starting before `offset`, knowing that the first `from` do (chunks are in order). */
function chunksBefore(chunks: readonly StatementChunk[], offset: number, from: number): number {
  let lo = from;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chunks[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the last element <= `x` in ascending `xs`, or -1. */
function lastAtOrBefore(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The index of the first element >= `x` in ascending `xs`, or its length. */
function firstAtOrAfter(xs: readonly number[], x: number): number {
  return lastAtOrBefore(xs, x - 1) + 1;
}

/**
 * Compared a block at a time first: `===` on two substrings is a memory comparison inside the
 * engine, many times faster than `charCodeAt` on each character (above all on the concatenation
 * an editor's change produces, which `charCodeAt` does not flatten).
 */
const COMPARE_BLOCKS = [4096, 64];

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (const size of COMPARE_BLOCKS) {
    while (i + size <= n && a.substring(i, i + size) === b.substring(i, i + size)) i += size;
  }
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The common suffix, no longer than what the common prefix `prefix` leaves of the shorter text. */
function commonSuffixLength(a: string, b: string, prefix: number): number {
  const n = Math.min(a.length, b.length) - prefix;
  const ea = a.length;
  const eb = b.length;
  let i = 0;
  for (const size of COMPARE_BLOCKS) {
    while (i + size <= n && a.substring(ea - i - size, ea - i) === b.substring(eb - i - size, eb - i)) i += size;
  }
  while (i < n && a.charCodeAt(ea - 1 - i) === b.charCodeAt(eb - 1 - i)) i++;
  return i;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

interface StatementEnd {
  end: number;
  closeTag?: boolean;
  unterminated?: string;
}

function scanStatement(lx: Lexer, start: number): StatementEnd {
  const t = lx.text;
  let depth = 0;
  /** The open brackets, innermost last. */
  const opens: number[] = [];
  let altDepth = 0;
  let firstWord: string | undefined;
  let pendingAlt = -1; // bracket depth at which an alt-syntax keyword's `(` group opened
  let prevSignificant = 0;
  let i = start;
  try {
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (isSpace(c) || c === 35 || (c === 47 && (t.charCodeAt(i + 1) === 47 || t.charCodeAt(i + 1) === 42))) {
        if (c === 35 && t.charCodeAt(i + 1) === 91) {
          // `#[` attribute: treat like a bracket.
          depth++;
          opens.push(91);
          i += 2;
          continue;
        }
        i = lx.skipTrivia(i);
        continue;
      }
      if (c === 63 /* ? */ && t.charCodeAt(i + 1) === 62 /* > */) {
        // Inline HTML inside an open block (`if ($a): ?>html<?php endif;`) belongs to the statement.
        const inBlock = depth > 0 ? opens[opens.length - 1] === 123 : altDepth > 0;
        const open = inBlock ? openTagAfter(t, i + 2) : -1;
        if (open < 0) return { end: i, closeTag: true };
        i = open;
        prevSignificant = 59;
        continue;
      }
      if (c === 40 || c === 91 || c === 123) {
        if (firstWord === undefined && c !== 123) firstWord = '';
        depth++;
        opens.push(c);
        i++;
        prevSignificant = c;
        continue;
      }
      if (c === 41 || c === 93 || c === 125) {
        depth = Math.max(0, depth - 1);
        opens.pop();
        i++;
        prevSignificant = c;
        if (c === 41 && depth === 0 && pendingAlt === 0) {
          pendingAlt = -1;
          const k = lx.skipTrivia(i);
          if (t.charCodeAt(k) === 58 && t.charCodeAt(k + 1) !== 58) {
            altDepth++;
            i = k + 1;
          }
          continue;
        }
        if (c === 125 && depth === 0 && altDepth === 0 && endsAtBrace(firstWord)) {
          const k = lx.skipTrivia(i);
          const w = wordAt(t, k);
          if (w === undefined || !CONTINUATIONS.has(w.toLowerCase())) {
            if (t.charCodeAt(k) !== 59 /* ; */) return { end: i };
          }
        }
        continue;
      }
      if (c === 59 /* ; */) {
        i++;
        if (depth === 0 && altDepth === 0) {
          // `if (x) a(); else b();` is one statement.
          const w = firstWord === 'if' ? wordAt(t, lx.skipTrivia(i)) : undefined;
          if (w === undefined || !CONTINUATIONS.has(w.toLowerCase())) return { end: i };
        }
        continue;
      }
      if (isIdentStart(c)) {
        const j = lx.token(i);
        const word = t.slice(i, j).toLowerCase();
        if (firstWord === undefined) firstWord = i === start ? word : '';
        // A keyword after `::`, `$` or `->` is a member or variable name (`$for`, `$o->if`).
        if (depth === 0 && prevSignificant !== 58 && prevSignificant !== 36 && prevSignificant !== 62) {
          if (ALT_OPENERS.has(word)) pendingAlt = 0;
          else if (ALT_CLOSERS.has(word) && altDepth > 0) altDepth--;
          else if (word === 'else' && altDepth > 0) {
            const k = lx.skipTrivia(j);
            if (t.charCodeAt(k) === 58) {
              i = k + 1;
              continue;
            }
          }
        }
        i = j;
        prevSignificant = 65;
        continue;
      }
      if (firstWord === undefined) firstWord = '';
      prevSignificant = c;
      i = lx.token(i);
    }
  } catch (e) {
    if (e instanceof Unterminated) return { end: t.length, unterminated: `unterminated ${e.what}` };
    // Strings nested in interpolations nested in strings... deeper than the JS stack allows.
    if (e instanceof RangeError) return { end: t.length, unterminated: 'string nesting too deep' };
    throw e;
  }
  if (depth > 0 || altDepth > 0) return { end: t.length, unterminated: 'unclosed bracket' };
  return { end: t.length };
}

function endsAtBrace(firstWord: string | undefined): boolean {
  return firstWord === '' ? false : firstWord === undefined || BLOCK_STATEMENTS.has(firstWord);
}

function wordAt(t: string, k: number): string | undefined {
  if (!isIdentStart(t.charCodeAt(k))) return undefined;
  let j = k + 1;
  while (isIdentPart(t.charCodeAt(j))) j++;
  return t.slice(k, j);
}
