import { Engine } from 'php-parser';
import { guardParser, ParserRunaway } from './parser-guards';
import type { Location, PackedLocation, PhpNode, Span } from './ast';
import { walkNodes } from './walk';
import { resplitStatements, splitStatements, type Rescan, type ScanResult, type StatementChunk } from './scanner';

/** The text put in front of every statement so php-parser starts in PHP mode. */
const OPEN_TAG = '<?php ';

export interface SyntaxProblem {
  message: string;
  span: Span;
}

export interface ParsedStatement {
  chunk: StatementChunk;
  /** Add to a node's offset to get the document offset. */
  base: number;
  /** Top-level nodes of this statement (usually one); empty when it could not be parsed at all. */
  nodes: PhpNode[];
  problems: SyntaxProblem[];
  /** Holds a `const X = ...;` somewhere (such a file's constants are not fixed: see the evaluator's replay). */
  declaresConstant: boolean;
  /**
   * Nested deeper than php-parser can go (PHP itself would accept it): not a syntax error, a limit
   * of the analysis; evaluation stops there.
   */
  tooDeep?: boolean;
}

export interface ParsedFile {
  text: string;
  statements: ParsedStatement[];
  problems: SyntaxProblem[];
  /** How many statements declare a constant, and how many a function at the top level (counted from the edit alone after the first version). */
  constantStatements: number;
  functionStatements: number;
  /**
   * The nodes of statement texts this version holds more than once (the same text gets the same
   * nodes): only their occurrences need counting to tell identical statements apart. Usually none.
   */
  repeated: ReadonlySet<PhpNode>;
}

const NO_NODES: ReadonlySet<PhpNode> = new Set();

interface CachedParse {
  nodes: PhpNode[];
  declaresConstant: boolean;
  tooDeep?: boolean;
  /** Problems relative to the statement's start. */
  problems: { message: string; start: number; end: number }[];
}

/**
 * php-parser as every part of the engine configures it (PHP 8.2, positions, error recovery), with
 * the guards that make it finish on every input (parser-guards.ts). `guarded: false` is php-parser
 * alone, the bench's yardstick.
 */
export function createPhpParser(options: { guarded?: boolean } = {}): Engine {
  const engine = new Engine({
    parser: { extractDoc: false, suppressErrors: true, php8: true, version: '8.2' },
    ast: { withPositions: true, withSource: false },
    lexer: { short_tags: false, asp_tags: false },
  });
  return options.guarded === false ? engine : guardParser(engine);
}

function cleanMessage(message: string): string {
  return message.replace(/^Parse Error : /, '').replace(/ on line \d+$/, '');
}

/** A statement text's parse, and how many statements of the current version have that text. */
interface LiveParse {
  parse: CachedParse;
  uses: number;
}

/** What the parser keeps of the version it parsed last, to parse the next one incrementally. */
interface LastVersion {
  scan: ScanResult;
  parsed: ParsedFile;
}

/** Included files whose parses a document keeps (more are parsed with the least recently added dropped). */
const MAX_INCLUDED_FILES = 32;

/**
 * Parses PHP one top-level statement at a time. Statement parses are cached by their text, so
 * re-parsing an edited document only parses the statements whose text changed, and the same
 * text always gets the same nodes (the evaluator's replay relies on it). A call on the next
 * version of the same document costs in proportion to the edit: the split resumes from the last
 * one, and the statements before and after the edit are the last version's, moved. Never throws.
 */
export class StatementParser {
  private readonly parser = createPhpParser();
  /** This version's statement texts. */
  private live = new Map<string, LiveParse>();
  /** The previous version's statement texts that this version no longer has. */
  private retired = new Map<string, CachedParse>();
  private last: LastVersion | undefined;
  /** The nodes of the live texts used more than once (see ParsedFile.repeated). */
  private readonly repeated = new Set<PhpNode>();
  /** Parsers of the files this document's evaluations include, by path (see parseIncluded). */
  private included: Map<string, { parser: StatementParser; text?: string; parsed?: ParsedFile }> | undefined;

