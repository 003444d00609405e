/**
 * `npm run bench:compare -- --baseline DIR`: this checkout's language server against another
 * built checkout's (DIR: a `git worktree` of an earlier revision after `npm run build`), in one
 * run, on the same generated workspace. The two servers run side by side and take each edit and
 * request in turn, each once both are idle (which one goes first alternates), so that a machine
 * whose speed drifts during the run slows both alike; every figure is a ratio of the two, paired
 * edit by edit. Each workspace is measured on several pairs of fresh servers (--pairs, 3 unless
 * told), and the pairs' samples pooled: see compare-rows.ts for why one pair is not enough.
 * Options: --sizes 1000,10000, --mix NAME[,NAME…], --seed N, --reps N (per kind of edit),
 * --pairs N (server pairs per workspace).
 * Exit code 0 whatever the figures; 1 when the comparison itself fails.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitWhenFlushed } from './exit-when-flushed';
import { generateWorkspace, SEED, type SizeWorkspace } from './generate';
import { LspDriver } from './lsp-driver';
import { parseMixes } from './mixes';
import { BENCH_SETTINGS } from './session';
import { poolRuns, renderRows, slowerThan, type Row } from './compare-rows';

const ROOT = path.resolve(__dirname, '..', '..');
const TIMEOUT_MS = 120_000;
/** Opens of the route file on each server (closed in between): at 1,000 declarations one takes 3–6 ms, and the median of 11 pairs moved by ±15% between runs of the same code. */
const OPENS = 31;
/** A figure this much slower than the baseline's, by both ratios, is listed at the end. */
const BOUND = 1.1;

interface Options {
  baseline: string;
  sizes: number[];
  mixes: string[];
  seed: number;
  reps: number;
  pairs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Partial<Options> & { sizes: number[]; mixes: string[]; seed: number; reps: number; pairs: number } = { sizes: [10_000], mixes: ['bonfire'], seed: SEED, reps: 30, pairs: 3 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--baseline') o.baseline = path.resolve(value());
    else if (flag === '--sizes') o.sizes = value().split(',').map((s) => Number(s.replace(/_/g, '')));
    else if (flag === '--mix') o.mixes = parseMixes(value());
    else if (flag === '--seed') o.seed = Number(value());
    else if (flag === '--reps') o.reps = Number(value());
    else if (flag === '--pairs') o.pairs = Number(value());
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!o.baseline) throw new Error('--baseline DIR is required: a built checkout of the revision to compare with');
  if (!fs.existsSync(path.join(o.baseline, 'bin', 'ci-routes-language-server.js'))) throw new Error(`${o.baseline}: no bin/ci-routes-language-server.js (a built checkout of ci-routes?)`);
  if (o.sizes.some((s) => !Number.isInteger(s) || s < 20) || !Number.isInteger(o.seed) || !Number.isInteger(o.reps) || o.reps < 2 || !Number.isInteger(o.pairs) || o.pairs < 1) throw new Error('--sizes, --seed, --reps and --pairs take integers (sizes of at least 20, reps of at least 2, pairs of at least 1)');
  return o as Options;
}

