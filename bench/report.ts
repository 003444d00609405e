import type { ExampleAppMemory } from './example-app';
import type { RequestFigures } from './floor';
import { INTERACTIVE_KINDS, REQUEST_KINDS, type RequestKind, type SessionResult } from './session';
import { median, percentile, type Figure } from './stats';

/** Everything measured for one size. */
export interface SizeResult {
  /** The mix drawn (bench/mixes.ts). */
  mix: string;
  size: number;
  bytes: number;
  routes?: number;
  parse: Figure;
  phpLint: Figure;
  /** A no-op server's hover round trips: the floor of the request figures. */
  floor: RequestFigures;
  session: SessionResult;
}

export interface Row {
  mix: string;
  figure: string;
  size: number;
  unit: 'ms' | 'MB';
  n: number;
  status: Figure['status'];
  median?: number;
  p99?: number;
  /** median / the whole-file parse's median of the same mix and size (for `app`, the sum of its route files' parses). */
  ratio?: number;
  /** For a round trip: median / the no-op server's hover median of the same run (cold, or warm for warm rows); for the RSS, / the no-op server's RSS. */
  noopRatio?: number;
  target?: string;
  met?: 'yes' | 'no' | 'n/a' | 'timeout';
  note?: string;
}

const REQUEST_LABEL: Record<RequestKind, string> = {
  hover: 'hover on Route::resources(',
  completion: "completion in named('",
  definition: "definition of named('x')",
  symbols: 'document symbols',
};

/** The example app's rows have no size of their own (bench/example-app.ts). */
const EXAMPLE_SIZE = 0;
const sizeText = (size: number) => (size === EXAMPLE_SIZE ? '—' : size.toLocaleString('en-US'));

/** The same libraries, transport and runtime, no work (bench/noop-server.ts). */
const FLOOR_LABEL = 'no-op server hover (floor)';
const NOOP_RSS_LABEL = 'no-op server RSS (floor)';
/** The same requests after a thousand more (see the legend printed under the table). */
const WARM = ', warm';
/** The server's time in the request's handler, beside the round trip (the row above it). */
const SERVER = ', server';

/** What a target compares a row with besides the row itself: the figures of the same run. */
interface TargetContext {
  /** The whole-file parse's median of the row's mix and size. */
  parseMs?: number;
  /** The no-op server's round-trip p99 of the same run (cold, or warm for warm rows). */
  floorP99?: number;
}

interface Target {
  size: number;
  text: string;
  /** true when met; reads the row (and the figures of its run it is compared with). */
  check(row: Row, ctx: TargetContext): boolean | undefined;
}

const atMost = (limit: number, of: 'median' | 'p99') => (row: Row) => (row[of] === undefined ? undefined : (row[of] as number) <= limit);
/** The row's median at most `times` the no-op server's figure of the same run. */
const withinNoop = (times: number) => (row: Row) => (row.noopRatio === undefined ? undefined : row.noopRatio <= times);

/** The round trip's p99 at most `ms` above the no-op server's p99 of the same run. */
const nearFloor = (ms: number) => (row: Row, ctx: TargetContext) => (row.p99 === undefined || ctx.floorP99 === undefined ? undefined : row.p99 <= ctx.floorP99 + ms);
const tenthOfParse = (r: Row, ctx: TargetContext) => (r.median === undefined || ctx.parseMs === undefined ? undefined : r.median <= ctx.parseMs / 10);

/** Hover, completion and definition: the handler and the round trip, cold and warm. */
function requestTargets(): Record<string, Target[]> {
  const out: Record<string, Target[]> = {};
  for (const k of INTERACTIVE_KINDS) {
    for (const warm of ['', WARM]) {
      out[`${REQUEST_LABEL[k]}${warm}`] = [{ size: 10_000, text: 'p99 ≤ no-op p99 + 0.5 ms', check: nearFloor(0.5) }];
      out[`${REQUEST_LABEL[k]}${warm}${SERVER}`] = [{ size: 10_000, text: 'p99 ≤ 1 ms', check: atMost(1, 'p99') }];
    }
  }
  return out;
}

/**
 * The targets of the performance issue in force, by figure (docs/performance.md, "Targets"), and
 * the 50,000-declaration ones of the first. Edit figures end to end are an upper bound of the
 * server's time.
 */
