import type { Key } from '../runtime/values';

/**
 * The keys whose place in a route table depends on which branch of an undecidable condition ran.
 * Both branches are evaluated one after the other on one table (see Interpreter.bothBranches), so
 * a key both store keeps the place the first gave it, and keys only the second stores come after
 * every key of the first: the joint order is then not the second branch's own when that branch
 * stores a key of its own before one both store, or two shared keys in another order.
 *
 * `a`, `b`: the keys each branch stored, in order (repeats ignored); `existing(k)`: the key was in
 * the table before either ran (it keeps its place whatever runs). Empty when the joint order is
 * each branch's own, as it is when the branches store different keys.
 */
export function branchOrderVaries(a: Iterable<Key>, b: Iterable<Key>, existing: (k: Key) => boolean): Key[] {
  const inA = new Map<Key, number>();
  for (const k of a) if (!inA.has(k) && !existing(k)) inA.set(k, inA.size);
  if (inA.size === 0) return [];
  const seen = new Set<Key>();
  const ownBefore: Key[] = [];
  const out: Key[] = [];
  let lastShared = -1;
  for (const k of b) {
    if (seen.has(k) || existing(k)) continue;
    seen.add(k);
    const i = inA.get(k);
    if (i === undefined) {
      ownBefore.push(k);
      continue;
    }
    // A shared key: misplaced when one of the branch's own keys, or a shared key the first branch put after it, came first.
    if (ownBefore.length > 0 || i < lastShared) {
      out.push(k, ...ownBefore);
      ownBefore.length = 0;
    }
    lastShared = Math.max(lastShared, i);
  }
  if (out.length === 0) return [];
  // The shared keys it was misordered against are concerned too.
  for (const k of seen) if (inA.has(k)) out.push(k);
  return [...new Set(out)];
}
