import type { Span } from '../php/ast';
import { newRecordId, setUnknownPath, unknownPathOf, type CallSite, type RouteRecord } from '../library/records';
import { PhpArray, PhpClosure, Unknown, type EntryOrigin, type Value } from '../runtime/values';
import type { EvalProblem, RouteCall } from './interpreter-state';
import type { StatementEffect } from './statement-effect';

/**
 * A recorded statement's effect where the statement now starts: itself when it has not moved,
 * else a copy whose every span, call site, record, call, problem, literal array and closure is
 * moved. The effect itself is never changed: evaluations handed out hold its objects.
 *
 * The copied records get new ids: a table of moved records is another table (see TablePrint),
 * whose views are read again with the new places.
 */
export function movedEffect(effect: StatementEffect, start: number): StatementEffect {
  const delta = start - effect.start;
  if (delta === 0) return effect;
  const mover = new EffectMover(delta);
  return {
    start,
    records: effect.records.map((list) => (list.length === 0 ? list : list.map((r) => mover.record(r)))),
    calls: effect.calls.map((c) => mover.call(c)),
    otherCalls: effect.otherCalls.length === 0 ? effect.otherCalls : effect.otherCalls.map((c) => mover.call(c)),
    warnings: effect.warnings,
    problems: effect.problems.length === 0 ? effect.problems : effect.problems.map((p) => mover.problem(p)),
    steps: effect.steps,
    statement: mover.span(effect.statement),
  };
}

/** Copies objects of one statement moved by `delta`, each once (sites and values are shared between its records and calls). */
class EffectMover {
  private readonly copies = new Map<object, object>();

  constructor(private readonly delta: number) {}

  private once<T extends object>(o: T, copy: (o: T) => T): T {
    let c = this.copies.get(o) as T | undefined;
    if (c === undefined) this.copies.set(o, (c = copy(o)));
    return c;
  }

  span(s: Span): Span {
    // A replayable statement is the evaluated file's own: its spans carry no included file.
    return this.once(s, (x) => ({ start: x.start + this.delta, end: x.end + this.delta }));
  }

  site(c: CallSite): CallSite {
    return this.once(c, (x) => ({ ...x, span: this.span(x.span), nameSpan: this.span(x.nameSpan), argSpans: x.argSpans.map((s) => this.span(s)) }));
  }

  private sites(list: readonly CallSite[]): readonly CallSite[] {
    return list.length === 0 ? list : this.once(list, (x) => x.map((c) => this.site(c)));
  }

  record(r: RouteRecord): RouteRecord {
    return this.once(r, (x) => {
      const copy: RouteRecord = {
        ...x,
        id: newRecordId(),
        to: this.value(x.to),
        site: this.site(x.site),
        via: this.sites(x.via),
        nested: x.nested && { ...x.nested, parent: this.site(x.nested.parent) },
      };
      const unknown = unknownPathOf(x);
      if (unknown !== undefined) setUnknownPath(copy, unknown);
      return copy;
    });
  }

  call(c: RouteCall): RouteCall {
    return this.once(c, (x) => ({ ...x, site: this.site(x.site), args: x.args.map((v) => this.value(v)), via: this.sites(x.via) }));
  }

  problem(p: EvalProblem): EvalProblem {
    return this.once(p, (x) => ({ ...x, span: this.span(x.span) }));
  }

  value(v: Value): Value {
    if (v instanceof PhpArray) return this.once(v, (a) => a.mapped((x) => this.value(x), (o) => this.origin(o)));
    if (v instanceof PhpClosure) return this.once(v, (c) => new PhpClosure(c.node, c.base + this.delta, c.captured, c.arrowScope, c.source));
    if (v instanceof Unknown && v.span) return this.once(v, (u) => new Unknown(u.reason, u.span && this.span(u.span), u.isSet));
    return v;
  }

  /** An array literal's entry origin (`array('as' => 'x')`): the only kind a replayable statement makes. */
  private origin(o: EntryOrigin): EntryOrigin {
    const literal = o as { kind?: string; span?: Span; keySpan?: Span; valueSpan?: Span };
    if (literal.kind !== 'literal') return o;
    return this.once(o, () => {
      // The same fields as the original's (an absent key span stays absent).
      const copy = { ...literal };
      for (const field of ['span', 'keySpan', 'valueSpan'] as const) if (literal[field]) copy[field] = this.span(literal[field]);
      return copy;
    });
  }
}
