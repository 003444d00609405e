/**
 * What a cursor position means for the Route library: an argument of a `Route::` call, a key or a
 * value of its options array, or a key or value of `$route[...] = ...`. Textual (see
 * cursor-context.ts), so it works on half-typed code.
 */

import { optionsArgIndex } from '../../library/route-api';
import type { CursorContext, Frame } from './cursor-context';

export type CursorPosition =
  /** An argument of `Route::method(` (the cursor is in or at the start of it). */
  | { kind: 'route-argument'; method: string; written: string; argIndex: number }
  /** A key of the options array of `Route::method(`; `keys` are the keys already written before. */
  | { kind: 'option-key'; method: string; written: string; keys: string[] }
  /** The value of option `key`, right after its `=>`. */
  | { kind: 'option-value'; method: string; written: string; key: string }
  /** `$route['|']`: a key of the route array. */
  | { kind: 'route-key' }
  /** `$route[...] = '|'`: a target. */
  | { kind: 'route-value' };

/** Whether an array written as argument `argIndex` is the method's options array (see optionsArgIndex). */
function isOptionsArgument(method: string, argIndex: number): boolean {
  return optionsArgIndex(method, (i) => i === argIndex) === argIndex;
}

/** Whether the array frame is written directly as the argument of its parent (not inside an expression). */
function isWholeArgument(ctx: CursorContext, parent: Frame, array: Frame): boolean {
  const first = ctx.tokens[parent.argStart];
  if (parent.argStart === array.token) return true; // `[`
  return parent.argStart === array.token - 1 && first?.type === 'name' && /^array$/i.test(first.text);
}

/**
 * The position at the cursor: what is typed there is the string at the cursor, the identifier at
 * the cursor, or nothing yet; anything else already written in the same slot gives no position.
 */
export function cursorPosition(ctx: CursorContext): CursorPosition | undefined {
  const top = ctx.frames[ctx.frames.length - 1];
  // The cursor's token must start its slot: nothing else typed before it in the argument/element.
  const slotStart = (f: Frame): boolean => f.argStart === ctx.before;
  if (ctx.afterRouteAssign) return { kind: 'route-value' };
  if (!top) return undefined;
  if (top.role.kind === 'route-call') {
    if (!slotStart(top)) return undefined;
    return { kind: 'route-argument', method: top.role.method, written: top.role.written, argIndex: top.argIndex };
  }
  if (top.role.kind === 'index') {
    // `$route['x']['get']`: the second key is a request method, not a path: no wildcards there.
    if (top.role.base === '$route' && !top.role.chained && top.argIndex === 0 && slotStart(top)) return { kind: 'route-key' };
    return undefined;
  }
  if (top.role.kind !== 'array') return undefined;
  const parent = ctx.frames[ctx.frames.length - 2];
  if (!parent || parent.role.kind !== 'route-call' || !isOptionsArgument(parent.role.method, parent.argIndex) || !isWholeArgument(ctx, parent, top)) return undefined;
  const { method, written } = parent.role;
  if (top.arrow < 0) {
    if (!slotStart(top)) return undefined;
    return { kind: 'option-key', method, written, keys: top.keys };
  }
  // A value: right after `=>`, with a literal string key.
  const key = ctx.tokens[top.arrow - 1];
  if (top.arrow !== ctx.before - 1 || top.argStart !== top.arrow - 1 || key?.type !== 'string' || !key.literal) return undefined;
  return { kind: 'option-value', method, written, key: key.text };
}
