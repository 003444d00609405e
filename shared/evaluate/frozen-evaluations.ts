import { PerMethod, PhpArray } from '../runtime/values';

/**
 * A test mode (CI_ROUTES_FREEZE_EVALUATIONS=1, which the test suite sets) in which every
 * evaluation handed out is deep-frozen: whatever writes into it afterwards (the next version's
 * evaluation, an analysis) throws where it writes. Evaluations are values; this holds them to it.
 *
 * Not frozen: PHP arrays (copy-on-write: their internals change as they are read and shared, never
 * their entries), the parsed syntax (the parser's, shared between versions and never written), the
 * document's state (`lineage`: the caches the next version and the analyses write, see
 * DocumentState) and functions.
 */
export const FREEZE_EVALUATIONS = typeof process !== 'undefined' && process.env?.CI_ROUTES_FREEZE_EVALUATIONS === '1';

/** Hands out an evaluation: frozen in the test mode, as it is otherwise. */
export function handOut<T extends object>(evaluation: T): T {
  if (FREEZE_EVALUATIONS) deepFreeze(evaluation, new Set(['parsed', 'lineage']));
  return evaluation;
}

function refuse(this: unknown): never {
  throw new TypeError('an evaluation handed out was written to (see frozen-evaluations.ts)');
}

/** Freezes everything reachable from `root` (skipping the named own properties of the root). */
export function deepFreeze(root: object, skipOnRoot: ReadonlySet<string> = new Set()): void {
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (seen.has(o) || o instanceof PhpArray || o instanceof PerMethod) continue;
    seen.add(o);
    const push = (v: unknown) => {
      if (v !== null && typeof v === 'object' && !seen.has(v)) stack.push(v);
    };
    if (o instanceof Map) {
      o.forEach((v, k) => (push(k), push(v)));
      lock(o, ['set', 'delete', 'clear']);
    } else if (o instanceof Set) {
      o.forEach(push);
      lock(o, ['add', 'delete', 'clear']);
    } else if (o instanceof WeakMap || o instanceof WeakSet) {
      continue;
    }
    for (const key of Object.keys(o)) {
      if (o === root && skipOnRoot.has(key)) continue;
      push((o as Record<string, unknown>)[key]);
    }
    Object.freeze(o);
  }
}

/** A Map's or Set's writing methods, made to throw (Object.freeze does not stop them). */
function lock(o: object, methods: readonly string[]): void {
  if (Object.isFrozen(o)) return;
  for (const m of methods) Object.defineProperty(o, m, { value: refuse });
}
