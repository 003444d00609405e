import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { reuseStopped } from '../../shared/evaluate/evaluate-file';
import { topLevelFunctions } from '../../shared/evaluate/checkpoint';
import type { Span } from '../../shared/php/ast';
import { unknownPathOf, type EntryOriginInfo } from '../../shared/library/records';
import { addedAt } from '../../shared/library/record-marks';
import { outcomeToJson, valueToJson } from '../../shared/evaluate/outcome-json';
import { tableView, viewChanges, type TableView } from '../../shared/analysis/model/table-view';
import { callsAround, callsWithTargetAt } from '../../shared/analysis/model/calls-at';
import { includedLines } from '../../shared/analysis/model/included-places';
import { producedBy } from '../../shared/analysis/model/produced';
import { declarationSummary, summaryTitle, uniqueCalls, type DeclarationSummary } from '../../shared/analysis/model/declarations';
import { nameDeclarations } from '../../shared/analysis/model/name-declarations';
import { recordsBySite } from '../../shared/analysis/model/records-by-site';
import { targetScope, type RouteFileRouting } from '../../shared/analysis/model/target-scope';
import type { Fate } from '../../shared/analysis/model/fate';
import { documentOutline, workspaceSymbols } from '../../shared/analysis/features/symbols';
import { hoverAt } from '../../shared/analysis/features/hover';
import { CallGroups } from '../../shared/analysis/diagnostics/core/call-groups';
import { allFixes, type Finding } from '../../shared/analysis/diagnostics/core/types';
import type { ControllerCatalog } from '../../shared/workspace/controller-catalog';
import { evaluationTrace } from './evaluation-trace';

/** One version of a document, evaluated and analysed one way (warm: by its editor's evaluator; fresh: anew). */
export interface Subject {
  text: string;
  evaluation: FileEvaluation;
  /** The evaluation of the version before, made the same way (none for the first version). */
  previous: FileEvaluation | undefined;
  /** The evaluation its evaluator gives for the same text asked again. */
  again: () => FileEvaluation;
  /** Every finding of analyzeRouteFile. */
  findings: readonly Finding[];
  controllers: ControllerCatalog | undefined;
  routing: RouteFileRouting | undefined;
}

/** What a query answers, as plain JSON: places as offsets in the version's own text. */
export type Projection = (s: Subject) => unknown;

const spanOf = (s: Span | undefined) => (s ? { start: s.start, end: s.end, ...(s.file ? { file: s.file.path } : {}) } : null);

function originOf(e: FileEvaluation, o: EntryOriginInfo | undefined): unknown {
  if (!o) return null;
  if (o.kind === 'route') return { route: e.places.start(o.site), key: String(o.key), row: o.row ?? null };
  return { [o.kind]: spanOf(e.places.entry(o).span) };
}

function viewOf(e: FileEvaluation, view: TableView): unknown {
  return { keys: view.keys, values: view.values.map(valueToJson), origins: view.origins.map((o) => originOf(e, o)) };
}

/** Each method's table view. */
function views(s: Subject): unknown {
  const e = s.evaluation;
  return e.methods.map((r) => (r.routes ? viewOf(e, tableView(e, r.routes)) : null));
}

/** Whether the entries outside a changed window are the same in both views (what viewChanges promises). */
function soundWindow(before: TableView, after: TableView): boolean {
  const { lo, oldHi, newHi } = viewChanges(before, after);
  const same = (i: number, j: number) => before.keys[i] === after.keys[j] && JSON.stringify(valueToJson(before.values[i])) === JSON.stringify(valueToJson(after.values[j]));
  if (lo > oldHi || lo > newHi || before.keys.length - oldHi !== after.keys.length - newHi) return false;
  for (let i = 0; i < lo; i++) if (!same(i, i)) return false;
  for (let i = oldHi, j = newHi; i < before.keys.length; i++, j++) if (!same(i, j)) return false;
  return true;
}

