import { EvaluationLimit } from './limits';
import { PerMethod, PhpArray, type Value } from './values';
import { withThousands } from '../util/without-icu';

/**
 * Size-proportional work is paid for with evaluation steps, so that the step budget bounds time
 * and memory, not only the number of operations: one step may otherwise run a builtin over a
 * megabyte. Results past a fixed size are refused, so that no single statement can allocate more
 * than a few megabytes (PHP would build them: the evaluation stops there, as at the step budget).
 */
export interface WorkMeter {
  /** Pays for `units` of work (see UNITS_PER_STEP); throws EvaluationLimit past the budget. */
  charge(units: number): void;
}

/**
 * Work units one step pays for: a string byte is one unit, so 32 bytes touched cost one step. A
 * step of a plain loop takes about 0.16 µs; touching 32 bytes takes less, and copying, building
 * or comparing an array entry 0.1 to 0.3 µs: a budget of 100,000 steps is then tens of
 * milliseconds whatever the code does, and creates at most about 3 MB of strings or 100,000
 * entries. Ordinary keys and targets, shorter than 32 bytes, cost nothing more.
 */
export const UNITS_PER_STEP = 32;
/** An array entry costs one step, copied, built, walked or compared. */
export const ENTRY_UNITS = 32;
/** The longest string an operation may build (1 MiB). */
export const MAX_STRING_LENGTH = 1 << 20;
/** The most entries an operation may build into one array (about 5 MB). */
export const MAX_ARRAY_ENTRIES = 100_000;

/** What touching a value costs: its characters, or its entries (not nested arrays'). */
export function unitsOf(v: Value | undefined): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof PhpArray) return v.size * ENTRY_UNITS;
  if (v instanceof PerMethod) return v.byMethod.reduce((most: number, x) => Math.max(most, unitsOf(x)), 0);
  return 0;
}

/** Refuses a string of `length` characters before it is built. */
export function checkStringLength(length: number, what: string): void {
  if (length > MAX_STRING_LENGTH) {
    throw new EvaluationLimit(`evaluation stopped: ${what} would build a string of ${count(length)} characters, more than the ${count(MAX_STRING_LENGTH)} analysed: routes after this point are not known`);
  }
}

/** Refuses an array of `entries` entries before it is built. */
export function checkArrayEntries(entries: number, what: string): void {
  if (entries > MAX_ARRAY_ENTRIES) {
    throw new EvaluationLimit(`evaluation stopped: ${what} would build an array of ${count(entries)} entries, more than the ${count(MAX_ARRAY_ENTRIES)} analysed: routes after this point are not known`);
  }
}

/** Refuses a value an operation built past the size caps (for results not checked beforehand). */
export function checkResult(v: Value, what: string): void {
  if (typeof v === 'string') checkStringLength(v.length, what);
  else if (v instanceof PhpArray) checkArrayEntries(v.size, what);
}

function count(n: number): string {
  return Number.isFinite(n) ? withThousands(Math.round(n)) : String(n);
}
