import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import type { Span } from '../../shared/php/ast';
import type { EntryOriginInfo, RecordedSite, RouteRecord } from '../../shared/library/records';
import { mappedBy } from '../../shared/library/record-marks';
import { outcomeToJson, valueToJson } from '../../shared/evaluate/outcome-json';

/**
 * Everything an evaluation tells the analyses, as plain JSON: outcomes per method, and every
 * record with its call site, fate and links, every call, problem and warning. Two evaluations of
 * the same text must give equal traces however they were computed (fresh or replayed).
 */
export function evaluationTrace(e: FileEvaluation): unknown {
  const span = (s: Span | undefined) => (s ? `${s.start}-${s.end}` : undefined);
  // A record in several methods' tables: its fate under each is that method's.
  const marks = (m: number) => e.methods[m].library.marks;
  // Each site placed in the evaluation's own text (a replayed one may have been made elsewhere).
  const site = (recorded: RecordedSite | undefined) => {
    if (!recorded) return undefined;
    const c = e.places.site(recorded);
    return `${c.written}@${span(c.span)}[${span(c.nameSpan)};${c.argSpans.map(span).join(',')}]`;
  };
  const origin = (o: EntryOriginInfo | undefined, m: number): unknown =>
    !o
      ? undefined
      : o.kind === 'route'
        ? `route:${m}:${String(o.key)}@${site(o.site)}`
        : // Placed in the evaluation's own text; where it was made (and its anchor) is how it was computed, not what it says.
          { kind: o.kind, ...e.places.entry(o), ...(o.kind === 'assignment' ? { conditional: o.conditional, branches: o.branches, replaced: origin(o.replaced, m) } : { replaced: undefined }) };
  const record = (r: RouteRecord, m: number) => ({
    method: m,
    key: String(r.key),
    to: valueToJson(r.to),
    name: r.name,
    site: site(r.site),
    row: r.row,
    via: r.via.map((v) => site(v)),
    prefix: r.prefix,
    nestedPrefix: r.nestedPrefix,
    conditional: r.conditional,
    dynamic: r.dynamic,
    replacedBy: marks(m).replacedBy(r) && origin(marks(m).replacedBy(r), m),
    resetBy: site(marks(m).resetBy(r)?.site),
    mappedBy: mappedBy(r, e.methods[m].library).map((v) => site(v)),
    overwrote: origin(marks(m).overwrote(r), m),
    nested: r.nested && { parent: site(r.nested.parent), depthSeen: r.nested.depthSeen, nestOffset: r.nested.nestOffset },
    branches: r.branches,
  });
  return {
    mode: e.mode,
    steps: e.steps,
    methods: e.methods.map((m, mi) => ({
      outcome: outcomeToJson(m),
      created: m.library.created.map((r) => record(r, mi)),
      // Where each listed record is in `created` (the lists hold the same objects).
      replaced: m.library.replaced.map((r) => m.library.created.indexOf(r)),
      overwriting: m.library.overwriting.map((r) => m.library.created.indexOf(r)),
      routeOrigins: m.routes ? [...m.routes.keys()].map((k) => origin(m.routes?.originOf(k) as EntryOriginInfo, mi)) : null,
    })),
    calls: e.calls.map((c) => ({ site: site(c.site), args: c.args.map((a) => (a === undefined ? '<skipped>' : valueToJson(a))), mask: c.mask, conditional: c.conditional, via: c.via.map((v) => site(v)) })),
    otherCalls: e.otherCalls.map((c) => site(c.site)),
    nestedClosure: e.nestedClosure,
    problems: e.problems.map((p) => `${p.code}@${span(p.span)}: ${p.message}`),
    constants: [...e.constants].map(([k, v]) => [k, valueToJson(v)]),
  };
}
