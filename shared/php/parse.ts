import { Engine } from 'php-parser';
import type { PhpNode, Span } from './ast';
import { splitStatements, type StatementChunk } from './scanner';

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
}

interface CachedParse {
  nodes: PhpNode[];
  tooDeep?: boolean;
  /** Problems relative to the statement's start. */
  problems: { message: string; start: number; end: number }[];
}

/** php-parser as every part of the engine configures it (PHP 8.2, positions, error recovery). */
export function createPhpParser(): Engine {
  return new Engine({
    parser: { extractDoc: false, suppressErrors: true, php8: true, version: '8.2' },
    ast: { withPositions: true, withSource: false },
    lexer: { short_tags: false, asp_tags: false },
  });
}

function cleanMessage(message: string): string {
  return message.replace(/^Parse Error : /, '').replace(/ on line \d+$/, '');
}

/**
 * Parses PHP one top-level statement at a time. Statement parses are cached by their text, so
 * re-parsing an edited document only parses the statements whose text changed. Never throws.
 */
export class StatementParser {
  private readonly parser = createPhpParser();
  private cache = new Map<string, CachedParse>();
  private previous = new Map<string, CachedParse>();

  parse(text: string): ParsedFile {
    const { chunks, truncated } = splitStatements(text);
    const statements: ParsedStatement[] = [];
    const problems: SyntaxProblem[] = [];
    for (const chunk of chunks) {
      if (chunk.kind === 'inline') {
        statements.push({ chunk, base: chunk.start, nodes: [], problems: [] });
        continue;
      }
      const parsed = this.parseChunk(text.slice(chunk.start, chunk.end));
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
      statements.push({ chunk, base, nodes: parsed.nodes, problems: stmtProblems, ...(parsed.tooDeep ? { tooDeep: true } : {}) });
      problems.push(...stmtProblems);
    }
    if (truncated) {
      const last = chunks[chunks.length - 1];
      problems.push({ message: 'the file is too irregular to split into statements; the rest was not analysed', span: { start: last.start, end: last.end } });
    }
    // Keep only this version's statements, so the cache never outgrows one document.
    this.previous = this.cache;
    this.cache = new Map();
    for (const s of statements) {
      if (s.chunk.kind !== 'php') continue;
      const key = text.slice(s.chunk.start, s.chunk.end);
      const hit = this.previous.get(key);
      if (hit) this.cache.set(key, hit);
    }
    return { text, statements, problems };
  }

  private parseChunk(source: string): CachedParse {
    const hit = this.cache.get(source) ?? this.previous.get(source);
    if (hit) {
      this.cache.set(source, hit);
      return hit;
    }
    const result = this.parseUncached(source);
    this.cache.set(source, result);
    return result;
  }

  private parseUncached(source: string): CachedParse {
    const len = source.length;
    try {
      // Trailing whitespace is insignificant, and php-parser loops forever on it after an unclosed `#[`.
      const program = this.parser.parseCode(OPEN_TAG + trimEnd(source), 'routes.php') as unknown as {
        children: PhpNode[];
        errors: { message: string; loc?: { start?: { offset: number }; end?: { offset: number } } }[];
      };
      const problems = program.errors.map((e) => {
        const s = clamp((e.loc?.start?.offset ?? OPEN_TAG.length) - OPEN_TAG.length, len);
        const en = clamp((e.loc?.end?.offset ?? s + OPEN_TAG.length) - OPEN_TAG.length, len);
        return { message: cleanMessage(e.message), start: s, end: Math.max(en, Math.min(s + 1, len)) };
      });
      return { nodes: program.children, problems };
    } catch (e) {
      // php-parser throws on some broken input even with suppressErrors; the statement is lost, not the file.
      // Its recursion overflowing (deep nesting PHP accepts) is a limit of the analysis, not a syntax error.
      if (e instanceof RangeError) return { nodes: [], problems: [], tooDeep: true };
      return { nodes: [], problems: [{ message: 'syntax error', start: 0, end: len }] };
    }
  }
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

/** The absolute span of a node parsed from a statement with the given base. */
export function nodeSpan(node: PhpNode, base: number): Span {
  const loc = node.loc;
  if (!loc) return { start: base, end: base };
  return { start: base + loc.start.offset, end: base + loc.end.offset };
}

/** Parses a whole file once, without keeping a cache (for one-shot callers such as the CLI). */
export function parsePhp(text: string): ParsedFile {
  return new StatementParser().parse(text);
}
