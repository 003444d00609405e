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