function fateOf(e: FileEvaluation, f: Fate): unknown {
  switch (f.kind) {
    case 'replaced':
      return { replaced: originOf(e, f.by) };
    case 'overwritten':
      return { overwritten: originOf(e, f.by) };
    case 'reset':
      return { reset: f.at.span.start };
    case 'not-mapped':
      return { notMapped: f.lastMap?.span.start ?? null };
    case 'unknown':
      return { unknown: spanOf(f.stop) };
    case 'error':
      return { error: f.message, at: spanOf(f.at) };
    default:
      return f.kind;
  }
}

/** Findings of the given codes, as an editor shows them. */
function findingsOf(...codes: string[]): Projection {
  return (s) =>
    s.findings
      .filter((f) => codes.includes(f.code))
      .map((f) => ({ code: f.code, severity: f.severity, span: spanOf(f.span), message: f.message, methods: f.methods, related: f.related.map((r) => [spanOf(r.span), r.message]), fixes: allFixes(f) }));
}

/** Offsets of every occurrence of `pattern` in the text (places the features are asked about). */
function offsetsOf(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((m) => m.index!);
}

/** Each derived query of shared/analysis/derived-queries.ts, by name: what it answers for a version. */
export const PROJECTIONS: Readonly<Record<string, Projection>> = {
  parse: ({ evaluation: e }) => ({
    statements: e.parsed.statements.map((st) => [st.chunk.start, st.chunk.end, st.base, st.nodes.length, st.problems.map((p) => p.message)]),
    problems: e.parsed.problems.map((p) => `${p.span.start}-${p.span.end}: ${p.message}`),
  }),
  'DocumentEvaluator.update (same text)': (s) => {
    const again = s.again();
    return { same: again === s.evaluation, trace: evaluationTrace(again) };
  },
  'DocumentEvaluator.update (replayed statements)': (s) => evaluationTrace(s.evaluation),
  'DocumentEvaluator.update (resumed from a checkpoint)': (s) => ({ trace: evaluationTrace(s.evaluation), constants: [...s.evaluation.constants].map(([k, v]) => [k, valueToJson(v)]) }),
  reuseStopped: ({ evaluation: e }) => {
    const reused = reuseStopped(e, e.parsed);
    return reused ? evaluationTrace(reused) : null;
  },
  topLevelFunctions: ({ evaluation: e }) => topLevelFunctions(e.parsed).map((f) => ({ name: (f.node.name as { name?: string } | undefined)?.name ?? null, base: f.base })),
  unknownPathOf: ({ evaluation: e }) => e.methods.map((r) => r.library.created.map((record) => unknownPathOf(record) ?? null)),
  addedAt: ({ evaluation: e }) => e.methods.map((r) => r.library.created.map((record) => addedAt(record, r.library))),
  'Route::map() overlaps': ({ evaluation: e }) => e.methods.map(outcomeToJson),
  // Every table's routes in order with their records, and what the marks say of each record.
  'route tables read from an earlier version': ({ evaluation: e }) =>
    e.methods.map((r) => {
      const rows: unknown[] = [];
      r.library.routes.forEachEntry((to, key, record) => rows.push([key, String(to), record.key, r.library.marks.replacedBy(record)?.key ?? null]));
      return { size: r.library.routes.size, rows, replaced: r.library.replaced.map((x) => String(x.key)) };
    }),
  tableView: views,
  'tableView (same map() input)': views,
  'tableView (earlier views)': views,
  viewChanges: ({ evaluation: e, previous }) =>
    e.methods.map((r, m) => {
      const before = previous?.methods[m].routes;
      return before && r.routes ? soundWindow(tableView(previous!, before), tableView(e, r.routes)) : null;
    }),
  callsAround: ({ text, evaluation: e }) => offsetsOf(text, /Route::|\$route\[/g).map((at) => callsAround(e, at + 3).map((c) => e.places.start(c.site))),
  callsWithTargetAt: ({ text, evaluation: e }) => offsetsOf(text, /'/g).map((at) => callsWithTargetAt(e, at + 1).map((c) => e.places.start(c.site))),
  includedLines: ({ evaluation: e }) =>
    e.included.map((f) => {
      const lines = includedLines(f);
      return { path: f.path, lines: Array.from({ length: Math.ceil(f.text.length / 40) }, (_, i) => lines.lineOf(i * 40)) };
    }),
  producedBy: ({ evaluation: e }) =>
    uniqueCalls(e).map((c) =>
      [
        producedBy(e, e.places.site(c.site), true).map((row) => ({ method: row.method, key: row.route.key, target: row.route.target, names: row.route.names, record: String(row.route.record.key), fate: fateOf(e, row.fate) })),
        // The index keeps each call's summary too (outline, lenses, hover headers).
        summaryProjection(declarationSummary(e, e.places.site(c.site))),
      ],
    ),
  uniqueCalls: ({ evaluation: e }) => uniqueCalls(e).map((c) => [e.places.start(c.site), c.site.method, c.mask]),
  nameDeclarations: ({ evaluation: e }) => [...nameDeclarations(e)].map(([name, d]) => [name, spanOf(d.span), d.site.span.start, d.from, d.methods]),
  recordsBySite: ({ evaluation: e }) => {
    const bySite = recordsBySite(e);
    const list = (m: ReadonlyMap<number, readonly number[]>) => [...m].map(([at, places]) => [at, places.map((i) => [bySite.methodAt(i), String(bySite.recordAt(i).key)])]);
    return { own: list(bySite.own), inside: list(bySite.inside), lastMap: bySite.lastMap?.span.start ?? null };
  },
  targetScope: ({ controllers, routing }) => {
    if (!controllers) return null;
    const scope = targetScope(controllers, routing);
    return { flavour: scope.routing.flavour, module: scope.routing.module ?? null, kept: scope === targetScope(controllers, routing) };
  },
  // Asked twice at each call: the second answer is the memo's.
  'hoverAt (a declaration)': ({ text, evaluation: e }) =>
    uniqueCalls(e).map((c) => {
      const at = e.places.site(c.site).nameSpan?.start ?? e.places.start(c.site);
      const first = hoverAt(text, e, at, 'file:///routes.php');
      const again = hoverAt(text, e, at, 'file:///routes.php');
      return first && again ? [first.markdown, spanOf(first.span), again.markdown === first.markdown] : null;
    }),
  workspaceSymbols: ({ text, evaluation }) => workspaceSymbols([{ file: 'routes.php', text, evaluation }], '').map((s) => [s.name, s.detail, spanOf(s.span)]),
  'documentOutline (calls described before)': ({ text, evaluation }) => documentOutline(text, evaluation),
  'CallGroups.of': ({ evaluation: e }) => [...CallGroups.of(e).methods()].map(([method, calls]) => [method, calls.map((c) => e.places.start(c.site))]),
  duplicates: findingsOf('duplicate-route'),
  unknownOptions: findingsOf('unknown-option'),
  'unknownOptions (by position)': findingsOf('unknown-option'),
  patternChecks: findingsOf('invalid-pattern', 'backreference-out-of-range'),
  missingControllers: findingsOf('missing-controller'),
  'missingControllers (by entry)': findingsOf('missing-controller'),
  unknownRouteFindings: findingsOf('dynamic-route'),
  'unknownRouteFindings (last views)': findingsOf('dynamic-route'),
  'reachability (conditional views)': findingsOf('unreachable-route', 'shadowed-block'),
  reachability: findingsOf('unreachable-route', 'shadowed-block'),
  'reachability (automata)': findingsOf('unreachable-route', 'shadowed-block'),
};

function summaryProjection(s: DeclarationSummary): unknown {
  return [summaryTitle(s), s.routes.map((r) => [r.route.key, r.route.target, r.methods.join('|')])];
}
