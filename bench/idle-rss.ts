import type { LspDriver } from './lsp-driver';
import { figure, now, type Figure } from './stats';

const POLL_MS = 500;

/**
 * The server's lowest RSS while it is left alone for `windowMs`: V8 gives memory back only after
 * seconds of low allocation (its memory reducer), so the reading right after the opens or the
 * edits is not what a server holds while the user reads. A fixed window rather than "until RSS
 * holds still": after 60 edits of the 10,000-declaration file the drop came 17–25 s after the
 * last edit, and a run that stopped after 20 s without a fall reported the RSS of the edits.
 */
export async function idleRss(driver: LspDriver, windowMs: number): Promise<Figure> {
  const started = now();
  const first = driver.memory().rssMb;
  if (first === undefined) return figure([], 'n/a', 'no /proc/<pid>/status');
  let low = first;
  while (now() - started < windowMs) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const rss = driver.memory().rssMb;
    if (rss === undefined) break;
    low = Math.min(low, rss);
  }
  const waited = (now() - started) / 1000;
  return figure([low], 'ok', `lowest in ${waited.toFixed(0)} s without requests; ${first.toFixed(1)} MB right after the edits`);
}
