import { RequestType0, type Connection } from 'vscode-languageserver';

/** The interactive requests whose handling time is recorded, by the Connection method that registers each. */
const TIMED = { onHover: 'textDocument/hover', onCompletion: 'textDocument/completion', onDefinition: 'textDocument/definition', onDocumentSymbol: 'textDocument/documentSymbol' } as const;
type TimedRegistration = keyof typeof TIMED;

/** One method's handled requests, in the order handled. */
export interface MethodTimings {
  /** How long each handler ran (milliseconds). */
  ms: number[];
  /**
   * When each handler started, in milliseconds since the epoch (`performance.timeOrigin` plus
   * `performance.now()`): comparable with the client's clock on the same machine, so that a
   * round trip can be split into before, in and after the handler.
   */
  startedAt: number[];
}

/** `ciRoutes/requestTimings`: what was recorded since the last call, by method (see RequestTimings). */
export const RequestTimingsRequest = new RequestType0<Record<string, MethodTimings>, void>('ciRoutes/requestTimings');

/** Samples kept per method between two reads: a client that never reads them costs a bounded amount. */
const MAX_SAMPLES = 100_000;

/**
 * How long the server spent in each interactive request's handler, and when it started, recorded
 * only when the client asks for it (`initializationOptions.requestTimings`) and read with
 * `ciRoutes/requestTimings`. The bench compares them with its round trips: what is left is the
 * transport, the client and the scheduling of two processes.
 */
export class RequestTimings {
  enabled = false;
  private samples = new Map<string, MethodTimings>();

  /** `connection` with the handlers of TIMED's requests timed; everything else untouched. */
  timing(connection: Connection): Connection {
    return new Proxy(connection, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || !(prop in TIMED) || typeof value !== 'function') return value;
        const method = TIMED[prop as TimedRegistration];
        const register = value as (handler: (...args: unknown[]) => unknown) => unknown;
        return (handler: (...args: unknown[]) => unknown) => register.call(target, this.timed(method, handler));
      },
    });
  }

  /** What was recorded since the last read, by method; forgotten once read. */
  take(): Record<string, MethodTimings> {
    const out = Object.fromEntries(this.samples);
    this.samples = new Map();
    return out;
  }

  private timed(method: string, handler: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    return (...args) => {
      if (!this.enabled) return handler(...args);
      const started = performance.now();
      try {
        return handler(...args);
      } finally {
        this.record(method, started, performance.now() - started);
      }
    };
  }

  private record(method: string, started: number, ms: number): void {
    let timings = this.samples.get(method);
    if (!timings) this.samples.set(method, (timings = { ms: [], startedAt: [] }));
    if (timings.ms.length >= MAX_SAMPLES) return;
    timings.ms.push(ms);
    timings.startedAt.push(performance.timeOrigin + started);
  }
}