const TARGETS: Record<string, Target[]> = {
  'edit → diagnostics, server': [
    { size: 10_000, text: 'median ≤ parse/10', check: tenthOfParse },
    { size: 1_000, text: 'median ≤ 5 ms', check: atMost(5, 'median') },
  ],
  'edit → diagnostics, end to end': [
    { size: 10_000, text: '(bound) ≤ parse/10', check: tenthOfParse },
    { size: 1_000, text: '(bound) ≤ 5 ms', check: atMost(5, 'median') },
  ],
  'edit → document symbols, round trip': [{ size: 1_000, text: 'median ≤ 20 ms', check: atMost(20, 'median') }],
  ...requestTargets(),
  'RSS after opening everything': [
    { size: 10_000, text: '≤ 150 MB', check: atMost(150, 'median') },
    { size: 1_000, text: '≤ 1.5× no-op', check: withinNoop(1.5) },
    { size: EXAMPLE_SIZE, text: '≤ 1.5× no-op', check: withinNoop(1.5) },
  ],
  'RSS once idle': [{ size: EXAMPLE_SIZE, text: '≤ 1.5× no-op', check: withinNoop(1.5) }],
  'open → first diagnostics': [{ size: 50_000, text: 'opens', check: (r) => r.n > 0 }],
  'slowest request after analysis': [{ size: 50_000, text: '≤ 100 ms', check: atMost(100, 'median') }],
};

function row(mix: string, figure: string, size: number, f: Figure, parseMs: number | undefined, unit: 'ms' | 'MB' = 'ms', noop?: number, floorP99?: number): Row {
  const m = median(f.samples);
  const r: Row = { mix, figure, size, unit, n: f.samples.length, status: f.status, median: m, p99: percentile(f.samples, 99), ...(f.note ? { note: f.note } : {}) };
  if (unit === 'ms' && m !== undefined && parseMs) r.ratio = m / parseMs;
  // Against the no-op server's figure in the same unit (its round trip, or its RSS).
  if (m !== undefined && noop) r.noopRatio = m / noop;
  const target = TARGETS[figure]?.find((t) => t.size === size);
  if (target) {
    r.target = target.text;
    const ok = f.samples.length ? target.check(r, { parseMs, floorP99 }) : undefined;
    r.met = ok === undefined ? (f.status === 'timeout' ? 'timeout' : 'n/a') : ok ? 'yes' : 'no';
  }
  return r;
}

export function rowsOf(results: SizeResult[]): Row[] {
  const rows: Row[] = [];
  for (const res of results) {
    const p = median(res.parse.samples);
    const noop = median(res.floor.cold.samples);
    const noopWarm = median(res.floor.warm.samples);
    const floorP99 = percentile(res.floor.cold.samples, 99);
    const floorWarmP99 = percentile(res.floor.warm.samples, 99);
    const s = res.session;
    const add = (figure: string, f: Figure, unit: 'ms' | 'MB' = 'ms', noopMs?: number, floor?: number) => rows.push(row(res.mix, figure, res.size, f, p, unit, noopMs, floor));
    add('whole-file parse (php-parser)', res.parse);
    add('php -l (process included)', res.phpLint);
    add('workspace index (client-observed)', s.index);
    add('open → first diagnostics', s.open, 'ms', noop);
    add('open → all diagnostics', s.openComplete, 'ms', noop);
    add('edit → diagnostics, server', s.editServer);
    add('edit → diagnostics, end to end', s.editE2e, 'ms', noop);
    add('edit → document symbols, round trip', s.editSymbols, 'ms', noop);
    if (s.moduleEditServer) add('edit in a module file → diagnostics, server', s.moduleEditServer);
    if (s.moduleEditE2e) add('edit in a module file → diagnostics, end to end', s.moduleEditE2e, 'ms', noop);
    add('typing at one place (insert, then erase), server', s.typing);
    add('edit at another statement each time, server', s.editSpread);
    for (const k of REQUEST_KINDS) {
      add(REQUEST_LABEL[k], s.requests[k], 'ms', noop, floorP99);
      add(`${REQUEST_LABEL[k]}${SERVER}`, s.serverRequests[k]);
    }
    add(FLOOR_LABEL, res.floor.cold, 'ms', noop);
    for (const k of INTERACTIVE_KINDS) {
      add(`${REQUEST_LABEL[k]}${WARM}`, s.warmRequests[k], 'ms', noopWarm, floorWarmP99);
      add(`${REQUEST_LABEL[k]}${WARM}${SERVER}`, s.warmServerRequests[k]);
    }
    add(`${FLOOR_LABEL}${WARM}`, res.floor.warm, 'ms', noopWarm);
    add('slowest request after analysis', s.maxRequest, 'ms', noop);
    add(NOOP_RSS_LABEL, res.floor.rss, 'MB');
    add('RSS after opening everything', s.rss, 'MB', median(res.floor.rss.samples));
    if (s.rssIdle) add('RSS once idle', s.rssIdle, 'MB');
    add('peak RSS (VmHWM)', s.peakRss, 'MB');
  }
  return rows;
}

