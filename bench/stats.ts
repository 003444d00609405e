/**
 * A measured figure: samples (ms, or MB for memory) or why there are none.
 * `status` says how the measurement ended: all repetitions done ('ok'), stopped early by its time
 * budget with some samples ('partial'), no sample within the budget ('timeout'), not run
 * ('skipped', e.g. an earlier step of the same size timed out), or not measurable here ('n/a').
 */
export interface Figure {
  samples: number[];
  status: 'ok' | 'partial' | 'timeout' | 'skipped' | 'n/a';
  /** Why the status is not 'ok' (shown in notes). */
  note?: string;
}

export const figure = (samples: number[] = [], status: Figure['status'] = 'ok', note?: string): Figure => ({ samples, status, ...(note ? { note } : {}) });

/** `samples` of `planned` repetitions of `what` (e.g. `edits`): 'partial', saying how many, when the budget cut them short. */
export function budgeted(samples: number[], planned: number, what: string): Figure {
  return samples.length < planned ? figure(samples, 'partial', `${samples.length} of ${planned} ${what} within the budget`) : figure(samples);
}

export function median(samples: readonly number[]): number | undefined {
  if (samples.length === 0) return undefined;
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile: with fewer than 100 samples, p99 is the maximum. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const s = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1];
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export const now = (): number => performance.now();
