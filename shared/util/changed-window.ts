/** Where two versions of a list differ: old [lo, oldHi) became new [lo, newHi); the rest is the same. */
export interface ChangedWindow {
  readonly lo: number;
  readonly oldHi: number;
  readonly newHi: number;
}

/** The window between the longest common prefix and the longest common suffix (not overlapping). */
export function changedWindow(oldLength: number, newLength: number, same: (oldIndex: number, newIndex: number) => boolean): ChangedWindow {
  const shortest = Math.min(oldLength, newLength);
  let lo = 0;
  while (lo < shortest && same(lo, lo)) lo++;
  let tail = 0;
  while (tail < shortest - lo && same(oldLength - 1 - tail, newLength - 1 - tail)) tail++;
  return { lo, oldHi: oldLength - tail, newHi: newLength - tail };
}

/** No element changed: an edit elsewhere. */
export function isUnchanged(window: ChangedWindow): boolean {
  return window.lo === window.oldHi && window.lo === window.newHi;
}
