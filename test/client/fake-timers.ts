import type { Timers } from '../../client/src/heartbeat';

/** A clock that moves only when told: timers run in due order as `advance` passes them. */
export class FakeTimers implements Timers {
  now = 0;
  private nextId = 1;
  private readonly due = new Map<number, { at: number; run: () => void }>();

  set(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.now + ms, run });
    return id;
  }

  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }

  get pending(): number {
    return this.due.size;
  }

  /** Moves the clock by `ms`, running each timer that falls due (and settling promises after each). */
  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; run: () => void }] | undefined;
      for (const entry of this.due) if (entry[1].at <= until && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.due.delete(next[0]);
      this.now = next[1].at;
      next[1].run();
    }
    this.now = until;
    await settle();
  }
}

/** Lets every promise callback already due run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
