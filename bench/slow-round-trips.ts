import type { MethodTimings } from '../server/src/lsp/request-timings';

/** The p99 target of interactive requests: slower round trips are split into where their time went. */
export const SLOW_TRIP_MS = 2;

/** One request as the client timed it. */
export interface TimedTrip {
  /** Round trip, milliseconds. */
  ms: number;
  /** When it was sent, milliseconds since the epoch (the clock of the server's `startedAt`). */
  sentAt: number;
}

/**
 * The round trips slower than a threshold, each counted under the part of it that took longest:
 * before the server's handler started (the request written, read, parsed and dispatched: either
 * process may have waited for a CPU), in the handler, or after it (the answer serialised, written,
 * read and parsed by the client). Where a slow round trip's time goes tells a slow handler from a
 * busy machine.
 */
export interface SlowRoundTrips {
  thresholdMs: number;
  /** Round trips looked at. */
  of: number;
  /** Of those, slower than the threshold. */
  over: number;
  beforeHandler: number;
  inHandler: number;
  afterHandler: number;
}

/** Undefined when the server's timings do not pair one to one with the trips (a server that does not record them). */
export function slowRoundTrips(trips: readonly TimedTrip[], server: MethodTimings | undefined, thresholdMs: number): SlowRoundTrips | undefined {
  if (!server || server.ms.length !== trips.length || server.startedAt.length !== trips.length) return undefined;
  const out: SlowRoundTrips = { thresholdMs, of: trips.length, over: 0, beforeHandler: 0, inHandler: 0, afterHandler: 0 };
  trips.forEach((trip, i) => {
    if (trip.ms <= thresholdMs) return;
    out.over++;
    const before = server.startedAt[i] - trip.sentAt;
    const inHandler = server.ms[i];
    const after = trip.ms - before - inHandler;
    if (before >= inHandler && before >= after) out.beforeHandler++;
    else if (inHandler >= after) out.inHandler++;
    else out.afterHandler++;
  });
  return out;
}

/** Several kinds' counts as one (undefined when none was counted, or thresholds differ). */
export function combineSlow(parts: readonly (SlowRoundTrips | undefined)[]): SlowRoundTrips | undefined {
  const counted = parts.filter((p): p is SlowRoundTrips => p !== undefined);
  if (!counted.length || counted.some((p) => p.thresholdMs !== counted[0].thresholdMs)) return undefined;
  const sum = (k: 'of' | 'over' | 'beforeHandler' | 'inHandler' | 'afterHandler') => counted.reduce((n, p) => n + p[k], 0);
  return { thresholdMs: counted[0].thresholdMs, of: sum('of'), over: sum('over'), beforeHandler: sum('beforeHandler'), inHandler: sum('inHandler'), afterHandler: sum('afterHandler') };
}

/** E.g. `7 of 600 over 2 ms (most of each before the handler: 3, in it: 2, after it: 2)`. */
export function describeSlow(s: SlowRoundTrips): string {
  const head = `${s.over} of ${s.of} over ${s.thresholdMs} ms`;
  return s.over ? `${head} (most of each before the handler: ${s.beforeHandler}, in it: ${s.inHandler}, after it: ${s.afterHandler})` : head;
}
