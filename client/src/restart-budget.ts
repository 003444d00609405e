/** How long restarts are remembered when counting them. */
export const RESTART_WINDOW_MS = 3 * 60_000;
/** Restarts allowed within RESTART_WINDOW_MS; one more stop and the server is left stopped. */
export const MAX_RESTARTS = 5;

/**
 * The back-off for restarting a server that stopped (crashed, or was stopped for not answering):
 * 1 s, 2 s, 4 s, 8 s, 16 s, and no restart once MAX_RESTARTS fell within RESTART_WINDOW_MS, so a
 * broken server cannot spin the CPU. Pure: the clock is injected.
 */
export class RestartBudget {
  private stops: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a stop; answers the delay before restarting, or undefined to give up. */
  next(): number | undefined {
    const now = this.now();
    this.stops = this.stops.filter((t) => now - t < RESTART_WINDOW_MS);
    this.stops.push(now);
    if (this.stops.length > MAX_RESTARTS) return undefined;
    return 1000 * 2 ** (this.stops.length - 1);
  }

  /** Stops counted within the window (the last one included). */
  get recent(): number {
    return this.stops.length;
  }
}
