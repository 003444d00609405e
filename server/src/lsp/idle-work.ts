import type { Steps } from '../../../shared/util/steps';
import { realTimers } from './scheduler';

/** How IdleWork waits for a quiet period (tests pass their own clock). */
export interface QuietTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMER: QuietTimer = {
  set: (run, ms) => realTimers.after(ms, run, true),
  clear: (handle) => realTimers.cancel(handle),
};

/**
 * Work for when the server has nothing else to do, one job per document, run in slices short
 * enough that a request arriving meanwhile waits at most one slice. Jobs start once nothing was
 * started for `quietMs` (while the user types, every version is replaced before its work would
 * be read, and the slices would only delay the next edit's analysis). A job a newer version made
 * useless is cancelled by whoever knows (an edit, a close).
 */
export class IdleWork {
  private readonly jobs = new Map<string, Steps<void>>();
  private scheduled = false;
  private quiet: unknown;

  constructor(
    private readonly sliceMs: number,
    /** True while more urgent work is queued: idle work waits for it. */
    private readonly busy: () => boolean,
    private readonly onError: (uri: string, error: unknown) => void,
    private readonly quietMs = 0,
    private readonly timer: QuietTimer = REAL_TIMER,
  ) {}

  start(uri: string, job: Steps<void>): void {
    this.cancel(uri);
    this.jobs.set(uri, job);
    if (this.quietMs <= 0) {
      this.schedule();
      return;
    }
    if (this.quiet !== undefined) this.timer.clear(this.quiet);
    this.quiet = this.timer.set(() => {
      this.quiet = undefined;
      this.schedule();
    }, this.quietMs);
  }

  cancel(uri: string): void {
    const job = this.jobs.get(uri);
    if (!job) return;
    this.jobs.delete(uri);
    job.return();
  }

  clear(): void {
    for (const uri of [...this.jobs.keys()]) this.cancel(uri);
  }

  /** Whether a job is queued for the document (for tests and logs). */
  pending(uri: string): boolean {
    return this.jobs.has(uri);
  }

  private schedule(): void {
    if (this.scheduled || this.quiet !== undefined || this.jobs.size === 0) return;
    this.scheduled = true;
    realTimers.soon(() => this.slice());
  }

  private slice(): void {
    this.scheduled = false;
    if (!this.busy()) {
      const end = performance.now() + this.sliceMs;
      for (const [uri, job] of this.jobs) {
        let done = false;
        try {
          while (!(done = job.next().done === true) && performance.now() < end);
        } catch (e) {
          done = true;
          this.onError(uri, e);
        }
        if (done) this.jobs.delete(uri);
        if (performance.now() >= end) break;
      }
    }
    this.schedule();
  }
}
