import * as os from 'node:os';
import * as path from 'node:path';
import { LspDriver, ServerExitedError, TimeoutError } from './lsp-driver';
import { figure, now, type Figure } from './stats';
import { timeRequests } from './timed-requests';
import { SLOW_TRIP_MS, slowRoundTrips, type SlowRoundTrips, type TimedTrip } from './slow-round-trips';

/** Cold: the first `reps` requests of a fresh server; warm: `reps` more after `warmupReps` untimed. */
export interface RequestFigures {
  cold: Figure;
  warm: Figure;
  /** The cold round trips over the target's 2 ms, and where most of each went. */
  coldSlowTrips?: SlowRoundTrips;
  /** The no-op server's RSS after those requests: what a Node language server on the same libraries holds doing nothing. */
  rss: Figure;
}

/**
 * The floor of a request's round trip on this machine: a language server built on the same
 * libraries and transport that does no work (noop-server.ts), answering hovers as many times as
 * the session asks ci-routes. Its p99 is what a fresh Node process and its JIT cost before any
 * analysis is done.
 */
export async function noopFloor(root: string, reps: number, warmupReps: number, budgetMs: number): Promise<RequestFigures> {
  const end = now() + budgetMs;
  const left = () => Math.max(1000, end - now());
  const driver = new LspDriver(root, {}, path.join(root, 'out', 'bench', 'noop-server.js'));
  const params = { textDocument: { uri: 'file:///routes.php' }, position: { line: 0, character: 0 } };
  const hover = (n: number) => ({ method: 'textDocument/hover', params, reps: n, end, timeoutMs: left });
  const result: RequestFigures = { cold: figure([], 'skipped', 'the no-op server did not answer'), warm: figure([], 'skipped', 'the no-op server did not answer'), rss: figure([], 'skipped', 'the no-op server did not answer') };
  try {
    await driver.initialize(os.tmpdir(), left());
    const coldTrips: TimedTrip[] = [];
    await driver.serverRequestTimes(left());
    result.cold = await timeRequests(driver, hover(reps), [], (ms, _, sentAt) => coldTrips.push({ ms, sentAt }));
    result.coldSlowTrips = slowRoundTrips(coldTrips, (await driver.serverRequestTimes(left()))['textDocument/hover'], SLOW_TRIP_MS);
    await timeRequests(driver, hover(warmupReps));
    result.warm = await timeRequests(driver, hover(reps));
    const rss = driver.memory().rssMb;
    result.rss = rss === undefined ? figure([], 'n/a', 'no /proc/<pid>/status') : figure([rss]);
  } catch (e) {
    if (!(e instanceof TimeoutError) && !(e instanceof ServerExitedError)) throw e;
    driver.kill();
  } finally {
    await driver.stop();
  }
  return result;
}
