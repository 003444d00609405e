import { RequestType0, type Connection } from 'vscode-languageserver';

/** The interactive requests whose handling time is recorded, by the Connection method that registers each. */
const TIMED = { onHover: 'textDocument/hover', onCompletion: 'textDocument/completion', onDefinition: 'textDocument/definition', onDocumentSymbol: 'textDocument/documentSymbol' } as const;
type TimedRegistration = keyof typeof TIMED;

/** `ciRoutes/requestTimings`: the handling times recorded since the last call, by method (see RequestTimings). */
export const RequestTimingsRequest = new RequestType0<Record<string, number[]>, void>('ciRoutes/requestTimings');

/** Samples kept per method between two reads: a client that never reads them costs a bounded amount. */
const MAX_SAMPLES = 100_000;

/**
 * How long the server spent in each interactive request's handler (milliseconds), recorded only
 * when the client asks for it (`initializationOptions.requestTimings`) and read with
 * `ciRoutes/requestTimings`. The bench compares them with its round trips: what is left is the
 * transport, the client and the scheduling of two processes.
 */
export class RequestTimings {
  enabled = false;
  private samples = new Map<string, number[]>();

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
  take(): Record<string, number[]> {
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
        this.record(method, performance.now() - started);
      }
    };
  }

  private record(method: string, ms: number): void {
    let list = this.samples.get(method);
    if (!list) this.samples.set(method, (list = []));
    if (list.length < MAX_SAMPLES) list.push(ms);
  }
}
