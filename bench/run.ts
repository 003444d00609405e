/**
 * `npm run bench`: generates route files of 100 to 50,000 declarations with a 2,000-controller
 * workspace, drives the built language server over stdio like an editor, and prints one table.
 * Options: --json, --sizes 100,1000, --mix NAME[,NAME…] (route file mixes, bench/mixes.ts), --seed N|random,
 * --quick (fewer repetitions), --keep (keep the workspace).
 * See docs/performance.md. Exit code 0 whatever the figures; 1 only when the bench itself fails.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { hasPhp, phpLint, wholeFileParse } from './baselines';
import { exitWhenFlushed } from './exit-when-flushed';
import { EXAMPLE_APP, exampleAppMemory } from './example-app';
import { noopFloor } from './floor';
import { generateWorkspace, SEED, VIEWS, type BenchWorkspace } from './generate';
import { DEFAULT_MIXES, MIX_NAMES, parseMixes } from './mixes';
import { exampleAppRows, renderMarkdown, renderTable, rowsOf, type SizeResult } from './report';
import { BENCH_SETTINGS, runSession, type SessionPlan } from './session';
import { describeSlow } from './slow-round-trips';
import { cpuTimes, stealPercent } from './steal';
import { median, now, type Figure } from './stats';

const ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_SIZES = [100, 1_000, 10_000, 50_000];
/** Each mix's run (after the build) stays under this: one mix ends within 5 minutes. */
const TOTAL_BUDGET_MS = 265_000;
/** Kept back for each size still to come, so one slow size cannot starve the others. */
const MIN_SIZE_BUDGET_MS = 12_000;

/** A mistake on the command line: one line on stderr, exit code 1. */
class UsageError extends Error {}

interface Options {
  json: boolean;
  quick: boolean;
  keep: boolean;
  markdown: boolean;
  sizes: number[];
  mixes: string[];
  seed: number;
  /** The seed was drawn (--seed random): printed so the run can be repeated. */
  seedDrawn: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { json: false, quick: false, keep: false, markdown: false, sizes: DEFAULT_SIZES, mixes: DEFAULT_MIXES, seed: SEED, seedDrawn: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = true;
    else if (a === '--quick') o.quick = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--markdown') o.markdown = true;
    else if (a === '--sizes' || a.startsWith('--sizes=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      const sizes = (v ?? '').split(',').map((s) => Number(s.trim().replace(/_/g, '')));
      if (!sizes.length || sizes.some((s) => !Number.isInteger(s) || s < 20)) throw new UsageError(`--sizes: expected sizes of at least 20 separated by commas, got '${v}'`);
      o.sizes = [...new Set(sizes)].sort((a, b) => a - b);
    } else if (a === '--mix' || a.startsWith('--mix=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      try {
        o.mixes = parseMixes(v ?? '');
      } catch (e) {
        throw new UsageError(`--mix: ${(e as Error).message}`);
      }
    } else if (a === '--seed' || a.startsWith('--seed=')) {
      const v = (a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]) ?? '';
      if (v === 'random') {
        o.seed = Math.floor(Math.random() * 2 ** 31);
        o.seedDrawn = true;
      } else if (/^\d+$/.test(v) && Number(v) < 2 ** 31) o.seed = Number(v);
      else throw new UsageError(`--seed: expected an integer from 0 to 2^31-1 or 'random', got '${v}'`);
    } else throw new UsageError(`unknown option '${a}' (expected --json, --sizes N,M, --mix ${MIX_NAMES.join('|')}|all, --seed N|random, --quick, --keep, --markdown)`);
  }
  return o;
}

/**
 * Repetitions and time budget for a size (full run); --quick divides the repetitions. Requests are
 * repeated 200 times: with fewer than 100 samples, a nearest-rank p99 is the slowest sample. Edits
 * are repeated 100 times up to 1,000 declarations and 60 times at 10,000: the first twenty or so
 * of a session run code V8 has not optimised yet, and 30 edits were then mostly those.
 */
