/**
 * The slice of php-parser's syntax tree that the evaluator reads. Nodes are php-parser's own
 * objects; offsets inside them are relative to the statement they were parsed from (see
 * `ParsedStatement.base`).
 */

/** Where a node lies, in offsets relative to its statement (the parser compacts php-parser's line/column/offset positions to this). */
export interface Location {
  start: number;
  end: number;
}

/**
 * A Location packed in one small integer, `start * 2^16 + end`, when start < 2^15 and end < 2^16
 * (nearly every node: offsets count from the statement's start). Read it with `nodeSpan()`.
 */
export type PackedLocation = number;

export interface PhpNode {
  kind: string;
  loc: PackedLocation | Location | null;
  // php-parser's nodes carry kind-specific fields; the evaluator narrows on `kind`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

/** A half-open source range in absolute document offsets. */
export interface Span {
  start: number;
  end: number;
  /** The included file the offsets are in (include/require); absent for the evaluated file itself. */
  file?: IncludedFile;
}

/** A file the evaluated one included, as it was read: spans into it carry it (see Span.file). */
export interface IncludedFile {
  /** The path the host read it from. */
  readonly path: string;
  readonly text: string;
  /**
   * The include expression that ran it, in the file that included it (itself perhaps included);
   * for an environment's route file, the end of the main route file, after which the router runs it.
   */
  readonly includedAt: Span;
  /** Set for `config/<environment>/routes.php`, which CodeIgniter's router runs after the main route file: the environment. */
  readonly environment?: string;
}

/** Where a span lies in the evaluated file: itself, or the include statement that led to the file it is in. */
export function spanInEvaluatedFile(span: Span): Span {
  let s = span;
  while (s.file) s = s.file.includedAt;
  return s;
}
