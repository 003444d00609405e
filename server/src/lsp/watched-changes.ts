import { realTimers, type TimerHandle, type Timers } from './scheduler';

/** What happened to a file on disk, as a file watcher says (the protocol's FileChangeType). */
export interface FileChange {
  readonly file: string;
  readonly uri: string;
  /** 1 created, 2 changed, 3 deleted. */
  readonly type: number;
}

/** What following one file's changes did. */
export type Followed = 'route file read' | 'other file' | 'open';

export interface FollowedSummary {
  events: number;
  files: number;
  routeFilesRead: number;
}

/**
 * File-watcher events, coalesced. A burst (a checkout, a build, a client sending the same event
 * 2,000 times) used to cost one evaluation per event: 2,000 events for one route file took 105 s.
 * Events are kept per file, the last one winning (the disk is read when they are followed), and
 * followed once the notifications pause for `quietMs` (or a second after the first, so that a
 * steady stream is still followed): one file per turn of the event loop, so requests are answered
 * in between, then `followed` once for the whole batch.
 */
export class WatchedChanges {
  private pending = new Map<string, FileChange>();
  private events = 0;
  private firstAt = 0;
  private timer: TimerHandle | undefined;
  private following = false;

  constructor(
    private readonly follow: (change: FileChange) => Followed,
    private readonly followed: (summary: FollowedSummary) => void,
    private readonly onError: (e: unknown) => void,
    /** How long notifications must pause (ms); a steady stream is followed at least every max(1 s, this). */
    public quietMs = 100,
    private readonly timers: Timers = realTimers,
  ) {}

  add(changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    if (this.pending.size === 0 && this.events === 0) this.firstAt = performance.now();
    for (const change of changes) {
      this.pending.delete(change.file); // the latest event decides, and its file is followed last
      this.pending.set(change.file, change);
    }
    this.events += changes.length;
    this.schedule();
  }

  /** Forgets what is pending (shutdown). */
  clear(): void {
    if (this.timer !== undefined) this.timers.cancel(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.events = 0;
  }

  private schedule(): void {
    if (this.following) return; // the batch under way schedules the next when it is done
    if (this.timer !== undefined) this.timers.cancel(this.timer);
    const waited = performance.now() - this.firstAt;
    this.timer = this.timers.after(Math.max(0, Math.min(this.quietMs, Math.max(1000, this.quietMs) - waited)), () => this.start());
  }

  private start(): void {
    this.timer = undefined;
    const batch = [...this.pending.values()];
    const summary: FollowedSummary = { events: this.events, files: batch.length, routeFilesRead: 0 };
    this.pending = new Map();
    this.events = 0;
    this.following = true;
    const next = (i: number) => {
      if (i < batch.length) {
        try {
          if (this.follow(batch[i]) === 'route file read') summary.routeFilesRead++;
        } catch (e) {
          this.onError(e);
        }
        this.timers.soon(() => next(i + 1));
        return;
      }
      this.following = false;
      this.followed(summary);
      if (this.pending.size) {
        this.firstAt = performance.now();
        this.schedule();
      }
    };
    next(0);
  }
}