function planFor(size: number, quick: boolean): SessionPlan & { parseRuns: number; lintRuns: number } {
  const p =
    size <= 100
      ? { budgetMs: 25_000, openReps: 10, editReps: 100, spreadEditReps: 20, keystrokes: 20, requestReps: 200, warmupReps: 1000, idleMs: 0, parseRuns: 20, lintRuns: 5 }
      : size <= 1_000
        ? { budgetMs: 45_000, openReps: 8, editReps: 100, spreadEditReps: 30, keystrokes: 20, requestReps: 200, warmupReps: 1000, idleMs: 0, parseRuns: 10, lintRuns: 5 }
        : size <= 10_000
          ? { budgetMs: 100_000, openReps: 3, editReps: 60, spreadEditReps: 30, keystrokes: 20, requestReps: 200, warmupReps: 1000, idleMs: 45_000, parseRuns: 5, lintRuns: 3 }
          : { budgetMs: 90_000, openReps: 1, editReps: 5, spreadEditReps: 5, keystrokes: 4, requestReps: 200, warmupReps: 1000, idleMs: 0, parseRuns: 3, lintRuns: 1 };
  if (!quick) return p;
  const cut = (n: number) => Math.max(1, Math.ceil(n / 3));
  return { ...p, idleMs: 0, openReps: cut(p.openReps), editReps: cut(p.editReps), spreadEditReps: cut(p.spreadEditReps), keystrokes: cut(p.keystrokes), requestReps: cut(p.requestReps), warmupReps: cut(p.warmupReps), parseRuns: cut(p.parseRuns), lintRuns: 1 };
}

/**
 * The whole-file parse runs in the bench's own process and leaves hundreds of MB to collect: a
 * collection of the bench's heap in the middle of a timed request would count as the server's
 * time. Collected before the timing starts when Node runs with --expose-gc (`npm run bench` does).
 */
function collectClientGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Each request kind's samples under `<kind><suffix>` (the JSON output's keys). */
function samplesByKind(figures: Partial<Record<string, Figure>>, suffix: string): Record<string, number[]> {
  return Object.fromEntries(Object.entries(figures).map(([kind, f]) => [`${kind}${suffix}`, f?.samples ?? []]));
}

const ms = (v: number | undefined): string => (v === undefined ? '?' : v < 10 ? v.toFixed(2) : Math.round(v).toLocaleString('en-US'));

/** One line per size: what the server answered, its own figures, why it stopped early. */
function describeSession(r: SizeResult): string {
  const s = r.session;
  const parts = [...s.checks];
  if (s.indexServerMs !== undefined) parts.push(`index ${ms(s.indexServerMs)} ms by the server's log`);
  const e = s.editServerParts;
  if (e) parts.push(`server edit time median: parse ${ms(e.parseMs)} + evaluate ${ms(e.evaluateMs)} + analyse ${ms(e.analyseMs)} ms`);
  if (s.coldSlowTrips) parts.push(`cold round trips of hover, completion and definition: ${describeSlow(s.coldSlowTrips)}`);
  if (r.floor.coldSlowTrips) parts.push(`the no-op server's: ${describeSlow(r.floor.coldSlowTrips)}`);
  if (s.slowestRequest) parts.push(`slowest request: ${s.slowestRequest}`);
  if (s.failure) parts.push(`stopped early: ${s.failure}`);
  return parts.join('; ') || 'nothing';
}

