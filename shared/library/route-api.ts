import type { MethodIndex } from '../runtime/methods';

/** One public static method of the Route library, as every layer needs to know it. */
export interface RouteApiMethod {
  /** Its parameters in order (named arguments are matched to them), without the `$`. */
  readonly params: readonly string[];
  /** Arguments it needs, and takes at most (PHP's ArgumentCountError below the first). */
  readonly min: number;
  readonly max: number;
  /** It stores routes into the library's table itself. */
  readonly stores: boolean;
  /** Its callback declares routes (prefix()): an outline and lenses show it as a declaration too. */
  readonly declaresInCallback?: boolean;
  /** The request method it declares for, for the verb methods (get() declares under GET only). */
  readonly verb?: MethodIndex;
  /** Where it takes the `$nested` callable, if it does. */
  readonly nestedAt?: number;
  /** Its options array, if it takes one. */
  readonly options?: RouteApiOptions;
}

/** Where a method takes its options array, and the keys it reads there. */
export interface RouteApiOptions {
  /** The option keys it reads. */
  readonly keys: readonly string[];
  /** The argument that is the options array. */
  readonly at: number;
  /** An earlier argument that is the options array instead when it is an array (context()'s `$controller`). */
  readonly orArrayAt?: number;
}

const ROUTE: Omit<RouteApiMethod, 'verb'> = { params: ['from', 'to', 'options', 'nested'], min: 2, max: 4, stores: true, nestedAt: 3, options: { keys: ['as'], at: 2 } };
const verb = (v: MethodIndex): RouteApiMethod => ({ ...ROUTE, verb: v });

/**
 * The Route library's API, written once: the interpreter (arguments, named arguments, callables),
 * the library model, replay, the checks, hover, completion and signature help all read it.
 * Keys in lower case (PHP's method names are case-insensitive).
 */
export const ROUTE_API: Readonly<Record<string, RouteApiMethod>> = {
  any: ROUTE,
  get: verb(0),
  post: verb(1),
  put: verb(2),
  delete: verb(3),
  head: verb(4),
  patch: verb(5),
  options: verb(6),
  resources: { params: ['name', 'options', 'nested'], min: 1, max: 3, stores: true, nestedAt: 2, options: { keys: ['controller', 'module', 'constraint', 'offset'], at: 1 } },
  context: { params: ['name', 'controller', 'options'], min: 1, max: 3, stores: true, options: { keys: ['offset', 'home'], at: 2, orArrayAt: 1 } },
  block: { params: [], min: 0, max: Infinity, stores: true },
  prefix: { params: ['name', 'callback'], min: 2, max: 2, stores: false, declaresInCallback: true },
  named: { params: ['name'], min: 1, max: 1, stores: false },
  map: { params: ['routes'], min: 0, max: 1, stores: false },
  reset: { params: [], min: 0, max: 0, stores: false },
};

/** The API entry of a method name, whatever its case; undefined for a method the library lacks. */
export function routeApi(method: string): RouteApiMethod | undefined {
  const lower = method.toLowerCase();
  return Object.prototype.hasOwnProperty.call(ROUTE_API, lower) ? ROUTE_API[lower] : undefined;
}

/** The methods of one kind, from the table. */
function methodsWhere(test: (m: RouteApiMethod, name: string) => boolean): ReadonlySet<string> {
  return new Set(Object.entries(ROUTE_API).filter(([name, m]) => test(m, name)).map(([name]) => name));
}

/** any() and the verb methods: one route from `$from` to `$to`. */
export const ROUTE_METHODS_FROM_TO: ReadonlySet<string> = methodsWhere((m) => m.params[0] === 'from');
/** The methods that store routes themselves. */
export const STORING_METHODS: ReadonlySet<string> = methodsWhere((m) => m.stores);
/** The methods that declare routes, themselves or in their callback (outline, lenses). */
export const DECLARING_METHODS: ReadonlySet<string> = methodsWhere((m) => m.stores || m.declaresInCallback === true);

/** Whether routes declared within a call run inside it: its callback (prefix()) or its `$nested` callable. */
export function declaresWithin(method: string): boolean {
  const m = routeApi(method);
  return m !== undefined && (m.declaresInCallback === true || m.nestedAt !== undefined);
}

/** The option keys a method reads; undefined for a method that takes no options (or that the library lacks). */
export function optionKeys(method: string): readonly string[] | undefined {
  return routeApi(method)?.options?.keys;
}

/**
 * Which argument of a call is its options array, `isArray` telling which of its arguments are
 * arrays (evaluated values, or the array literal being written); undefined for a method that
 * takes no options.
 */
export function optionsArgIndex(method: string, isArray: (argIndex: number) => boolean): number | undefined {
  const options = routeApi(method)?.options;
  if (!options) return undefined;
  return options.orArrayAt !== undefined && isArray(options.orArrayAt) ? options.orArrayAt : options.at;
}
