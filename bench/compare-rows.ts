/**
 * bench:compare's figures: the samples of each server pair, pooled over the pairs, as ratios.
 *
 * One pair of server processes is not enough to judge a 10% difference: two processes of the
 * same code differ by up to 15% in sub-millisecond round trips and edit times for the whole of
 * their lives (where V8 happened to optimise, where the heap lies), however many samples each
 * gives. Fresh pairs, each measured alike, pool that difference with the rest of the noise.
 */
import { median } from './stats';

/** One figure of one server pair: this checkout's samples and the baseline's, pair by pair. */
export interface Row {
  what: string;
  mine: number[];
  theirs: number[];
  unit: string;
}

/** A figure over every server pair: all samples, and each pair's own paired ratio. */
export interface PooledRow extends Row {
  /** Per server pair, the median of its samples' ratios (its one sample's ratio for RSS, the index). */
  pairRatios: number[];
}

/** The rows of each server pair's run, pooled by figure, in the first run's order. */
export function poolRuns(runs: readonly (readonly Row[])[]): PooledRow[] {
  const pooled = new Map<string, PooledRow>();
  for (const rows of runs) {
    let parent = '';
    for (const row of rows) {
      // A breakdown (indented: `  of which analysis`) is its figure's: every kind of edit has one.
      if (!row.what.startsWith(' ')) parent = row.what;
      const key = row.what.startsWith(' ') ? `${parent}\n${row.what}` : row.what;
      let p = pooled.get(key);
      if (!p) pooled.set(key, (p = { what: row.what, unit: row.unit, mine: [], theirs: [], pairRatios: [] }));
      p.mine.push(...row.mine);
      p.theirs.push(...row.theirs);
      const ratio = pairedRatio(row);
      if (ratio !== undefined) p.pairRatios.push(ratio);
    }
  }
  return [...pooled.values()];
}

/** The median of the samples' ratios, sample by sample. */
export function pairedRatio(row: Pick<Row, 'mine' | 'theirs'>): number | undefined {
  return median(row.mine.map((m, i) => m / row.theirs[i]).filter((r) => Number.isFinite(r)));
}

/** The ratio of the two medians. */
export function medianRatio(row: Pick<Row, 'mine' | 'theirs'>): number | undefined {
  const a = median(row.mine);
  const b = median(row.theirs);
  return a !== undefined && b ? a / b : undefined;
}

/**
 * The figures this checkout is slower in by more than `bound` (1.10: 10%), by both the ratio of
 * the medians and the paired ratio. Breakdowns (`  of which …`, indented) are left out: they
 * show where a figure's time went, and work moved between them is no regression.
 */
export function slowerThan(rows: readonly PooledRow[], bound: number): PooledRow[] {
  return rows.filter((r) => !r.what.startsWith(' ') && (medianRatio(r) ?? 0) > bound && (pairedRatio(r) ?? 0) > bound);
}

const fmt = (n: number | undefined, unit: string) => (n === undefined ? 'n/a' : `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')} ${unit}`);
const times = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(2)}×`);

/** The table of one workspace: `title`, then a line per figure (the pairs' spread when there are several). */
export function renderRows(title: string, rows: readonly PooledRow[], pairs: number): string {
  const spread = pairs > 1;
  const lines = [`${title}: this checkout / baseline (paired: the median of each sample pair's ratio${spread ? `; pairs: the lowest and highest of the ${pairs} server pairs' paired ratios` : ''})`];
  lines.push(`${'figure'.padEnd(48)}${'n'.padStart(5)}${'this'.padStart(12)}${'baseline'.padStart(12)}${'ratio'.padStart(9)}${'paired'.padStart(9)}${spread ? 'pairs'.padStart(14) : ''}`);
  for (const r of rows) {
    const range = r.pairRatios.length ? `${Math.min(...r.pairRatios).toFixed(2)}–${Math.max(...r.pairRatios).toFixed(2)}×` : 'n/a';
    lines.push(`${r.what.padEnd(48)}${String(r.mine.length).padStart(5)}${fmt(median(r.mine), r.unit).padStart(12)}${fmt(median(r.theirs), r.unit).padStart(12)}${times(medianRatio(r)).padStart(9)}${times(pairedRatio(r)).padStart(9)}${spread ? range.padStart(14) : ''}`);
  }
  return lines.join('\n');
}
