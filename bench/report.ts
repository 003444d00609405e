import type { RequestFigures } from './floor';
import { INTERACTIVE_KINDS, REQUEST_KINDS, type RequestKind, type SessionResult } from './session';
import { median, percentile, type Figure } from './stats';

/** Everything measured for one size. */
export interface SizeResult {
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
  figure: string;
  size: number;
  unit: 'ms' | 'MB';
  n: number;
  status: Figure['status'];
  median?: number;
  p99?: number;
  /** median / the whole-file parse's median of the same size. */
  ratio?: number;
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

/** The same libraries, transport and runtime, no work (bench/noop-server.ts). */
const FLOOR_LABEL = 'no-op server hover (floor)';
/** The same requests after a thousand more (see the legend printed under the table). */
const WARM = ', warm';
/** The server's time in the request's handler, beside the round trip (the row above it). */
const SERVER = ', server';

interface Target {
  size: number;
  text: string;
  /** true when met; reads the row (and the parse median of its size). */
  check(row: Row, parseMs: number | undefined): boolean | undefined;
}

const atMost = (limit: number, of: 'median' | 'p99') => (row: Row) => (row[of] === undefined ? undefined : (row[of] as number) <= limit);

/** The targets, by figure. Edit figures end to end are an upper bound of the server's time. */
const TARGETS: Record<string, Target[]> = {
  'edit → diagnostics, server': [
    { size: 10_000, text: 'median ≤ parse/10', check: (r, p) => (r.median === undefined || p === undefined ? undefined : r.median <= p / 10) },
    { size: 1_000, text: 'median ≤ 5 ms', check: atMost(5, 'median') },
  ],
  'edit → diagnostics, end to end': [
    { size: 10_000, text: '(bound) ≤ parse/10', check: (r, p) => (r.median === undefined || p === undefined ? undefined : r.median <= p / 10) },
    { size: 1_000, text: '(bound) ≤ 5 ms', check: atMost(5, 'median') },
  ],
  [REQUEST_LABEL.hover]: [{ size: 10_000, text: 'p99 ≤ 2 ms', check: atMost(2, 'p99') }],
  [REQUEST_LABEL.completion]: [{ size: 10_000, text: 'p99 ≤ 2 ms', check: atMost(2, 'p99') }],
  [REQUEST_LABEL.definition]: [{ size: 10_000, text: 'p99 ≤ 2 ms', check: atMost(2, 'p99') }],
  'RSS after opening everything': [{ size: 10_000, text: '≤ 100 MB', check: atMost(100, 'median') }],
  'open → first diagnostics': [{ size: 50_000, text: 'opens', check: (r) => r.n > 0 }],
  'slowest request after analysis': [{ size: 50_000, text: '≤ 100 ms', check: atMost(100, 'median') }],
};

function row(figure: string, size: number, f: Figure, parseMs: number | undefined, unit: 'ms' | 'MB' = 'ms'): Row {
  const m = median(f.samples);
  const r: Row = { figure, size, unit, n: f.samples.length, status: f.status, median: m, p99: percentile(f.samples, 99), ...(f.note ? { note: f.note } : {}) };
  if (unit === 'ms' && m !== undefined && parseMs) r.ratio = m / parseMs;
  const target = TARGETS[figure]?.find((t) => t.size === size);
  if (target) {
    r.target = target.text;
    const ok = f.samples.length ? target.check(r, parseMs) : undefined;
    r.met = ok === undefined ? (f.status === 'timeout' ? 'timeout' : 'n/a') : ok ? 'yes' : 'no';
  }
  return r;
}

export function rowsOf(results: SizeResult[]): Row[] {
  const rows: Row[] = [];
  for (const res of results) {
    const p = median(res.parse.samples);
    const s = res.session;
    rows.push(row('whole-file parse (php-parser)', res.size, res.parse, p));
    rows.push(row('php -l (process included)', res.size, res.phpLint, p));
    rows.push(row('workspace index (client-observed)', res.size, s.index, p));
    rows.push(row('open → first diagnostics', res.size, s.open, p));
    rows.push(row('open → all diagnostics', res.size, s.openComplete, p));
    rows.push(row('edit → diagnostics, server', res.size, s.editServer, p));
    rows.push(row('edit → diagnostics, end to end', res.size, s.editE2e, p));
    rows.push(row('typing at one place (insert, then erase), server', res.size, s.typing, p));
    rows.push(row('edit at another statement each time, server', res.size, s.editSpread, p));
    for (const k of REQUEST_KINDS) {
      rows.push(row(REQUEST_LABEL[k], res.size, s.requests[k], p));
      rows.push(row(`${REQUEST_LABEL[k]}${SERVER}`, res.size, s.serverRequests[k], p));
    }
    rows.push(row(FLOOR_LABEL, res.size, res.floor.cold, p));
    for (const k of INTERACTIVE_KINDS) {
      rows.push(row(`${REQUEST_LABEL[k]}${WARM}`, res.size, s.warmRequests[k], p));
      rows.push(row(`${REQUEST_LABEL[k]}${WARM}${SERVER}`, res.size, s.warmServerRequests[k], p));
    }
    rows.push(row(`${FLOOR_LABEL}${WARM}`, res.size, res.floor.warm, p));
    rows.push(row('slowest request after analysis', res.size, s.maxRequest, p));
    rows.push(row('RSS after opening everything', res.size, s.rss, p, 'MB'));
    if (s.rssIdle) rows.push(row('RSS once idle', res.size, s.rssIdle, p, 'MB'));
    rows.push(row('peak RSS (VmHWM)', res.size, s.peakRss, p, 'MB'));
  }
  return rows;
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
    return [r.figure, r.size.toLocaleString('en-US'), String(r.n), med, p99, ratio(r.ratio), r.target ?? '', r.met ?? ''];
  });
  const head = ['figure', 'size', 'n', 'median', 'p99', '× parse', 'target', 'met?'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const right = new Set([1, 2, 3, 4, 5]);
  const line = (c: string[]) => c.map((v, i) => (right.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last: number | undefined;
  cells.forEach((c, i) => {
    if (last !== undefined && rows[i].size !== last) out.push('');
    last = rows[i].size;
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
  const out = ['| figure | size | n | median | p99 | × parse | target | met? |', '|---|--:|--:|--:|--:|--:|---|---|'];
  for (const r of rows) {
    const [m, p] = fmt(r);
    out.push(`| ${r.figure} | ${r.size.toLocaleString('en-US')} | ${r.n} | ${m} | ${p} | ${ratio(r.ratio)} | ${r.target ?? ''} | ${r.met ?? ''} |`);
  }
  return out.join('\n');
}
