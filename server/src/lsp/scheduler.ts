/**
 * When work runs. This file is the only one in the server that sets timers: the rest asks the
 * Scheduler (or takes `realTimers`, which tests replace), so every deferred piece of work comes
 * back to the main loop as an event and nothing runs behind its back.
 */

export type TimerHandle = unknown;

/** The event loop's timers, as the server's parts use them. */
export interface Timers {
  /** Runs `run` after `ms` (a timer that does not keep the process alive when `weak`). */
  after(ms: number, run: () => void, weak?: boolean): TimerHandle;
  cancel(handle: TimerHandle): void;
  /** Runs `run` on the next turn of the event loop, after the messages already received. */
  soon(run: () => void): void;
  /** Resolves on the next turn (async work yields with it). */
  nextTurn(): Promise<void>;
}

export const realTimers: Timers = {
  after: (ms, run, weak) => {
    const t = setTimeout(run, ms);
    return weak ? t.unref() : t;
  },
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
  soon: (run) => void setImmediate(run),
  nextTurn: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

/** Work that waits for typing to pause, once however many times it was asked for meanwhile. */
export type Deferred = { kind: 'namesDue' } | { kind: 'moduleKeysDue'; appDir: string } | { kind: 'mainRoutesDue'; appDir: string } | { kind: 'routesChangedDue' };

/** What the scheduler hands back to the loop when it is due. */
export type Due = { kind: 'debounceElapsed'; uri: string } | { kind: 'analysisTurn'; uri: string } | Deferred;

function keyOf(task: Deferred): string {
  return 'appDir' in task ? `${task.kind}:${task.appDir}` : task.kind;
}

/**
 * The server's timers: each document's debounce, the coalesced deferred work, and the backlog of
 * documents waiting for an analysis step, served one per turn of the event loop so that requests
 * arriving meanwhile wait for one step at most, not for every open document (timers due together
 * would otherwise run back to back).
 */
export class Scheduler {
  private readonly debounces = new Map<string, TimerHandle>();
  private readonly deferred = new Map<string, TimerHandle>();
  private readonly backlog = new Set<string>();
  private draining = false;

  constructor(
    private readonly due: (event: Due) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  /** The document's analysis is due in `ms` (a later call replaces an earlier one). */
  debounce(uri: string, ms: number): void {
    this.cancelDebounce(uri);
    this.debounces.set(
      uri,
      this.timers.after(ms, () => {
        this.debounces.delete(uri);
        this.due({ kind: 'debounceElapsed', uri });
      }),
    );
  }

  /** Whether the document waits for typing to pause. */
  debouncing(uri: string): boolean {
    return this.debounces.has(uri);
  }

  cancelDebounce(uri: string): void {
    const t = this.debounces.get(uri);
    if (t !== undefined) this.timers.cancel(t);
    this.debounces.delete(uri);
  }

  /** `task` is due in `ms`, once for every call made before then. */
  defer(task: Deferred, ms: number): void {
    const key = keyOf(task);
    const t = this.deferred.get(key);
    if (t !== undefined) this.timers.cancel(t);
    this.deferred.set(
      key,
      this.timers.after(ms, () => {
        this.deferred.delete(key);
        this.due(task);
      }),
    );
  }

  /** The document gets an analysis turn (once, however often it is queued before that). */
  enqueue(uri: string): void {
    this.backlog.add(uri);
    if (this.draining) return;
    this.draining = true;
    this.timers.soon(this.turn);
  }

  /** Whether documents wait for an analysis turn (idle work waits for them). */
  busy(): boolean {
    return this.backlog.size > 0;
  }

  /** Forgets everything pending (shutdown). */
  clear(): void {
    for (const t of [...this.debounces.values(), ...this.deferred.values()]) this.timers.cancel(t);
    this.debounces.clear();
    this.deferred.clear();
    this.backlog.clear();
  }

  private readonly turn = (): void => {
    const next = this.backlog.values().next();
    if (next.done) {
      this.draining = false;
      return;
    }
    this.backlog.delete(next.value);
    try {
      this.due({ kind: 'analysisTurn', uri: next.value });
    } finally {
      // Even after a failure: the other documents still get their turns.
      this.timers.soon(this.turn);
    }
  };
}
