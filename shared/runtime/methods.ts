/** The request methods a route file is evaluated under. CLI means no request method at all. */
export const REQUEST_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CLI'] as const;

export type RequestMethod = (typeof REQUEST_METHODS)[number];

/** Index of a request method in `REQUEST_METHODS`. */
export type MethodIndex = number;

/** A set of request methods as a bit mask (bit i = `REQUEST_METHODS[i]`). */
export type MethodMask = number;

export const ALL_METHODS: MethodMask = (1 << REQUEST_METHODS.length) - 1;

export function methodIndex(name: string): MethodIndex | undefined {
  const i = (REQUEST_METHODS as readonly string[]).indexOf(name.toUpperCase());
  return i < 0 ? undefined : i;
}

export function maskOf(...methods: MethodIndex[]): MethodMask {
  let m = 0;
  for (const i of methods) m |= 1 << i;
  return m;
}

export function methodsIn(mask: MethodMask): MethodIndex[] {
  const out: MethodIndex[] = [];
  for (let i = 0; i < REQUEST_METHODS.length; i++) if (mask & (1 << i)) out.push(i);
  return out;
}

/** The names of each mask's methods, made once: tens of thousands of routes each list theirs. */
const NAMES_OF_MASK: readonly (readonly RequestMethod[])[] = Array.from({ length: ALL_METHODS + 1 }, (_, mask) =>
  Object.freeze(methodsIn(mask).map((i) => REQUEST_METHODS[i])),
);

/** The names of a mask's methods, in REQUEST_METHODS order: one shared list per mask, not to be changed. */
export function maskNames(mask: MethodMask): readonly RequestMethod[] {
  return NAMES_OF_MASK[mask & ALL_METHODS];
}

export function isSingleMethod(mask: MethodMask): boolean {
  return mask !== 0 && (mask & (mask - 1)) === 0;
}