  /**
   * A file this document's evaluation includes, parsed with caches of its own: an included file
   * (an environment's routes, a file of routes split off) is read again by every evaluation and
   * seldom changes, and was parsed whole each time (8 of 12 ms per edit in an application with two).
   * The same text gives the same parse.
   */
  parseIncluded(path: string, text: string): ParsedFile {
    const files = (this.included ??= new Map());
    let entry = files.get(path);
    if (!entry) {
      if (files.size >= MAX_INCLUDED_FILES) files.delete(files.keys().next().value!);
      files.set(path, (entry = { parser: new StatementParser() }));
    }
    if (entry.text !== text || !entry.parsed) {
      entry.parsed = entry.parser.parse(text);
      entry.text = text;
    }
    return entry.parsed;
  }

  parse(text: string): ParsedFile {
    const last = this.last;
    const rescan = last ? resplitStatements(last.scan, last.parsed.text, text) : firstScan(text);
    const { scan, keptBefore, movedFrom, oldMovedFrom, delta } = rescan;
    const oldStatements = last?.parsed.statements ?? [];
    // Texts that leave stay available for this version (as the previous version's) and the next one.
    const dropped = new Map<string, CachedParse>();
    let constantStatements = last?.parsed.constantStatements ?? 0;
    let functionStatements = last?.parsed.functionStatements ?? 0;
    for (let k = keptBefore; k < oldMovedFrom; k++) {
      const gone = oldStatements[k];
      this.release(gone.chunk, last!.parsed.text, dropped);
      if (gone.declaresConstant) constantStatements--;
      if (declaresFunction(gone)) functionStatements--;
    }
    const statements = oldStatements.slice(0, keptBefore);
    for (let k = keptBefore; k < movedFrom; k++) {
      const statement = this.parseStatement(scan.chunks[k], text, dropped);
      if (statement.declaresConstant) constantStatements++;
      if (declaresFunction(statement)) functionStatements++;
      statements.push(statement);
    }
    for (let k = movedFrom, old = oldMovedFrom; k < scan.chunks.length; k++, old++) {
      statements.push(movedStatement(oldStatements[old], scan.chunks[k], delta));
    }
    this.retired = dropped;

    const problems: SyntaxProblem[] = [];
    for (const s of statements) if (s.problems.length > 0) problems.push(...s.problems);
    if (scan.truncated) {
      const lastChunk = scan.chunks[scan.chunks.length - 1];
      problems.push({ message: 'the file is too irregular to split into statements; the rest was not analysed', span: { start: lastChunk.start, end: lastChunk.end } });
    }
    // A copy: this set changes with the next version, the ParsedFile must not.
    const repeated = this.repeated.size === 0 ? NO_NODES : new Set(this.repeated);
    const parsed: ParsedFile = { text, statements, problems, constantStatements, functionStatements, repeated };
    this.last = { scan, parsed };
    return parsed;
  }

  private parseStatement(chunk: StatementChunk, text: string, dropped: Map<string, CachedParse>): ParsedStatement {
    if (chunk.kind === 'inline') return { chunk, base: chunk.start, nodes: [], problems: [], declaresConstant: false };
    const parsed = this.acquire(text.slice(chunk.start, chunk.end), dropped);
    const base = chunk.start - OPEN_TAG.length;
    const stmtProblems = parsed.problems.map((p) => ({
      message: p.message,
      span: { start: chunk.start + p.start, end: chunk.start + p.end },
    }));
    if (chunk.recovered?.startsWith('unterminated')) {
      // The statement was cut short after an unterminated string, heredoc or comment, so php-parser
      // complains about the cut ("unexpected '<<'", "expecting ')'"); the scanner names the cause.
      stmtProblems.splice(0, stmtProblems.length, { message: `syntax error, ${chunk.recovered}`, span: { start: chunk.start, end: chunk.end } });
    } else if (chunk.recovered && stmtProblems.length === 0) {
      stmtProblems.push({ message: `syntax error, ${chunk.recovered}`, span: { start: chunk.start, end: chunk.end } });
    }
    return { chunk, base, nodes: parsed.nodes, problems: stmtProblems, declaresConstant: parsed.declaresConstant, ...(parsed.tooDeep ? { tooDeep: true } : {}) };
  }