/** The commit measured, and whether the engine or server had uncommitted changes. */
function revision(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 5000 });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.error || head.status !== 0) return 'unknown (not a git checkout)';
  const dirty = git('status', '--porcelain', '--', 'shared', 'server');
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' + uncommitted changes in shared/ or server/' : ''}`;
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    php: hasPhp(),
  };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const t0 = now();
  const cpuAtStart = cpuTimes();
  const log = (m: string) => {
    if (!opts.json) process.stderr.write(`[bench ${((now() - t0) / 1000).toFixed(1)} s] ${m}\n`);
  };
  let ws: BenchWorkspace | undefined;
  const cleanup = () => {
    if (ws && !opts.keep) ws.remove();
    else if (ws) process.stderr.write(`bench: the workspace is kept in ${ws.root}\n`);
  };
  process.on('SIGINT', () => (cleanup(), process.exit(130)));
  try {
    if (opts.seedDrawn) process.stderr.write(`bench: seed ${opts.seed} (repeat this run with --seed ${opts.seed})\n`);
    log(`generating mixes ${opts.mixes.join(', ')} at ${opts.sizes.join(', ')} declarations with 2,000 controllers each, seed ${opts.seed}`);
    ws = generateWorkspace(opts.sizes, opts.seed, opts.mixes);
    const generationMs = now() - t0;
    log(`generated in ${(generationMs / 1000).toFixed(1)} s under ${ws.root}`);
    const results: SizeResult[] = [];
    for (const [i, sw] of ws.sizes.entries()) {
      const plan = planFor(sw.size, opts.quick);
      const remaining = TOTAL_BUDGET_MS * opts.mixes.length - (now() - t0) - MIN_SIZE_BUDGET_MS * (ws.sizes.length - i - 1);
      const budget = Math.max(MIN_SIZE_BUDGET_MS, Math.min(plan.budgetMs, remaining));
      const sizeDeadline = now() + budget;
      const baselineBudget = Math.min(15_000, budget * 0.15);
      const what = `${sw.mix}, ${sw.size} declarations`;
      log(`${what}: whole-file parse${sw.mixPlan.extra.length ? ` of its ${sw.mixPlan.extra.length + 1} route files` : ''}${hasPhp() ? ' and php -l' : ''}`);
      const parse = wholeFileParse([sw.plan.text, ...sw.mixPlan.extra.map((f) => f.text)], plan.parseRuns, baselineBudget);
      collectClientGarbage();
      const lint = phpLint(sw.routeFile, plan.lintRuns, baselineBudget / 2);
      log(`${what}: no-op server round trips`);
      const floor = await noopFloor(ROOT, plan.requestReps, plan.warmupReps, baselineBudget / 2);
      collectClientGarbage();
      const sessionBudget = sizeDeadline - now();
      log(`${what}: server session (budget ${(sessionBudget / 1000).toFixed(0)} s)`);
      const session = await runSession(ROOT, sw, { ...plan, budgetMs: Math.max(5_000, sessionBudget) });
      if (session.failure) log(`${what}: stopped early: ${session.failure}`);
      results.push({ mix: sw.mix, size: sw.size, bytes: Buffer.byteLength(sw.plan.text), parse, phpLint: lint, floor, session });
    }
    log(`example app: RSS with its route files open, then left alone`);
    const example = await exampleAppMemory(ROOT, (opts.quick ? 8 : 15) * 1000, 40_000);
    const totalMs = now() - t0;
    const rows = [...rowsOf(results), ...exampleAppRows(example, median(results.flatMap((r) => r.floor.rss.samples)))];
    const info = {
      startedAt: startedAt.toISOString(),
      totalMs,
      generationMs,
      machine: { ...machine(), stealPercent: stealPercent(cpuAtStart, cpuTimes()) },
      quick: opts.quick,
      revision: revision(),
      seed: opts.seed,
      seedDrawn: opts.seedDrawn,
      mixes: opts.mixes,
      settings: { ...BENCH_SETTINGS, debounceMs: 0 },
      workspace: ws.sizes.map((s) => ({ mix: s.mix, size: s.size, declarations: s.mixPlan.declarations, routeFiles: 1 + s.mixPlan.extra.length, mainDeclarations: s.plan.declarations, bytes: Buffer.byteLength(s.plan.text), controllers: s.controllers, otherFiles: s.otherFiles, mistakes: s.plan.mistakes })),
    };
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ ...info, rows, sizes: results.map((r) => ({ mix: r.mix, seed: opts.seed, size: r.size, bytes: r.bytes, indexServerMs: r.session.indexServerMs, editServerParts: r.session.editServerParts, diagnosticsOnOpen: r.session.diagnostics, checks: r.session.checks, coldSlowTrips: r.session.coldSlowTrips, floorColdSlowTrips: r.floor.coldSlowTrips, failure: r.session.failure, samples: { parse: r.parse.samples, open: r.session.open.samples, openComplete: r.session.openComplete.samples, editE2e: r.session.editE2e.samples, editServer: r.session.editServer.samples, editSpread: r.session.editSpread.samples, editSymbols: r.session.editSymbols.samples, ...(r.session.moduleEditE2e ? { moduleEditE2e: r.session.moduleEditE2e.samples, moduleEditServer: r.session.moduleEditServer?.samples ?? [] } : {}), typing: r.session.typing.samples, ...samplesByKind(r.session.requests, ''), ...samplesByKind(r.session.warmRequests, 'Warm'), ...samplesByKind(r.session.serverRequests, 'Server'), ...samplesByKind(r.session.warmServerRequests, 'WarmServer'), floor: r.floor.cold.samples, floorWarm: r.floor.warm.samples } })) }, null, 2)}\n`);
    } else {
      const m = info.machine;
      const plan0 = planFor(results[0]?.size ?? 1_000, opts.quick);
      const out = [
        `ci-routes bench  ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${opts.quick ? '  (--quick)' : ''}  revision ${info.revision}`,
        `machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, ${m.platform}, node ${m.node}, php ${m.php ? 'on the PATH' : 'not on the PATH'}`,
        `CPU time taken by the hypervisor during the run (steal): ${m.stealPercent === undefined ? 'n/a' : `${m.stealPercent.toFixed(1)}%`} (above a few percent, timings are noisy)`,
        `workspace per mix and size: 2,000 controllers, ${VIEWS} views, constants.php (app: and MX's router); server settings maxFileSize ${BENCH_SETTINGS.maxFileSize / 1024 / 1024} MiB, maxSteps ${BENCH_SETTINGS.maxSteps.toLocaleString('en-US')}, debounceMs 0`,
        `mixes: ${opts.mixes.join(', ')}; seed ${opts.seed}${opts.seedDrawn ? ' (drawn: repeat with --seed ' + opts.seed + ')' : ''}; "× parse": the median over the whole-file parse of the same mix and size (app: the sum of its route files' parses); "× no-op": a round trip's median over the no-op server's hover median of the same mix and size (warm rows: its warm median)`,
        `route files: ${results.map((r) => `${r.mix} ${r.size.toLocaleString('en-US')} decl. = main ${(r.bytes / 1024).toFixed(0)} KB, ${r.session.diagnostics ?? '?'} diagnostics`).join('; ')}`,
        `example-app: ${EXAMPLE_APP} with its ${example.files} route files open, after the sizes; "RSS once idle": the lowest in ${opts.quick ? 8 : 15} s left alone`,
        `total bench time: ${(totalMs / 1000).toFixed(1)} s (generation ${(generationMs / 1000).toFixed(1)} s, build not included)`,
        '',
        opts.markdown ? renderMarkdown(rows) : renderTable(rows),
        '',
        `Requests: the first ${plan0.requestReps} of each kind the server answers; ", warm": ${plan0.requestReps} more after another ${plan0.warmupReps.toLocaleString('en-US')}; ", server": the server's own time in each of those requests' handlers (ciRoutes/requestTimings), the rest of the round trip being transport, client and scheduling; "floor": a server on the same libraries that answers hover with a constant (bench/noop-server.ts), timed the same way.`,
        '',
        'What the server answered (first request of each kind):',
        ...results.map((r) => `  ${r.mix} ${r.size.toLocaleString('en-US')}: ${describeSession(r)}`),
      ];
      process.stdout.write(`${out.join('\n')}\n`);
    }
  } finally {
    cleanup();
  }
}

main().then(
  () => exitWhenFlushed(0),
  (e) => {
    process.stderr.write(e instanceof UsageError ? `bench: ${e.message}\n` : `bench failed: ${(e as Error).stack ?? String(e)}\n`);
    exitWhenFlushed(1);
  },
);
