import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive before
 * collecting again: 1.5×, set at start-up (it is read at every collection, and V8 options cannot
 * be given through NODE_OPTIONS, so every launcher gets it, the installed command too). By
 * default V8 picks a factor of up to 4× from how fast it collects: an editor's edits of a large
 * route file leave a few tens of MB of garbage each, and the RSS climbed from 380 to 900 MB
 * before the first full collection (context-heavy mix, 10,000 declarations). With 1.5×, peak
 * RSS in `npm run bench` (two runs each): bonfire 154 → 127 MB at 1,000 declarations and
 * 358–385 → 236 MB at 10,000; one-per-line 158 → 129 and 325 → 242; app 149 → 128 and 384 → 331;
 * context-heavy 10,000 932 → 552. Edit and request times stayed within the runs' noise; 1.2×
 * cut more (433 MB for context-heavy) but slowed the outline's round trip by up to 80%.
 * A command line that sets `--heap-growing-percent` itself wins.
 */
export const HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