  /** The parse of one more statement of this version with text `source`. */
  private acquire(source: string, dropped: Map<string, CachedParse>): CachedParse {
    const live = this.live.get(source);
    if (live) {
      if (++live.uses === 2) for (const node of live.parse.nodes) this.repeated.add(node);
      return live.parse;
    }
    const parse = dropped.get(source) ?? this.retired.get(source) ?? this.parseUncached(source);
    dropped.delete(source);
    this.live.set(ownCopy(source), { parse, uses: 1 });
    return parse;
  }

  /** One statement of the last version is gone; its text is kept in `dropped` once none is left. */
  private release(chunk: StatementChunk, text: string, dropped: Map<string, CachedParse>): void {
    if (chunk.kind !== 'php') return;
    const source = text.slice(chunk.start, chunk.end);
    const live = this.live.get(source);
    if (!live) return;
    if (--live.uses === 1) for (const node of live.parse.nodes) this.repeated.delete(node);
    if (live.uses > 0) return;
    this.live.delete(source);
    dropped.set(source, live.parse);
  }

  private parseUncached(source: string): CachedParse {
    const len = source.length;
    try {
      // Trailing whitespace is insignificant, and php-parser loops forever on it after an unclosed `#[`.
      const program = this.parser.parseCode(OPEN_TAG + trimEnd(source), 'routes.php') as unknown as {
        children: PhpNode[];
        errors: { message: string; loc?: { start?: { offset: number }; end?: { offset: number } } }[];
      };
      const nodes = program.children.slice();
      const declaresConstant = compactNodes(nodes);
      const problems = program.errors.map((e) => {
        const s = clamp((e.loc?.start?.offset ?? OPEN_TAG.length) - OPEN_TAG.length, len);
        const en = clamp((e.loc?.end?.offset ?? s + OPEN_TAG.length) - OPEN_TAG.length, len);
        return { message: cleanMessage(e.message), start: s, end: Math.max(en, Math.min(s + 1, len)) };
      });
      return { nodes, problems, declaresConstant };
    } catch (e) {
      // php-parser throws on some broken input even with suppressErrors; the statement is lost, not the file.
      // Its recursion overflowing (deep nesting PHP accepts) is a limit of the analysis, not a syntax error.
      if (e instanceof RangeError) return { nodes: [], problems: [], declaresConstant: false, tooDeep: true };
      if (e instanceof ParserRunaway) return { nodes: [], problems: [{ message: 'syntax error (the statement could not be parsed to its end)', start: 0, end: len }], declaresConstant: false };
      return { nodes: [], problems: [{ message: 'syntax error', start: 0, end: len }], declaresConstant: false };
    }
  }
}

/**
 * php-parser's trees, made smaller: the parse is kept for as long as its statement is in the
 * document. Returns whether a `const` statement is among the nodes: noted in the same walk,
 * since every evaluation asks it of the whole file.
 *
 * - Every node has a Location of two Positions (line, column, offset), each its own object; only
 *   offsets are read. Each becomes one small integer, or one object of two offsets in a statement
 *   over 32 KB (the Positions were a tenth of the heap of a large file).
 * - Lists (arguments, array items, block children) grow by push, which leaves room for 17
 *   entries in the typical list of one to three: each is copied to its exact size.
 * - String literals, a third of the nodes, keep only what is read (kind, location, value), not
 *   their source text and flags in a second property store.
 */
function compactNodes(roots: readonly PhpNode[]): boolean {
  let declaresConstant = false;
  walkNodes(roots, (node) => {
    compactLocation(node);
    if (node.kind === 'constantstatement') declaresConstant = true;
    // Before the walk reads the node's children: it walks the copies.
    const keys = Object.keys(node);
    for (let k = 0; k < keys.length; k++) {
      const value = node[keys[k]];
      if (Array.isArray(value)) {
        if (value.length > 0) node[keys[k]] = value.map(compactString);
      } else if (value !== null && typeof value === 'object' && value.kind === 'string') node[keys[k]] = compactString(value);
    }
  });
  return declaresConstant;
}

