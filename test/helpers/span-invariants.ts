import { allFixes, type Finding } from '../../shared/analysis/diagnostics/core/types';
import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import type { Span } from '../../shared/php/ast';
import type { EntryOriginInfo, RecordedSite } from '../../shared/library/records';
import { mappedBy } from '../../shared/library/record-marks';

/**
 * Every offset the engine hands to an editor must lie inside the document: an out-of-range
 * span becomes a wrong or rejected position in the client. Returns a description of each bad
 * span (empty when all are fine); a few bad ones are enough to show, so it stops after 10.
 */
export function spanViolations(text: string, evaluation: FileEvaluation, findings: readonly Finding[]): string[] {
  const bad: string[] = [];
  const check = (s: Span | undefined, what: string): void => {
    if (!s || bad.length >= 10) return;
    const ok = Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length;
    if (!ok) bad.push(`${what}: ${JSON.stringify(s)} outside [0, ${text.length}]`);
  };
  const site = (recorded: RecordedSite, what: string): void => {
    const c = evaluation.places.site(recorded);
    check(c.span, `${what} call`);
    check(c.nameSpan, `${what} method name`);
    c.argSpans.forEach((a, i) => check(a, `${what} argument ${i}`));
  };
  const origin = (o: EntryOriginInfo | undefined, what: string): void => {
    if (!o) return;
    if (o.kind === 'route') return site(o.site, what);
    const placed = evaluation.places.entry(o);
    check(placed.span, what);
    check(placed.keySpan, `${what} key`);
    check(placed.valueSpan, `${what} value`);
  };
  for (const p of evaluation.parsed.problems) check(p.span, `syntax problem "${p.message}"`);
  for (const s of evaluation.parsed.statements) check({ start: s.chunk.start, end: s.chunk.end }, 'statement');
  for (const p of evaluation.problems) check(p.span, `problem "${p.message}"`);
  for (const c of evaluation.calls) {
    site(c.site, `Route::${c.site.written}`);
    c.via.forEach((v) => site(v, 'enclosing'));
  }
  for (const m of evaluation.methods) {
    if (m.error?.span) check(m.error.span, `${m.method} error`);
    for (const r of m.library.created) {
      site(r.site, `${m.method} record '${String(r.key)}'`);
      r.via.forEach((v) => site(v, `${m.method} record via`));
      mappedBy(r, m.library).forEach((v) => site(v, `${m.method} record mapped by`));
      const reset = m.library.marks.resetBy(r);
      if (reset) site(reset.site, `${m.method} record reset by`);
      if (r.nested) site(r.nested.parent, `${m.method} record nested in`);
      origin(m.library.marks.overwrote(r), `${m.method} record overwrote`);
    }
    if (m.routes) for (const k of m.routes.keys()) origin(m.routes.originOf(k) as EntryOriginInfo | undefined, `${m.method} $route['${String(k)}']`);
  }
  for (const f of findings) {
    check(f.span, `${f.code} "${f.message.slice(0, 60)}"`);
    for (const r of f.related) if (!r.file) check(r.span, `${f.code} related`);
    for (const fix of allFixes(f)) for (const e of fix.edits) check(e.span, `${f.code} fix "${fix.title}"`);
  }
  return bad;
}
