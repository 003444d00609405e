import { compareIgnoringCase } from '../../util/without-icu';

/** Edit distance, for "did you mean" suggestions. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The candidate closest to `name` within `maxDistance` edits, if any. */
export function closestName(name: string, candidates: Iterable<string>, maxDistance: number): string | undefined {
  return closestNames(name, candidates, maxDistance, 1)[0];
}

/** Up to `limit` candidates, closest first; prefix and substring matches count as close. */
export function closestNames(name: string, candidates: Iterable<string>, maxDistance: number, limit: number): string[] {
  const scored: { c: string; d: number }[] = [];
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const cl = c.toLowerCase();
    let d = levenshtein(lower, cl);
    if (d > maxDistance && (cl.includes(lower) || lower.includes(cl)) && Math.min(cl.length, lower.length) >= 3) d = maxDistance;
    if (d <= maxDistance) scored.push({ c, d });
  }
  return scored.sort((a, b) => a.d - b.d || compareIgnoringCase(a.c, b.c)).slice(0, limit).map((s) => s.c);
}

/**
 * Whether a file's `unknown-route-name` findings may change when the workspace's route names
 * `changed` appear or go: one of its Route::named() lookups (under any method, in any file it
 * included) asks for one of them, or for a name `known` lacks (the suggestions of an unknown name
 * are drawn from every name). A lookup whose name is not known statically is never judged.
 */
export function namedLookupsMayChange(calls: Iterable<{ site: { method: string }; args: readonly unknown[] } | undefined>, changed: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
  for (const call of calls) {
    if (call?.site.method !== 'named') continue;
    const name = call.args[0];
    if (typeof name === 'string' && (changed.has(name) || !known.has(name))) return true;
  }
  return false;
}