/** Packs a node's location as php-parser made it (once: a compacted string is visited again). */
function compactLocation(node: PhpNode): void {
  const loc: unknown = node.loc;
  if (isPhpParserLocation(loc)) node.loc = packLocation(loc.start.offset, loc.end.offset);
}

function isPhpParserLocation(loc: unknown): loc is PhpParserLocation {
  return loc !== null && typeof loc === 'object' && typeof (loc as { start?: unknown }).start === 'object';
}

function compactString<T>(value: T): T | PhpNode {
  const node = value as PhpNode | null;
  if (node === null || typeof node !== 'object' || node.kind !== 'string') return value;
  const compact: PhpNode = { kind: 'string', loc: node.loc, value: node.value };
  compactLocation(compact);
  return compact;
}

/** A location as php-parser makes it. */
export interface PhpParserLocation {
  start: { offset: number };
  end: { offset: number };
}

function declaresFunction(statement: ParsedStatement): boolean {
  const nodes = statement.nodes;
  for (let i = 0; i < nodes.length; i++) if (nodes[i].kind === 'function') return true;
  return false;
}

/** The first version of a document: everything is scanned. */
function firstScan(text: string): Rescan {
  const scan = splitStatements(text);
  return { scan, keptBefore: 0, movedFrom: scan.chunks.length, oldMovedFrom: 0, delta: 0 };
}

/** A statement of the last version whose text did not change, at its new place. */
function movedStatement(old: ParsedStatement, chunk: StatementChunk, delta: number): ParsedStatement {
  if (delta === 0) return old;
  // New objects: the last version's ParsedFile may still be in use.
  const problems = old.problems.length === 0 ? [] : old.problems.map((p) => ({ message: p.message, span: { start: p.span.start + delta, end: p.span.end + delta } }));
  const moved: ParsedStatement = { chunk, base: old.base + delta, nodes: old.nodes, problems, declaresConstant: old.declaresConstant };
  if (old.tooDeep) moved.tooDeep = true;
  return moved;
}

/**
 * The same text, not holding on to the string it was cut from. V8 keeps a slice of 13 characters
 * or more as a view of the whole string: a statement's text kept as a cache key held the whole
 * document version it was first parsed in, so each edit of another statement kept one more copy
 * of the file alive (40 edits of the 10,000-declaration file: 67 → 140 MB of heap).
 */
function ownCopy(slice: string): string {
  // Slicing a concatenation flattens it into a new string first: the view is then of that one.
  return slice.length < 13 ? slice : (' ' + slice).slice(1);
}

/** Drops trailing spaces, tabs and newlines (a loop: `/\s+$/` is quadratic on long runs of spaces). */
function trimEnd(s: string): string {
  let end = s.length;
  for (let c = s.charCodeAt(end - 1); c === 32 || c === 9 || c === 13 || c === 10; c = s.charCodeAt(end - 1)) end--;
  return end === s.length ? s : s.slice(0, end);
}

function clamp(n: number, len: number): number {
  return Math.max(0, Math.min(n, len));
}

/** Offsets relative to a statement, packed when they fit in a small integer (see PackedLocation). */
function packLocation(start: number, end: number): PackedLocation | Location {
  return start < 0x8000 && end < 0x10000 && start >= 0 && end >= 0 ? start * 0x10000 + end : { start, end };
}

/** The absolute span of a node parsed from a statement with the given base. */
/** Where a node starts, from its statement's start (nodeSpan's start without a span made). */
export function nodeOffset(node: PhpNode): number {
  const loc = node.loc;
  if (loc === null || loc === undefined) return 0;
  return typeof loc === 'number' ? loc >>> 16 : loc.start;
}

export function nodeSpan(node: PhpNode, base: number): Span {
  const loc = node.loc;
  if (loc === null || loc === undefined) return { start: base, end: base };
  if (typeof loc === 'number') return { start: base + (loc >>> 16), end: base + (loc & 0xffff) };
  return { start: base + loc.start, end: base + loc.end };
}

/** Parses a whole file once, without keeping a cache (for one-shot callers such as the CLI). */
export function parsePhp(text: string): ParsedFile {
  return new StatementParser().parse(text);
}
