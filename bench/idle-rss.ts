import type { LspDriver } from './lsp-driver';
import { figure, now, type Figure } from './stats';

/** How long RSS must hold still (no fall of 1 MB or more) to count as settled. */
const STILL_MS = 20_000;
const POLL_MS = 500;

/**
 * The server's RSS once it has been left alone: V8 gives memory back only after a few seconds
 * of low allocation (its memory reducer), so the reading right after the opens is not what a
 * server holds while the user reads. Polls until RSS has not fallen for 20 s, or `maxMs`.
 */
export async function idleRss(driver: LspDriver, maxMs: number): Promise<Figure> {
  const started = now();
  let low = driver.memory().rssMb;
  if (low === undefined) return figure([], 'n/a', 'no /proc/<pid>/status');
  let lastFall = started;
  while (now() - lastFall < STILL_MS && now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const rss = driver.memory().rssMb;
    if (rss === undefined) break;
    if (rss <= low - 1) lastFall = now();
    low = Math.min(low, rss);
  }
  const waited = (now() - started) / 1000;
  const settled = now() - lastFall >= STILL_MS;
  return figure([low], settled ? 'ok' : 'partial', `${settled ? 'settled' : 'still falling'} after ${waited.toFixed(0)} s without requests`);
}
