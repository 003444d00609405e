import { CancellationToken, type Connection, type Position } from 'vscode-languageserver';
import { uniqueCalls } from '../../../shared/analysis/model/declarations';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import type { Steps } from '../../../shared/util/steps';

/** The requests primed, by the Connection method that registers each. */
const PRIMED = { onHover: 'hover', onCompletion: 'completion', onDefinition: 'definition' } as const;
type PrimedRegistration = keyof typeof PRIMED;
type Handler = (params: unknown, token: CancellationToken) => unknown;

/**
 * The first hover, completion and definition a server answers took 1.3–4 ms in the bench at
 * 10,000 declarations and the next ones 0.05–0.4 ms: V8 compiles a function when it is first
 * called, and the first request ran all of its path for the first time. Once per process, at
 * the end of the first opening analysis (or, failing that, of a later one, when idle), the primer
 * asks each of those handlers about the analysed document (the first declaration's method name,
 * the first `named()` argument), and drops the answers, so that the user's first request is not
 * the one that pays. Completion and definition in `Route::named('` of a view or controller run
 * another path (the PHP file's usages, the workspace's names): they are primed once too, in the
 * first such file opened. A kind a client already asked for is warm, and left alone (a
 * completion answered is also what a later resolve reads).
 */
export class RequestPrimer {
  private readonly handlers = new Map<PrimedRegistration, Handler>();
  /** Kinds a client asked for, or primed in a route file. */
  private readonly warm = new Set<PrimedRegistration>();
  /** Kinds a client asked for (anywhere), or primed in a view or controller. */
  private readonly warmInPhp = new Set<PrimedRegistration>();

  /** `connection`, keeping the primed requests' handlers as they are registered (and noting each real request). */
  capture(connection: Connection): Connection {
    return new Proxy(connection, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || !(prop in PRIMED) || typeof value !== 'function') return value;
        const registration = prop as PrimedRegistration;
        return (handler: Handler) => {
          this.handlers.set(registration, handler);
          return (value as (h: Handler) => unknown).call(target, (params: unknown, token: CancellationToken) => {
            this.warm.add(registration);
            this.warmInPhp.add(registration);
            return handler(params, token);
          });
        };
      },
    });
  }

  /** Whether every handler registered is warm. */
  get done(): boolean {
    for (const registration of this.handlers.keys()) if (!this.warm.has(registration)) return false;
    return true;
  }

  /** Whether `Route::named('` in views and controllers is primed, or was asked about (see phpSteps). */
  get phpDone(): boolean {
    return PHP_PRIMED.every((registration) => !this.handlers.has(registration) || this.warmInPhp.has(registration));
  }

  /**
   * Asks completion and definition, unless warm, about `uri`, a view or controller, in the first
   * `Route::named()` argument (`position`, from its usages), a step each. Errors are dropped.
   */
  *phpSteps(uri: string, position: Position): Steps<void> {
    yield* this.ask(this.warmInPhp, uri, PHP_PRIMED.map((registration) => [registration, position] as const));
  }

  /**
   * Asks each handler not yet warm about `uri` (its analysed version: `text` and `evaluation`), a
   * step per request; a file without declarations leaves them for the next. Errors are dropped:
   * priming is never a failure.
   */
  *steps(uri: string, text: string, evaluation: FileEvaluation): Steps<void> {
    if (this.done) return;
    const places = spotsIn(text, evaluation);
    if (!places) return;
    yield* this.ask(this.warm, uri, [
      ['onHover', places.declaration],
      ['onDefinition', places.named ?? places.declaration],
      ['onCompletion', places.named ?? places.declaration],
    ]);
  }

  /** Asks each handler not warm in `warm` about `uri` at its position, a step each, and counts it warm there. */
  private *ask(warm: Set<PrimedRegistration>, uri: string, asks: readonly (readonly [PrimedRegistration, Position])[]): Steps<void> {
    for (const [registration, position] of asks) {
      const handler = this.handlers.get(registration);
      if (!handler || warm.has(registration)) continue;
      yield;
      // Asked meanwhile: warm already, and a completion's answer is what its resolve reads.
      if (warm.has(registration)) continue;
      warm.add(registration);
      try {
        handler({ textDocument: { uri }, position }, CancellationToken.None);
      } catch {
        // A request that fails here fails the same way when the user asks, and is reported then.
      }
    }
  }
}

/** The requests `Route::named('` in a view or controller answers. */
const PHP_PRIMED: readonly PrimedRegistration[] = ['onDefinition', 'onCompletion'];

/** Where the requests are primed: on the first declaration's method name, in the first `named()`'s argument. */
function spotsIn(text: string, evaluation: FileEvaluation): { declaration: Position; named?: Position } | undefined {
  const calls = uniqueCalls(evaluation);
  const first = calls.find((c) => c.site.method !== 'named');
  if (!first) return undefined;
  const lines = LineIndex.of(text);
  const site = evaluation.places.site(first.site);
  const named = calls.find((c) => c.site.method === 'named');
  const namedArg = named && evaluation.places.site(named.site).argSpans[0];
  return { declaration: lines.position((site.nameSpan ?? site.span).start), ...(namedArg ? { named: lines.position(namedArg.start + 1) } : {}) };
}
