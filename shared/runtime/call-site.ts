import type { Span } from '../php/ast';

/**
 * A top-level statement as an editor's evaluation recorded it to replay later (see
 * evaluate/replay.ts): where it started then. What it made keeps that place; an evaluation that
 * replays it somewhere else says where it is now (see evaluate/places.ts).
 */
export interface StatementAnchor {
  readonly start: number;
}

/** One static call (`Route::name(...)`) placed in a text: absolute offsets. */
export interface CallSite {
  /** The method it resolves to, lower case (PHP method names are case-insensitive). */
  readonly method: string;
  /** The method name as written. */
  readonly written: string;
  /** The whole call expression. */
  readonly span: Span;
  /** The method name after `::`. */
  readonly nameSpan: Span;
  /** Each argument expression. */
  readonly argSpans: readonly Span[];
}

/**
 * A static call as an evaluation recorded it, shared by the later evaluations that replay its
 * statement: its place is the one it had when it ran. Read it placed in an evaluation's own text
 * with that evaluation's `places.site()`.
 */
export interface RecordedSite {
  readonly method: string;
  readonly written: string;
  /** The call where it was when it ran. */
  readonly placed: CallSite;
  /** Set when it ran in a statement recorded for replay: the statement may since have moved. */
  readonly anchor: StatementAnchor | undefined;
}
