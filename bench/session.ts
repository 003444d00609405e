import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SizeWorkspace } from './generate';
import { idleRss } from './idle-rss';
import { spreadEdits } from './spread-edits';
import { typeAndErase } from './typing';
import { timeRequests } from './timed-requests';
import { LspDriver, ServerExitedError, TimeoutError } from './lsp-driver';
import { budgeted, figure, median, now, type Figure } from './stats';
import { combineSlow, SLOW_TRIP_MS, slowRoundTrips, type SlowRoundTrips, type TimedTrip } from './slow-round-trips';
import type { MethodTimings } from '../server/src/lsp/request-timings';

/** How much to measure for one size, and the time it may take. */
export interface SessionPlan {
  budgetMs: number;
  openReps: number;
  editReps: number;
  /** Edits then made at as many other statements down the file, one each (see spreadEdits). */
  spreadEditReps: number;
  /** Keystrokes typed and erased at the middle edit's place (see typeAndErase). */
  keystrokes: number;
  requestReps: number;
  /** Requests of each interactive kind sent between its cold and its warm figure. */
  warmupReps: number;
  /** At most this long without requests after the edits, for the RSS to settle (0: not measured). */
  idleMs: number;
}

export const REQUEST_KINDS = ['hover', 'completion', 'definition', 'symbols'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
/** The kinds an editor sends as the user moves and types, measured warm as well as cold. */
export const INTERACTIVE_KINDS = ['hover', 'completion', 'definition'] as const satisfies readonly RequestKind[];
export type InteractiveKind = (typeof INTERACTIVE_KINDS)[number];

/** What one server session measured on one workspace folder. */
export interface SessionResult {
  index: Figure;
  /** The server's own index time, from its log line, when it says. */
  indexServerMs?: number;
  /** Open → the first diagnostics of the version (what the quick checks found, on a large file). */
  open: Figure;
  /** Open → the analysis' last publication (its timing notification), when the server reports timings. */
  openComplete: Figure;
  editServer: Figure;
  editE2e: Figure;
  /** Server time of the edits at one statement after another (spreadEdits). */
  editSpread: Figure;
  /** Server time of each keystroke typed, then erased, at one place (typeAndErase). */
  typing: Figure;
  /** From a one-character edit sent to the answer of a document symbols request sent right after it (an editor's outline). */
  editSymbols: Figure;
  /** For an application with modules: one-character edits in a module's routes file, end to end and the server's time. */
  moduleEditE2e?: Figure;
  moduleEditServer?: Figure;
  /** The server's breakdown of its edit time (medians of parseMs, evaluateMs, analyseMs), when reported. */
  editServerParts?: { parseMs?: number; evaluateMs?: number; analyseMs?: number };
  /** The first requests of each kind the server answers (its code not yet optimised by V8). */
  requests: Record<RequestKind, Figure>;
  /** As many again, after `warmupReps` more of the same kind. */
  warmRequests: Record<InteractiveKind, Figure>;
  /** The server's own time in the handler of each request of `requests` (ciRoutes/requestTimings). */
  serverRequests: Record<RequestKind, Figure>;
  /** The same for `warmRequests`. */
  warmServerRequests: Record<InteractiveKind, Figure>;
  /** The interactive kinds' cold round trips over the target's 2 ms, and where most of each went (see SlowRoundTrips). */
  coldSlowTrips?: SlowRoundTrips;
  /** Which request was the slowest: its kind, phase and rank among all (e.g. `symbols, cold #3612 of 3800`). */
  slowestRequest?: string;
  /** The slowest request of any kind after the first analysis, warm or cold. */
  maxRequest: Figure;
  rss: Figure;
  /** RSS once the server was left alone after the edits (see idleRss); absent where the plan does not measure it. */
  rssIdle?: Figure;
  peakRss: Figure;
  /** What the server answered, to show the bench measured real work. */
  checks: string[];
  /** Diagnostics published on open for the route file. */
  diagnostics?: number;
  failure?: string;
}

/** The settings the bench's client answers to `workspace/configuration` (section ciRoutes). */
export const BENCH_SETTINGS = { maxFileSize: 16 * 1024 * 1024, maxSteps: 50_000_000 };

const NOT_REACHED = 'not reached: an earlier step of this size timed out';
const skipped = (why: string): Figure => figure([], 'skipped', why);

/**
 * Starts one server on `ws.folder`, waits for its workspace index, opens the route file (and
 * re-opens it), opens the probe controller and a view, reads the RSS, times the requests, then
 * the one-character edits. Every wait has a timeout taken from the session's budget; when one
 * expires the server is killed and what was not measured is marked 'timeout' or 'skipped'.
 */
export async function runSession(root: string, ws: SizeWorkspace, plan: SessionPlan): Promise<SessionResult> {
  const started = now();
  const left = (): number => plan.budgetMs - (now() - started);
  const routeUri = pathToFileURL(ws.routeFile).toString();
  const probeUri = pathToFileURL(ws.probeFile).toString();
  const routeText = ws.plan.text;
  const result: SessionResult = {
    index: skipped(NOT_REACHED),
    open: skipped(NOT_REACHED),
    openComplete: skipped(NOT_REACHED),
    editServer: skipped(NOT_REACHED),
    editE2e: skipped(NOT_REACHED),
    editSpread: skipped(NOT_REACHED),
    typing: skipped(NOT_REACHED),
    editSymbols: skipped(NOT_REACHED),
    ...(ws.moduleEdit ? { moduleEditE2e: skipped(NOT_REACHED), moduleEditServer: skipped(NOT_REACHED) } : {}),
    requests: { hover: skipped(NOT_REACHED), completion: skipped(NOT_REACHED), definition: skipped(NOT_REACHED), symbols: skipped(NOT_REACHED) },
    warmRequests: { hover: skipped(NOT_REACHED), completion: skipped(NOT_REACHED), definition: skipped(NOT_REACHED) },
    serverRequests: { hover: skipped(NOT_REACHED), completion: skipped(NOT_REACHED), definition: skipped(NOT_REACHED), symbols: skipped(NOT_REACHED) },
    warmServerRequests: { hover: skipped(NOT_REACHED), completion: skipped(NOT_REACHED), definition: skipped(NOT_REACHED) },
    maxRequest: skipped(NOT_REACHED),
    rss: skipped(NOT_REACHED),
    ...(plan.idleMs > 0 ? { rssIdle: skipped(NOT_REACHED) } : {}),
    peakRss: skipped(NOT_REACHED),
    checks: [],
  };
  const driver = new LspDriver(root, BENCH_SETTINGS);
  let version = 1;
  // Every request after the first analysis counts towards the slowest.
  let answeredCount = 0;
  let slowest: { ms: number; what: string } | undefined;
  const answered = (kind: RequestKind, phase: string) => (ms: number) => {
    answeredCount++;
    if (!slowest || ms > slowest.ms) slowest = { ms, what: `${kind}, ${phase} #${answeredCount}` };
  };
  try {
    await driver.initialize(ws.folder, Math.min(30_000, left()));
    try {
      const idx = await driver.indexWorkspace(left() * 0.6);
      result.index = figure([idx.clientMs]);
      result.indexServerMs = idx.serverMs;
    } catch (e) {
      result.index = figure([], 'timeout', (e as Error).message);
      throw e;
    }

    // Open → first diagnostics, and → all of them; re-opened (close, open) while the budget allows.
    const opens: number[] = [];
    const completes: number[] = [];
    const opened = (o: { ms: number; completeMs?: number }) => {
      opens.push(o.ms);
      if (o.completeMs !== undefined) completes.push(o.completeMs);
    };
    try {
      const first = await driver.open(ws.routeFile, routeText, version, left() - 1000, true);
      opened(first);
      result.diagnostics = first.diagnostics;
    } catch (e) {
      result.open = figure([], 'timeout', (e as Error).message);
      throw e;
    }
    const openBudgetEnd = now() + left() * 0.25;
    while (opens.length < plan.openReps && now() + 2.5 * Math.max(...opens, ...completes) < openBudgetEnd) {
      await driver.close(ws.routeFile, left() - 1000);
      version++;
      opened(await driver.open(ws.routeFile, routeText, version, left() - 1000, true));
    }
    const partial = opens.length < plan.openReps ? `${opens.length} of ${plan.openReps} opens within the budget` : undefined;
    result.open = figure(opens, partial ? 'partial' : 'ok', partial);
    result.openComplete = completes.length ? figure(completes, partial ? 'partial' : 'ok', partial) : figure([], 'n/a', 'the server reports no timing (ciRoutes/analysisTiming)');

    // Everything else an editor would have open: the probe controller and a view.
    await driver.open(ws.probeFile, ws.probeText, 1, left() - 1000);
    const view = path.join(ws.folder, 'application', 'views', 'section_0', 'index.php');
    await driver.open(view, fs.readFileSync(view, 'utf8'), 1, left() - 1000);
    const mem = driver.memory();
    result.rss = mem.rssMb === undefined ? figure([], 'n/a', 'no /proc/<pid>/status') : figure([mem.rssMb]);

    // Requests, each kind in turn, repeated within its share of the budget.
    const kinds: Record<RequestKind, [string, unknown, (r: unknown) => string]> = {
      hover: ['textDocument/hover', { textDocument: { uri: routeUri }, position: ws.plan.hover }, (r) => describeHover(r)],
      completion: ['textDocument/completion', { textDocument: { uri: probeUri }, position: ws.completion }, (r) => describeCompletion(r, ws.plan.probeName)],
      definition: ['textDocument/definition', { textDocument: { uri: probeUri }, position: ws.definition }, (r) => describeDefinition(r)],
      symbols: ['textDocument/documentSymbol', { textDocument: { uri: routeUri } }, (r) => `documentSymbol: ${Array.isArray(r) ? r.length : 0} top-level symbols`],
    };
    const requestPhaseEnd = now() + left() * 0.4;
    const timeoutMs = () => Math.max(1000, Math.min(20_000, left() - 1000));
    const coldSlow: (SlowRoundTrips | undefined)[] = [];
    for (const [i, kind] of REQUEST_KINDS.entries()) {
      const [method, params, describe] = kinds[kind];
      const end = now() + (requestPhaseEnd - now()) / (REQUEST_KINDS.length - i);
      const request = (reps: number) => ({ method, params, reps, end, timeoutMs });
      const interactive = (INTERACTIVE_KINDS as readonly RequestKind[]).includes(kind);
      let phase: 'cold' | 'warm-up' | 'warm' = 'cold';
      const cold: number[] = [];
      const warm: number[] = [];
      // What the server says of the phase just timed (read between phases, never during one).
      const serverTimings = async (): Promise<MethodTimings | undefined> => (await driver.serverRequestTimes(timeoutMs()))[method];
      const handlerTimes = (timings: MethodTimings | undefined): Figure =>
        timings?.ms.length ? figure(timings.ms) : figure([], 'n/a', 'the server reports no request timings (ciRoutes/requestTimings)');
      try {
        await serverTimings();
        const coldTrips: TimedTrip[] = [];
        result.requests[kind] = await timeRequests(driver, request(plan.requestReps), cold, (ms, r, sentAt) => {
          answered(kind, 'cold')(ms);
          coldTrips.push({ ms, sentAt });
          if (cold.length === 1) result.checks.push(describe(r));
        });
        const coldServer = await serverTimings();
        result.serverRequests[kind] = handlerTimes(coldServer);
        if (interactive) coldSlow.push(slowRoundTrips(coldTrips, coldServer, SLOW_TRIP_MS));
        if (!interactive) continue;
        phase = 'warm-up';
        await timeRequests(driver, request(plan.warmupReps), [], answered(kind, 'warm-up'));
        await serverTimings();
        phase = 'warm';
        result.warmRequests[kind as InteractiveKind] = await timeRequests(driver, request(plan.requestReps), warm, answered(kind, 'warm'));
        result.warmServerRequests[kind as InteractiveKind] = handlerTimes(await serverTimings());
      } catch (e) {
        const why = (e as Error).message;
        if (phase === 'cold') result.requests[kind] = figure(cold, 'timeout', why);
        else result.warmRequests[kind as InteractiveKind] = figure(warm, 'timeout', why);
        throw e;
      }
    }
    result.coldSlowTrips = combineSlow(coldSlow);

    // One-character edits in the middle of the route file, alternately 'z' and the original.
    const e2e: number[] = [];
    const server: number[] = [];
    const parts: { parseMs: number[]; evaluateMs: number[]; analyseMs: number[] } = { parseMs: [], evaluateMs: [], analyseMs: [] };
    let editsFailed: string | undefined;
    try {
      while (e2e.length < plan.editReps && (e2e.length === 0 || 1.5 * Math.max(...e2e.slice(-3)) < left() - 1500)) {
        version++;
        const char = e2e.length % 2 === 0 ? 'z' : ws.plan.edit.original;
        const r = await driver.edit(ws.routeFile, version, ws.plan.edit, char, left() - 1000);
        e2e.push(r.e2eMs);
        if (r.server) {
          server.push(r.server.totalMs);
          for (const k of ['parseMs', 'evaluateMs', 'analyseMs'] as const) if (typeof r.server[k] === 'number') parts[k].push(r.server[k] as number);
        }
      }
      result.editE2e = budgeted(e2e, plan.editReps, 'edits');
    } catch (e) {
      editsFailed = (e as Error).message;
      result.editE2e = figure(e2e, e2e.length ? 'partial' : 'timeout', editsFailed);
      throw e;
    } finally {
      if (server.length) result.editServerParts = { parseMs: median(parts.parseMs), evaluateMs: median(parts.evaluateMs), analyseMs: median(parts.analyseMs) };
      result.editServer = editServerFigure(server, e2e.length, plan.editReps, editsFailed);
    }
    // Edit, then at once the outline: what the user waits for before the outline shows the change.
    const symbolTrips: number[] = [];
    const symbolReps = Math.max(1, Math.ceil(plan.editReps / 3));
    while (symbolTrips.length < symbolReps && (symbolTrips.length === 0 || 2 * Math.max(...symbolTrips.slice(-3)) < left() - 1500)) {
      version++;
      const char = symbolTrips.length % 2 === 0 ? 'z' : ws.plan.edit.original;
      const r = await driver.editThenRequest(ws.routeFile, version, ws.plan.edit, char, 'textDocument/documentSymbol', left() - 1000);
      symbolTrips.push(r.ms);
      if (symbolTrips.length === 1) result.checks.push(`documentSymbol after an edit: ${Array.isArray(r.result) ? r.result.length : 0} top-level symbols`);
    }
    if (symbolTrips.length % 2 === 1) {
      // Back to the original text for the edits that follow.
      version++;
      await driver.edit(ws.routeFile, version, ws.plan.edit, ws.plan.edit.original, left() - 1000);
    }
    result.editSymbols = budgeted(symbolTrips, symbolReps, 'edits');
    const typing = await typeAndErase(driver, ws, plan.keystrokes, version, () => left() - 1000);
    result.typing = typing.figure;
    version = typing.version;
    const spread = await spreadEdits(driver, ws, plan.spreadEditReps, version, () => left() - 1000);
    result.editSpread = spread.figure;
    version = spread.version;
    if (ws.moduleEdit) {
      // A module's routes file: opened, then edited at one of its keys, alternately 'z' and back.
      const me = ws.moduleEdit;
      await driver.open(me.file, me.text, 1, left() - 1000, true);
      const e2e: number[] = [];
      const server: number[] = [];
      const reps = Math.max(1, Math.ceil(plan.editReps / 3));
      let v = 1;
      while (e2e.length < reps && (e2e.length === 0 || 1.5 * Math.max(...e2e.slice(-3)) < left() - 1500)) {
        v++;
        const r = await driver.edit(me.file, v, me.edit, e2e.length % 2 === 0 ? 'z' : me.edit.original, left() - 1000);
        e2e.push(r.e2eMs);
        if (r.server) server.push(r.server.totalMs);
      }
      result.moduleEditE2e = budgeted(e2e, reps, 'edits');
      result.moduleEditServer = editServerFigure(server, e2e.length, reps, undefined);
    }
    if (plan.idleMs > 0) result.rssIdle = await idleRss(driver, Math.min(plan.idleMs, left() - 3000));
  } catch (e) {
    if (!(e instanceof TimeoutError) && !(e instanceof ServerExitedError)) throw e;
    result.failure = (e as Error).message.split('\n')[0];
    const mem = driver.memory();
    if (mem.peakMb !== undefined) result.peakRss = figure([mem.peakMb], 'partial', 'the peak until the server was stopped');
    driver.kill();
  } finally {
    const mem = driver.memory();
    if (mem.peakMb !== undefined && !result.failure) result.peakRss = figure([mem.peakMb]);
    result.maxRequest = slowest ? figure([slowest.ms], result.failure ? 'partial' : 'ok') : skipped('no request answered');
    if (slowest) result.slowestRequest = `${slowest.what} of ${answeredCount}`;
    await driver.stop();
  }
  return result;
}

function describeHover(r: unknown): string {
  const value = (r as { contents?: { value?: string } } | null)?.contents?.value ?? '';
  const first = value.split('\n')[0].replace(/[*`]/g, '');
  return `hover: ${first ? `"${first.slice(0, 60)}"` : 'nothing'}`;
}

function describeCompletion(r: unknown, expected: string): string {
  const items = (Array.isArray(r) ? r : ((r as { items?: unknown[] } | null)?.items ?? [])) as { label?: string }[];
  // An incomplete list holds the first matches only: the editor asks again as the user types.
  const incomplete = !Array.isArray(r) && (r as { isIncomplete?: boolean } | null)?.isIncomplete === true;
  if (incomplete) return `completion: ${items.length} items, incomplete (the rest as the user types)`;
  return `completion: ${items.length} items${items.some((i) => i.label === expected) ? `, '${expected}' among them` : `, '${expected}' MISSING`}`;
}

function describeDefinition(r: unknown): string {
  const list = (Array.isArray(r) ? r : r ? [r] : []) as { uri?: string; range?: { start: { line: number } } }[];
  const first = list[0];
  return `definition: ${first?.uri ? `${path.basename(path.dirname(first.uri))}/${path.basename(first.uri)}:${(first.range?.start.line ?? 0) + 1}` : 'nothing'}`;
}

/** The server's edit times, saying why there are fewer than planned: the edits failed, the server left some untimed, or the budget ran out. */
export function editServerFigure(server: number[], edits: number, planned: number, failed: string | undefined): Figure {
  if (!server.length) return edits ? figure([], 'n/a', 'the server reports no timing (ciRoutes/analysisTiming or data.timings)') : skipped('no edit completed');
  if (failed) return figure(server, 'partial', failed);
  if (server.length < edits) return figure(server, 'partial', `${server.length} of ${edits} edits reported the server's time`);
  return budgeted(server, planned, 'edits');
}