/** One change of the route file, as both servers receive it. */
interface Change {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

/** The changes of each kind of edit, in order (each kind leaves the file as it found it, but `another statement`). */
function changesOf(ws: SizeWorkspace, reps: number): Record<string, Change[]> {
  const at = ws.plan.edit;
  const replace = (p: { line: number; character: number }, text: string): Change => ({ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text });
  const same = Array.from({ length: reps + (reps % 2) }, (_, i) => replace(at, i % 2 === 0 ? 'z' : at.original));
  const half = Math.max(1, reps >> 1);
  const typing: Change[] = [];
  for (let k = 0; k < half; k++) typing.push({ range: { start: { line: at.line, character: at.character + k }, end: { line: at.line, character: at.character + k } }, text: 'newpath/'.charAt(k % 8) });
  for (let k = half; k > 0; k--) typing.push({ range: { start: { line: at.line, character: at.character + k - 1 }, end: { line: at.line, character: at.character + k } }, text: '' });
  const sites = ws.plan.editSites.filter((s) => s.line !== at.line);
  const spread = Array.from({ length: Math.min(reps, sites.length) }, (_, i) => {
    const s = sites[Math.floor(((i + 0.5) * sites.length) / Math.min(reps, sites.length))];
    return replace(s, s.original === 'y' ? 'x' : 'y');
  });
  return { 'edit → diagnostics (one place)': same, 'typing (insert, then erase)': typing, 'edit at another statement each time': spread };
}

interface Side {
  name: string;
  driver: LspDriver;
  version: number;
  /** The workspace index's time, as the client sees it. */
  indexMs: number;
}

async function start(name: string, checkout: string, ws: SizeWorkspace): Promise<Side> {
  const driver = new LspDriver(checkout, BENCH_SETTINGS, path.join(checkout, 'bin', 'ci-routes-language-server.js'));
  await driver.initialize(ws.folder, TIMEOUT_MS);
  const index = await driver.indexWorkspace(TIMEOUT_MS);
  return { name, driver, version: 1, indexMs: index.clientMs };
}

/** The CPU time a process has used (Linux: /proc/PID/stat, in clock ticks), undefined elsewhere. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until neither server uses the processor (its work after a publication, an outline built
 * while idle, a collection): each step is then timed alone, not beside the other server's
 * leftovers. At most 5 s.
 */
async function quiet(sides: readonly Side[]): Promise<void> {
  const read = () => sides.map((s) => cpuTicks(s.driver.pid) ?? 0).join(',');
  const end = Date.now() + 5000;
  // Quiet for 200 ms: idle work runs in slices with pauses between them.
  let last = read();
  let still = 0;
  while (Date.now() < end && still < 5) {
    await new Promise((r) => setTimeout(r, 40));
    const now = read();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

/**
 * Runs `step` on both sides in turn, each alone (see quiet) unless `quick` (a request leaves no
 * work behind), the first side alternating with `i`.
 */
async function inTurn<T>(i: number, sides: [Side, Side], step: (s: Side) => Promise<T>, quick = false): Promise<[T, T]> {
  const [first, second] = i % 2 === 0 ? sides : [sides[1], sides[0]];
  if (!quick) await quiet(sides);
  const a = await step(first);
  if (!quick) await quiet(sides);
  const b = await step(second);
  return i % 2 === 0 ? [a, b] : [b, a];
}

/** One pair of fresh servers measured on a workspace; `baselineFirst`: the baseline starts (and indexes) first. */
async function comparePair(ws: SizeWorkspace, baseline: string, reps: number, baselineFirst: boolean): Promise<Row[]> {
  const startMine = () => start('this checkout', ROOT, ws);
  const startTheirs = () => start('baseline', baseline, ws);
  const first = await (baselineFirst ? startTheirs() : startMine());
  // The second indexes alone, not beside the first's work after its index (priming route files).
  await quiet([first]);
  const second = await (baselineFirst ? startMine() : startTheirs());
  const [mine, theirs] = baselineFirst ? [second, first] : [first, second];
  const sides: [Side, Side] = [mine, theirs];
  const rows: Row[] = [];
  try {
    const text = fs.readFileSync(ws.routeFile, 'utf8');
    // Each server indexed the workspace alone, one after the other (the first's disk reads the colder: pairs take turns).
    rows.push({ what: 'workspace index (client-observed)', mine: [mine.indexMs], theirs: [theirs.indexMs], unit: 'ms' });
    const opens: Row = { what: 'open → first diagnostics', mine: [], theirs: [], unit: 'ms' };
    const complete: Row = { what: 'open → all diagnostics', mine: [], theirs: [], unit: 'ms' };
    for (let i = 0; i < OPENS; i++) {
      const open = await inTurn(i, sides, async (s) => {
        if (i > 0) await s.driver.close(ws.routeFile, TIMEOUT_MS);
        return s.driver.open(ws.routeFile, text, ++s.version, TIMEOUT_MS, true);
      });
      opens.mine.push(open[0].ms);
      opens.theirs.push(open[1].ms);
      if (open[0].completeMs !== undefined && open[1].completeMs !== undefined) (complete.mine.push(open[0].completeMs), complete.theirs.push(open[1].completeMs));
    }
    rows.push(opens, complete);
    await inTurn(1, sides, (s) => s.driver.open(ws.probeFile, ws.probeText, 1, TIMEOUT_MS));
    for (const [what, changes] of Object.entries(changesOf(ws, reps))) {
      const row: Row = { what: `${what}, server`, mine: [], theirs: [], unit: 'ms' };
      const e2e: Row = { what: '  end to end (client-observed)', mine: [], theirs: [], unit: 'ms' };
      const parts = (['evaluateMs', 'analyseMs'] as const).map((part) => ({ part, row: { what: `  of which ${part === 'evaluateMs' ? 'evaluation' : 'analysis'}`, mine: [], theirs: [], unit: 'ms' } as Row }));
      for (let i = 0; i < changes.length; i++) {
        const [ca, cb] = await inTurn(i, sides, (s) => s.driver.change(ws.routeFile, ++s.version, changes[i].range, changes[i].text, TIMEOUT_MS));
        e2e.mine.push(ca.e2eMs);
        e2e.theirs.push(cb.e2eMs);
        const [a, b] = [ca.server, cb.server];
        if (a !== undefined && b !== undefined) {
          row.mine.push(a.totalMs);
          row.theirs.push(b.totalMs);
          for (const { part, row: r } of parts) {
            const [x, y] = [a[part], b[part]];
            if (typeof x === 'number' && typeof y === 'number') (r.mine.push(x), r.theirs.push(y));
          }
        }
      }
      rows.push(row, e2e, ...parts.map((p) => p.row));
    }
    // Edit, then at once the outline (the bench's "edit → document symbols, round trip"), leaving the text as it found it.
    const symbols: Row = { what: 'edit → document symbols, round trip', mine: [], theirs: [], unit: 'ms' };
    for (let i = 0; i < reps + (reps % 2); i++) {
      const char = i % 2 === 0 ? 'z' : ws.plan.edit.original;
      const [a, b] = await inTurn(i, sides, async (s) => (await s.driver.editThenRequest(ws.routeFile, ++s.version, ws.plan.edit, char, 'textDocument/documentSymbol', TIMEOUT_MS)).ms);
      symbols.mine.push(a);
      symbols.theirs.push(b);
    }
    rows.push(symbols);
    const routeUri = pathToFileURL(ws.routeFile).toString();
    const probeUri = pathToFileURL(ws.probeFile).toString();
    const requests: [string, string, unknown][] = [
      ['hover', 'textDocument/hover', { textDocument: { uri: routeUri }, position: ws.plan.hover }],
      ['completion', 'textDocument/completion', { textDocument: { uri: probeUri }, position: ws.completion }],
      ['definition', 'textDocument/definition', { textDocument: { uri: probeUri }, position: ws.definition }],
    ];
    for (const [what, method, params] of requests) {
      const row: Row = { what: `${what}, round trip`, mine: [], theirs: [], unit: 'ms' };
      await quiet(sides);
      // What was recorded before (the probe's opening, the edits) is not this request's.
      await Promise.all(sides.map((s) => s.driver.serverRequestTimes(TIMEOUT_MS)));
      for (let i = 0; i < 4 * reps; i++) {
        const [a, b] = await inTurn(i, sides, async (s) => (await s.driver.request(method, params, TIMEOUT_MS)).ms, true);
        row.mine.push(a);
        row.theirs.push(b);
      }
      // The servers' own time in those handlers: what the round trip's difference owes to them.
      const [ownMine, ownTheirs] = await Promise.all(sides.map(async (s) => (await s.driver.serverRequestTimes(TIMEOUT_MS))[method]?.ms ?? []));
      rows.push(row);
      if (ownMine.length === row.mine.length && ownTheirs.length === row.theirs.length) rows.push({ what: '  of which in the handler', mine: ownMine, theirs: ownTheirs, unit: 'ms' });
    }
    const rss = sides.map((s) => s.driver.memory());
    if (rss[0].rssMb !== undefined && rss[1].rssMb !== undefined) rows.push({ what: 'RSS at the end', mine: [rss[0].rssMb], theirs: [rss[1].rssMb], unit: 'MB' });
    if (rss[0].peakMb !== undefined && rss[1].peakMb !== undefined) rows.push({ what: 'peak RSS (VmHWM)', mine: [rss[0].peakMb], theirs: [rss[1].peakMb], unit: 'MB' });
  } finally {
    await Promise.all(sides.map((s) => s.driver.stop()));
  }
  return rows;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const bench = generateWorkspace(o.sizes, o.seed, o.mixes);
  try {
    console.log(`baseline: ${o.baseline}; seed ${o.seed}; ${o.pairs} pair${o.pairs === 1 ? '' : 's'} of servers per workspace; on each server, ${o.reps} edits of each kind, ${4 * o.reps} of each request`);
    const slower: string[] = [];
    for (const ws of bench.sizes) {
      const runs: Row[][] = [];
      for (let p = 0; p < o.pairs; p++) {
        process.stderr.write(`${ws.mix} ${ws.size}: server pair ${p + 1} of ${o.pairs}\n`);
        runs.push(await comparePair(ws, o.baseline, o.reps, p % 2 === 1));
      }
      const rows = poolRuns(runs);
      const title = `${ws.mix} ${ws.size.toLocaleString('en-US')}`;
      console.log(`\n${renderRows(title, rows, o.pairs)}`);
      for (const r of slowerThan(rows, BOUND)) slower.push(`${title}: ${r.what.trim()}`);
    }
    console.log(`\nFigures over ${BOUND.toFixed(2)}× by both ratios (breakdowns aside): ${slower.length ? `\n  ${slower.join('\n  ')}` : 'none'}`);
  } finally {
    bench.remove();
  }
}

main().then(
  () => exitWhenFlushed(0),
  (e) => {
    console.error(`bench:compare: ${(e as Error).message}`);
    exitWhenFlushed(1);
  },
);
