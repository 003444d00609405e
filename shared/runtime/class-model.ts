import type { RecordedSite } from './call-site';
import type { MethodMask } from './methods';
import type { Value } from './values';

/**
 * A class the interpreter knows by its static methods (the Route library): what it needs to
 * evaluate `Class::method(...)`, the callables naming one (`'Class::method'`, `['Class', 'method']`)
 * and `is_callable()` of them, without knowing what the class does. The interpreter knows PHP;
 * a model knows its class.
 */
export interface StaticClassModel {
  /** The class's name as PHP code writes it (compared case-insensitively). */
  readonly name: string;
  /** Whether the class has this public static method (any case). */
  hasMethod(method: string): boolean;
  /** The method's parameter names in order, without the `$` (named arguments are matched to them). */
  parameterNames(method: string): readonly string[] | undefined;
  /** Where the method takes a callable it calls back later (`$nested`), if it does. */
  callbackParameter(method: string): number | undefined;
  /** Whether the interpreter's main list of calls keeps the method's calls (lower case), rather than the list of other calls. */
  isMainCall(method: string): boolean;
  /** Calls the method with evaluated arguments (skipped ones null), for the given request methods. */
  callStatic(method: string, args: Value[], site: RecordedSite, mask: MethodMask): Value;
}
