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

export interface PhpNode {
  kind: string;
  loc: Location | null;
  // php-parser's nodes carry kind-specific fields; the evaluator narrows on `kind`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

/** A half-open source range in absolute document offsets. */
export interface Span {
  start: number;
  end: number;
}
