/**
 * The heartbeat: notices a language server that stopped answering. Pure (no `vscode`, no LSP
 * types): the clock and the request are injected, so the policy is tested without either.
 */

/** The custom request the heartbeat sends; server/src/lsp/heartbeat.ts answers it at once. */
export const PING_METHOD = 'ciRoutes/ping';

export interface HeartbeatPolicy {
  /** Time from an answer to the next ping. */
  readonly intervalMs: number;
  /** How long a ping waits for its answer before it counts as missed (and another is sent). */
  readonly timeoutMs: number;
  /** Pings missed in a row that make the server hung. */
  readonly missesForHung: number;
}

/**
 * A ping every 10 s; hung after 3 pings in a row went 10 s each without an answer, that is 30 s
 * of silence. The server runs one event loop and analyses in 10 ms slices, so a healthy one
 * answers within milliseconds; a server starting up, collecting garbage on a huge file or
 * sharing two cores with a busy machine still answers within seconds. 30 s is far past any of
 * that, and short enough that a stuck server (an endless loop under a huge ciRoutes.maxSteps)
 * is restarted before the user gives up on the editor. A ping costs one small message.
 */
export const HEARTBEAT_POLICY: HeartbeatPolicy = { intervalMs: 10_000, timeoutMs: 10_000, missesForHung: 3 };

/** How long the server was silent when it is declared hung, under a policy. */
export function silenceBeforeHung(policy: HeartbeatPolicy): number {
  return policy.timeoutMs * policy.missesForHung;
}

/** What the user reads when the server is restarted for not answering (plain text). */
export function hungMessage(policy: HeartbeatPolicy): string {
  return `The CI Routes server stopped answering (${policy.missesForHung} pings unanswered for ${silenceBeforeHung(policy) / 1000} s, for example an endless loop in a route file under a very large ciRoutes.maxSteps). It is being stopped and restarted.`;
}

/** The timers the heartbeat uses: Node's, or a test's fake clock. */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const NODE_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Sends a ping every `intervalMs` while started. A ping unanswered after `timeoutMs` is missed
 * and another is sent at once (the first may still answer: any answer, even late, even an error,
 * shows the server's event loop turns and clears the count). After `missesForHung` misses in a
 * row it stops and calls `onHung` once; the owner restarts the server and starts it again.
 */
export class Heartbeat {
  private timer: unknown;
  /** Whether `timer` is a ping's timeout (rather than the wait for the next ping). */
  private awaitingAnswer = false;
  private misses = 0;
  /** Bumped by stop(): answers to pings sent before are ignored. */
  private run = 0;
  private started = false;

  constructor(
    private readonly ping: () => PromiseLike<unknown>,
    private readonly onHung: () => void,
    private readonly policy: HeartbeatPolicy = HEARTBEAT_POLICY,
    private readonly timers: Timers = NODE_TIMERS,
  ) {}

  get running(): boolean {
    return this.started;
  }

  /** Starts pinging (the first ping one interval from now); nothing if already started. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.misses = 0;
    this.schedule(false, this.policy.intervalMs);
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.run++;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  private schedule(awaitingAnswer: boolean, ms: number): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.awaitingAnswer = awaitingAnswer;
    this.timer = this.timers.set(() => (awaitingAnswer ? this.missed() : this.send()), ms);
  }

  private send(): void {
    const run = this.run;
    const answered = () => {
      if (run === this.run) this.answered();
    };
    this.schedule(true, this.policy.timeoutMs);
    let pending: PromiseLike<unknown>;
    try {
      pending = this.ping();
    } catch {
      return answered(); // the client refused to send (not running): not the server's silence
    }
    pending.then(answered, answered);
  }

  private answered(): void {
    this.misses = 0;
    // A late answer while the next ping waits: that one need not wait any more.
    if (this.awaitingAnswer) this.schedule(false, this.policy.intervalMs);
  }

  private missed(): void {
    this.misses++;
    if (this.misses < this.policy.missesForHung) return this.send();
    this.stop();
    this.onHung();
  }
}