/** The example app's memory (bench/example-app.ts) against `noopRss`, the no-op server's RSS in the same run. */
export function exampleAppRows(m: ExampleAppMemory, noopRss: number | undefined): Row[] {
  const mix = 'example-app';
  return [row(mix, 'RSS after opening everything', EXAMPLE_SIZE, m.afterOpen, undefined, 'MB', noopRss), row(mix, 'RSS once idle', EXAMPLE_SIZE, m.idle, undefined, 'MB', noopRss)];
}

function num(v: number, unit: 'ms' | 'MB'): string {
  if (unit === 'MB') return v.toFixed(1);
  if (v < 10) return v.toFixed(2);
  if (v < 100) return v.toFixed(1);
  return Math.round(v).toLocaleString('en-US');
}

function ratio(v: number | undefined): string {
  if (v === undefined) return '';
  if (v < 0.01) return `${v.toFixed(4)}×`;
  if (v < 10) return `${v.toFixed(2)}×`;
  return `${Math.round(v).toLocaleString('en-US')}×`;
}

/** The table as text, with notes on partial, skipped and timed-out figures. */
export function renderTable(rows: Row[]): string {
  const notes: string[] = [];
  const cells = rows.map((r) => {
    let med: string;
    let p99 = '';
    if (r.median === undefined) med = r.status;
    else {
      med = `${num(r.median, r.unit)} ${r.unit}`;
      if (r.n > 1 && r.p99 !== undefined) p99 = `${num(r.p99, r.unit)} ${r.unit}`;
    }
    if (r.note && r.status !== 'ok') {
      const text = `${r.status}: ${r.note}`;
      let k = notes.indexOf(text);
      if (k < 0) k = notes.push(text) - 1;
      med += ` [${k + 1}]`;
    }
    return [r.figure, sizeText(r.size), String(r.n), med, p99, ratio(r.ratio), ratio(r.noopRatio), r.target ?? '', r.met ?? ''];
  });
  const head = ['figure', 'size', 'n', 'median', 'p99', '× parse', '× no-op', 'target', 'met?'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([1, 2, 3, 4, 5, 6]);
  const line = (c: string[]) => c.map((v, i) => (right.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last: string | undefined;
  cells.forEach((c, i) => {
    const group = `${rows[i].mix} ${rows[i].size}`;
    if (last !== undefined && group !== last) out.push('');
    if (rows[i].mix !== last?.split(' ')[0]) out.push(`mix ${rows[i].mix}`);
    last = group;
    out.push(line(c));
  });
  if (notes.length) out.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`));
  return out.join('\n');
}

/** The same table in Markdown (for docs/performance.md). */
export function renderMarkdown(rows: Row[]): string {
  const fmt = (r: Row) => {
    if (r.median === undefined) return [r.status, ''];
    const mark = r.status === 'partial' ? ' *' : '';
    return [`${num(r.median, r.unit)} ${r.unit}${mark}`, r.n > 1 && r.p99 !== undefined ? `${num(r.p99, r.unit)} ${r.unit}` : ''];
  };
  const out = ['| mix | figure | size | n | median | p99 | × parse | × no-op | target | met? |', '|---|---|--:|--:|--:|--:|--:|--:|---|---|'];
  for (const r of rows) {
    const [m, p] = fmt(r);
    out.push(`| ${r.mix} | ${r.figure} | ${sizeText(r.size)} | ${r.n} | ${m} | ${p} | ${ratio(r.ratio)} | ${ratio(r.noopRatio)} | ${r.target ?? ''} | ${r.met ?? ''} |`);
  }
  return out.join('\n');
}
