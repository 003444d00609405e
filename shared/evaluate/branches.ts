import type { Span } from '../php/ast';
import { branchOrderVaries } from '../library/branch-order';
import { ENTRY_UNITS, type WorkMeter } from '../runtime/work-meter';
import { sameValue } from '../runtime/convert';
import { PerMethod, PhpArray, Unknown, keyToString, shareValue, type Key, type Value } from '../runtime/values';
import { ExitSignal, type InterpreterCore, type Signal } from './interpreter-core';
import { fnv1a } from '../util/hash-chains';

/*
 * Undecidable conditions: both branches run, their variables merge, and what follows a branch
 * that ended runs as the other branch's continuation.
 */

function continueInBranch(it: InterpreterCore, id: string): void {
  // A loop may end the same branch on every turn: once is enough.
  if (it.branchStack.includes(id)) return;
  it.branchStack.push(id);
  it.branchSnapshot = it.branchStack.slice();
  it.conditionalDepth++;
  it.continuations++;
}

/** Ends the continuations opened since `mark` (the statement list they belong to ended). */
export function closeContinuations(it: InterpreterCore, mark: number): void {
  const n = it.continuations - mark;
  if (n <= 0) return;
  it.branchStack.length -= n;
  it.branchSnapshot = it.branchStack.slice();
  it.conditionalDepth -= n;
  it.continuations = mark;
}

/**
 * A condition's place in a branch id (`c<place>:<branch>`): its offset, and in an included file
 * a tag of that file's path too (`<offset>h<tag>`), so that a condition there is told from one at
 * the same offset of the including file (undecidedConditions reads it back).
 */
export function conditionPlace(span: Span): string {
  return span.file ? `${span.start}h${includedFileTag(span.file.path)}` : String(span.start);
}

/** The tag of an included file's path in a branch id (see conditionPlace). */
export function includedFileTag(path: string): string {
  return (fnv1a(path) >>> 0).toString(36);
}

export function inBranch<T>(it: InterpreterCore, id: string, fn: () => T): T {
  const mark = it.continuations;
  it.branchStack.push(id);
  it.branchSnapshot = it.branchStack.slice();
  try {
    return fn();
  } finally {
    closeContinuations(it, mark);
    it.branchStack.pop();
    it.branchSnapshot = it.branchStack.slice();
  }
}

/**
 * Runs both branches of an undecidable condition and merges the variables they set. A branch
 * that returns or exits ends there: what follows runs only in the other branch (`ids`), and an
 * exit is then a possibility, not the end of the file.
 */
export function bothBranches(it: InterpreterCore, a: () => Signal, b: () => Signal, ids: readonly [string, string], condition: Span): Signal {
  const scope = it.scope;
  const before = new Map(scope.vars);
  const states = it.library.states;
  const created0 = states.map((s) => s.created.length);
  const replaced0 = states.map((s) => s.replaced.length);
  let created1: number[] = created0;
  let routesA: Value | undefined;
  for (const v of before.values()) shareValue(v);
  const ran = (branch: () => Signal): { signal: Signal; exit?: ExitSignal } => {
    try {
      return { signal: branch() };
    } catch (e) {
      if (e instanceof ExitSignal) return { signal: undefined, exit: e };
      throw e;
    }
  };
  let ra: { signal: Signal; exit?: ExitSignal };
  let rb: { signal: Signal; exit?: ExitSignal };
  it.conditionalDepth++;
  try {
    ra = ran(a);
    const afterA = scope.vars;
    created1 = states.map((s) => s.created.length);
    routesA = it.scope === it.globals ? afterA.get('route') : undefined;
    scope.vars = new Map(before);
    for (const v of before.values()) shareValue(v);
    rb = ran(b);
    const afterB = scope.vars;
    if (it.scope === it.globals) noteOrderVaries(it, condition, before.get('route'), routesA, afterB.get('route'));
    noteLibraryOrderVaries(it, condition, created0, created1, replaced0);
    scope.vars = mergeScopes(afterA, afterB, it);
  } finally {
    it.conditionalDepth--;
  }
  const endedA = ra.exit !== undefined || ra.signal?.kind === 'return';
  const endedB = rb.exit !== undefined || rb.signal?.kind === 'return';
  if (endedA && endedB) {
    if (ra.exit && rb.exit) throw rb.exit;
    return rb.signal?.kind === 'return' ? rb.signal : ra.signal;
  }
  // The condition itself is reported as undecidable; what follows is marked as its other branch.
  if (endedA !== endedB) continueInBranch(it, ids[endedA ? 1 : 0]);
  return undefined;
}

