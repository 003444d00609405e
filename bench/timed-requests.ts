import type { LspDriver } from './lsp-driver';
import { budgeted, now, type Figure } from './stats';

/**
 * Times up to `reps` requests one after another into `samples` (the caller's, so that it keeps
 * them if one times out). The first is always sent; another only while twice the slowest so far
 * fits before `end`. `after` sees every answer, and when its request was sent.
 */
export async function timeRequests(
  driver: LspDriver,
  request: { method: string; params: unknown; reps: number; end: number; timeoutMs: () => number },
  samples: number[] = [],
  after?: (ms: number, result: unknown, sentAt: number) => void,
): Promise<Figure> {
  const { method, params, reps, end, timeoutMs } = request;
  while (samples.length < reps && (samples.length === 0 || now() + 2 * Math.max(...samples) < end)) {
    const r = await driver.request<unknown>(method, params, timeoutMs());
    samples.push(r.ms);
    after?.(r.ms, r.result, r.sentAt);
  }
  return budgeted(samples, reps, 'requests');
}
