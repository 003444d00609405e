/** Whether `typed` occurs in `label` in order, case-insensitively (how editors filter). */
export function fuzzyMatches(label: string, typed: string): boolean {
  return typed === '' || inOrder(label.toLowerCase(), typed.toLowerCase());
}

/** fuzzyMatches on text already in lower case. */
export function inOrder(lowerLabel: string, lowerTyped: string): boolean {
  let at = 0;
  for (let k = 0; k < lowerTyped.length; k++) {
    at = lowerLabel.indexOf(lowerTyped[k]!, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/**
 * The items matching what was typed, in two groups kept in the items' order: those whose label
 * starts with it, then those holding its characters in order (how completions are ranked). At
 * most `limit` items per group.
 */
export function matchGroups<T>(items: Iterable<T>, lowerLabel: (item: T) => string, lowerTyped: (item: T) => string, limit = Infinity): { prefixed: T[]; others: T[] } {
  const prefixed: T[] = [];
  const others: T[] = [];
  for (const item of items) {
    const label = lowerLabel(item);
    const typed = lowerTyped(item);
    if (label.startsWith(typed)) {
      if (prefixed.length < limit) prefixed.push(item);
    } else if (others.length < limit && inOrder(label, typed)) others.push(item);
  }
  return { prefixed, others };
}
