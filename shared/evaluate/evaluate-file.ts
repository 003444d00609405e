import type { Span } from '../php/ast';
import { StatementParser, type ParsedFile } from '../php/parse';
import { ALL_METHODS, REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../library/methods';
import { Diverge, type Dialect, type MethodState } from '../library/route-library';
import { Interpreter, type EvalProblem, type InterpreterOutcome, type RouteCall } from './interpreter';
import type { ReplayCache } from './replay';
import { PhpArray, type PhpClosure, type Value } from './values';

// A 10,000-declaration file takes about 55,000 steps; an endless loop stops within ~20 ms.
export const DEFAULT_MAX_STEPS = 100_000;

export interface EvaluateOptions {
  dialect?: Dialect;
  /** Constants defined before the file runs: config/constants.php's and the user's. */
  constants?: ReadonlyMap<string, Value>;
  maxSteps?: number;
  /** Routes one request method may hold (default 200,000). */
  maxRoutes?: number;
  /** File name used in PHP-style messages. */
  file?: string;
  /** A parser whose per-statement cache survives between calls (editors pass one per document). */
  parser?: StatementParser;
  /** Evaluate each request method alone (the reference the shared evaluation must equal). */
  perMethod?: boolean;
  /** Statement effects from earlier evaluations of the same document (see DocumentEvaluator). */
  replay?: ReplayCache;
}

export interface PhpError {
  class: string;
  message: string;
  span?: Span;
}

/** What the file does under one request method. */
export interface MethodResult {
  method: RequestMethod;
  /** `$route` when the script ended; undefined when it never held an array. */
  routes: PhpArray | undefined;
  /** The uncaught error that stopped the script, or the parse error that prevented it. */
  error: PhpError | null;
  warnings: string[];
  /** The library's state at the end (routes declared, names, every record created). */
  library: MethodState;
}

export interface FileEvaluation {
  parsed: ParsedFile;
  methods: MethodResult[];
  problems: EvalProblem[];
  calls: RouteCall[];
  /** 'together' when all methods were evaluated in one pass, else 'per-method'. */
  mode: 'together' | 'per-method';
  /** Top-level statements replayed from an earlier evaluation, and evaluated. */
  statements: { replayed: number; evaluated: number };
  steps: number;
  /** Constants after the file ran (including its own define() calls). */
  constants: ReadonlyMap<string, Value>;
  /**
   * Identifies the document when successive versions are evaluated by one DocumentEvaluator, so
   * analyses may build on what they found for the previous version; absent for one-off evaluations.
   */
  lineage?: object;
  /** Evaluates a closure the file created under one method (closure routes in `$route`). */
  callClosure(method: MethodIndex, closure: PhpClosure, args: Value[]): Value;
}

/**
 * Evaluates a route file under every request method. A pure function of (text, options): no I/O,
 * no PHP. All methods are evaluated in one pass; when their paths differ (a condition on
 * `$_SERVER['REQUEST_METHOD']`, a route that fails under one method only), each is evaluated alone.
 */
export function evaluateRouteFile(text: string, options: EvaluateOptions = {}): FileEvaluation {
  const parser = options.parser ?? new StatementParser();
  const parsed = parser.parse(text);
  return evaluateParsed(parsed, options);
}

export function evaluateParsed(parsed: ParsedFile, options: EvaluateOptions = {}): FileEvaluation {
  const base = {
    dialect: options.dialect ?? 'spec',
    constants: options.constants ?? new Map<string, Value>(),
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    maxRoutes: options.maxRoutes,
    file: options.file ?? 'routes.php',
  };
  if (!options.perMethod) {
    try {
      const interpreter = new Interpreter(parsed, { ...base, mask: ALL_METHODS, replay: options.replay });
      const outcome = interpreter.run();
      return assemble(parsed, REQUEST_METHODS.map(() => outcome), 'together', interpreter.replayStats);
    } catch (e) {
      if (!(e instanceof Diverge)) throw e;
    }
  }
  const interpreters = REQUEST_METHODS.map((_, m) => new Interpreter(parsed, { ...base, mask: 1 << m }));
  const outcomes = interpreters.map((i) => i.run());
  return assemble(parsed, outcomes, 'per-method', { replayed: 0, evaluated: interpreters.reduce((n, i) => n + i.replayStats.evaluated, 0) });
}

function assemble(parsed: ParsedFile, outcomes: InterpreterOutcome[], mode: FileEvaluation['mode'], statements: FileEvaluation['statements']): FileEvaluation {
  const parseError = parsed.problems[0];
  const methods: MethodResult[] = REQUEST_METHODS.map((method, m) => {
    const o = outcomes[m];
    const fatal = o.errors[m];
    const error: PhpError | null = parseError
      ? { class: 'ParseError', message: parseError.message, span: parseError.span }
      : fatal
        ? { class: fatal.phpClass, message: fatal.phpMessage, span: fatal.span }
        : null;
    return { method, routes: o.routes[m], error, warnings: o.warnings[m], library: o.library.states[m] };
  });
  const unique = [...new Set(outcomes)];
  const problems: EvalProblem[] = [];
  const seen = new Set<string>();
  for (const o of unique) {
    for (const p of o.problems) {
      const key = `${p.code}:${p.span.start}:${p.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(p);
    }
  }
  return {
    parsed,
    methods,
    problems,
    calls: unique.flatMap((o) => o.calls),
    mode,
    statements,
    steps: unique.reduce((n, o) => n + o.steps, 0),
    constants: outcomes[0].constants,
    callClosure: (m, closure, args) => outcomes[m].callClosure(closure, args),
  };
}
