import type { Steps } from '../../../shared/util/steps';

/**
 * Work for when the server has nothing else to do, one job per document, run in slices short
 * enough that a request arriving meanwhile waits at most one slice. A job a newer version made
 * useless is cancelled by whoever knows (an edit, a close).
 */
export class IdleWork {
  private readonly jobs = new Map<string, Steps<void>>();
  private scheduled = false;

  constructor(
    private readonly sliceMs: number,
    /** True while more urgent work is queued: idle work waits for it. */
    private readonly busy: () => boolean,
    private readonly onError: (uri: string, error: unknown) => void,
  ) {}

  start(uri: string, job: Steps<void>): void {
    this.cancel(uri);
    this.jobs.set(uri, job);
    this.schedule();
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
    if (this.scheduled || this.jobs.size === 0) return;
    this.scheduled = true;
    setImmediate(() => this.slice());
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