/** `$route` keys whose place depends on the branch (see branchOrderVaries), noted with the condition. */
function noteOrderVaries(it: InterpreterCore, condition: Span, before: Value | undefined, a: Value | undefined, b: Value | undefined): void {
  // A branch that leaves `$route` unset (the file's first route set in the other) has no keys.
  const none = a === undefined || b === undefined ? new PhpArray() : undefined;
  const ta = a === undefined ? none : a;
  const tb = b === undefined ? none : b;
  if (!(ta instanceof PhpArray) || !(tb instanceof PhpArray) || (a === before && b === before)) return;
  const prior = before instanceof PhpArray ? before : undefined;
  it.charge((ta.size + tb.size) * ENTRY_UNITS);
  const existing = (k: Key) => prior?.has(k) ?? false;
  markOrderVaries(it, branchOrderVaries(ta.keys(), tb.keys(), existing), condition, onlyInOne(ta.keys(), tb.keys(), existing));
}

/** Keys one list has and the other has not, leaving out those that existed before. */
function onlyInOne(a: Iterable<Key>, b: Iterable<Key>, existing: (k: Key) => boolean): Key[] {
  const inA = new Set<Key>();
  for (const k of a) if (!existing(k)) inA.add(k);
  const inB = new Set<Key>();
  for (const k of b) if (!existing(k)) inB.add(k);
  const out: Key[] = [];
  for (const k of inA) if (!inB.has(k)) out.push(k);
  for (const k of inB) if (!inA.has(k)) out.push(k);
  return out;
}

/** The library's tables' keys whose place depends on the branch, from the records each branch stored. */
function noteLibraryOrderVaries(it: InterpreterCore, condition: Span, created0: readonly number[], created1: readonly number[], replaced0: readonly number[]): void {
  it.library.states.forEach((state, m) => {
    if (created1[m] === created0[m]) return;
    const made = new Set(state.created.slice(created0[m]));
    // A key whose record made before the branches was stored over was in the table already.
    const existing = new Set<Key>();
    for (let i = replaced0[m]; i < state.replaced.length; i++) if (!made.has(state.replaced[i])) existing.add(state.replaced[i].key);
    const keysOf = (from: number, to: number) => state.created.slice(from, to).map((r) => r.key);
    const a = keysOf(created0[m], created1[m]);
    const b = keysOf(created1[m], state.created.length);
    markOrderVaries(it, branchOrderVaries(a, b, (k) => existing.has(k)), condition, onlyInOne(a, b, (k) => existing.has(k)));
  });
}

/** One group per condition (a condition in a loop adds to its group): its keys' mutual order is not known, nor whether those `onlySome` are there. */
function markOrderVaries(it: InterpreterCore, keys: readonly Key[], condition: Span, onlySome: readonly Key[]): void {
  if (keys.length === 0 && onlySome.length === 0) return;
  const id = `${condition.file?.path ?? ''}:${condition.start}`;
  let group = it.orderVaries.get(id);
  if (!group) it.orderVaries.set(id, (group = { keys: new Set(), onlySome: new Set(), condition, mask: it.mask }));
  else if ((group.mask | it.mask) !== group.mask) it.orderVaries.set(id, (group = { ...group, mask: group.mask | it.mask }));
  for (const k of keys) (group.keys as Set<string>).add(keyToString(k));
  for (const k of onlySome) (group.onlySome as Set<string>).add(keyToString(k));
}

function mergeScopes(a: Map<string, Value>, b: Map<string, Value>, meter: WorkMeter): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, va] of a) {
    const vb = b.get(k);
    out.set(k, vb === undefined ? va : mergeValues(va, vb, meter));
  }
  for (const [k, vb] of b) if (!out.has(k)) out.set(k, vb);
  return out;
}

/** Merges two branch outcomes: arrays element by element, so route tables stay usable. */
function mergeValues(a: Value, b: Value, meter: WorkMeter): Value {
  if (sameValue(a, b, meter)) return a;
  if (a instanceof PhpArray && b instanceof PhpArray) {
    meter.charge((a.size + b.size) * ENTRY_UNITS);
    const out = a.clone();
    for (const [k, v] of b.entries()) {
      const cur = out.get(k);
      out.set(k, cur === undefined ? shareValue(v) : mergeValues(cur, v, meter), b.originOf(k) ?? a.originOf(k));
    }
    return out;
  }
  // `$route = Route::map($route);` holds one array per request method: merged method by method.
  if (a instanceof PerMethod || b instanceof PerMethod) {
    const count = a instanceof PerMethod ? a.byMethod.length : (b as PerMethod).byMethod.length;
    const at = (v: Value, m: number): Value => (v instanceof PerMethod ? v.byMethod[m]! : v);
    if ((a instanceof PerMethod && a.byMethod.length !== count) || (b instanceof PerMethod && b.byMethod.length !== count)) return new Unknown('depends on a condition that cannot be decided statically');
    return new PerMethod(Array.from({ length: count }, (_, m) => mergeValues(at(a, m), at(b, m), meter)));
  }
  return new Unknown('depends on a condition that cannot be decided statically');
}
