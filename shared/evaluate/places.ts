import type { Span } from '../php/ast';
import type { CallSite, RecordedSite, StatementAnchor } from '../runtime/call-site';
import type { AssignmentOrigin, EntryPlace, LiteralOrigin } from '../library/records';

/**
 * Where the calls and literals of one evaluation are in its own text. An editor's evaluation
 * shares what it replays with the evaluations before it (records, calls, sites: see
 * evaluate/replay.ts), each made where its statement was when it ran; the statements that have
 * moved since are listed here with where they start now. Shared objects never change: each
 * evaluation places them in its own text.
 */
export class Places {
  /**
   * Sites of moved statements, placed once: read again and again by the checks and features,
   * and by the next versions' evaluations while their statement stays where it is now (a document
   * shares one memo between its evaluations: see ReplayCache.placed).
   */
  private readonly sites: WeakMap<RecordedSite, PlacedSite>;
  private readonly literals = new WeakMap<LiteralOrigin, LiteralOrigin>();
  private readonly entries = new WeakMap<AssignmentOrigin, EntryPlace>();

  /**
   * @param moved where each statement that moved since it was recorded starts now
   * @param placed the document's memo of placed sites (a new one without)
   */
  constructor(
    private readonly moved: ReadonlyMap<StatementAnchor, number>,
    placed: WeakMap<RecordedSite, PlacedSite> = new WeakMap(),
  ) {
    this.sites = placed;
  }

  /** Nothing moved: every site is where it was made. */
  static readonly NONE = new Places(new Map());

  /** A call placed in this evaluation's text. */
  site(s: RecordedSite): CallSite {
    const delta = this.delta(s.anchor);
    if (delta === 0) return s.placed;
    const known = this.sites.get(s);
    if (known !== undefined && known.delta === delta) return known.site;
    const at = s.placed;
    const site: CallSite = { method: at.method, written: at.written, span: shift(at.span, delta), nameSpan: shift(at.nameSpan, delta), argSpans: at.argSpans.map((a) => shift(a, delta)) };
    this.sites.set(s, { delta, site });
    return site;
  }

  /** Where the call starts in this evaluation's text (no copy made: for keys and comparisons). */
  start(s: RecordedSite): number {
    return s.placed.span.start + this.delta(s.anchor);
  }

  /** The whole call, placed (one span made when it moved, none otherwise). */
  span(s: RecordedSite): Span {
    return moved(s.placed.span, this.delta(s.anchor));
  }

  /** The method name after `::`, placed. */
  nameSpan(s: RecordedSite): Span {
    return moved(s.placed.nameSpan, this.delta(s.anchor));
  }

  /** The i-th argument, placed; undefined when the call has no such argument. */
  argSpan(s: RecordedSite, i: number): Span | undefined {
    const arg = s.placed.argSpans[i];
    return arg && moved(arg, this.delta(s.anchor));
  }

  /** An array literal's entry placed in this evaluation's text. */
  literal(o: LiteralOrigin): LiteralOrigin {
    const delta = this.delta(o.anchor);
    if (delta === 0) return o;
    let placed = this.literals.get(o);
    if (placed === undefined) {
      placed = { kind: 'literal', span: shift(o.span, delta), ...(o.keySpan ? { keySpan: shift(o.keySpan, delta) } : {}), valueSpan: shift(o.valueSpan, delta) };
      this.literals.set(o, placed);
    }
    return placed;
  }

  /** An assignment's or array literal's entry placed in this evaluation's text. */
  entry(o: AssignmentOrigin | LiteralOrigin): EntryPlace {
    if (o.kind === 'literal') return this.literal(o);
    const delta = this.delta(o.anchor);
    if (delta === 0) return o.placed;
    let placed = this.entries.get(o);
    if (placed === undefined) {
      placed = shiftEntry(o.placed, delta);
      this.entries.set(o, placed);
    }
    return placed;
  }

  /** How far the statement moved since it was recorded (0: not recorded, or where it was). */
  private delta(anchor: StatementAnchor | undefined): number {
    return movedBy(this.moved, anchor);
  }
}

/** How far an anchored statement moved, given where the moved ones start now. */
export function movedBy(moved: ReadonlyMap<StatementAnchor, number>, anchor: StatementAnchor | undefined): number {
  if (anchor === undefined || moved.size === 0) return 0;
  const now = moved.get(anchor);
  return now === undefined ? 0 : now - anchor.start;
}

/** An entry's place moved by `delta`. */
export function shiftEntry(e: EntryPlace, delta: number): EntryPlace {
  if (delta === 0) return e;
  return { span: shift(e.span, delta), keySpan: e.keySpan && shift(e.keySpan, delta), valueSpan: shift(e.valueSpan, delta) };
}

/** A site placed at a distance from where it was made. */
export interface PlacedSite {
  readonly delta: number;
  readonly site: CallSite;
}

function moved(span: Span, delta: number): Span {
  return delta === 0 ? span : shift(span, delta);
}

function shift(span: Span, delta: number): Span {
  return { start: span.start + delta, end: span.end + delta };
}
