import type { MethodMask } from '../runtime/methods';
import type { Value } from '../runtime/values';

/** A variable scope: the global one or a function call's. */
export class Scope {
  vars = new Map<string, Value>();
  /** Names bound to globals by `global $x;`. */
  readonly globalNames = new Set<string>();
  /** Names bound by reference to another scope's variable (a closure's `use (&$x)`). */
  readonly refs = new Map<string, Scope>();
  /** For arrow functions: the enclosing scope, read by value. */
  arrowParent: Map<string, Value> | undefined;
  constructor(
    /** The methods that were running when the scope was created: writes under fewer diverge. */
    readonly mask: MethodMask,
    readonly isGlobal: boolean,
  ) {}
}
