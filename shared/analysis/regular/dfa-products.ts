import { TooLargeError } from './dfa-build';
import { ALPHABET, SYMBOLS, shortestCompletion, step, type TableDfa } from './pattern-automata';

/** Products of DFAs: whether two languages meet, and whether a union of them covers a key's. */

/** One representative symbol per class of the common refinement of the DFAs' symbol classes. */
function jointRepresentatives(dfas: readonly TableDfa[]): number[] {
  let ids = Array.from(dfas[0]!.classOf);
  for (let k = 1; k < dfas.length; k++) {
    const other = dfas[k]!;
    if (other.classes === 1) continue;
    const map = new Map<number, number>();
    const next = new Array<number>(ALPHABET);
    for (let sym = 0; sym < ALPHABET; sym++) {
      const pair = ids[sym]! * 256 + other.classOf[sym]!;
      let id = map.get(pair);
      if (id === undefined) map.set(pair, (id = map.size));
      next[sym] = id;
    }
    ids = next;
    if (map.size === ALPHABET) break;
  }
  const seen = new Set<number>();
  const out: number[] = [];
  for (let sym = 0; sym < ALPHABET; sym++) {
    if (!seen.has(ids[sym]!)) {
      seen.add(ids[sym]!);
      out.push(sym);
    }
  }
  return out;
}

/** Whether the languages of two DFAs share a word. */
export function intersects(a: TableDfa, b: TableDfa): boolean {
  if (a.states === 0 || b.states === 0) return false;
  const reps = jointRepresentatives([a, b]);
  const seen = new Set<number>([0]);
  const queue = [0];
  while (queue.length) {
    const pair = queue.pop()!;
    const x = Math.floor(pair / b.states);
    const y = pair % b.states;
    if (a.final[x] && b.final[y]) return true;
    for (const sym of reps) {
      const tx = step(a, x, sym);
      if (tx < 0) continue;
      const ty = step(b, y, sym);
      if (ty < 0) continue;
      const p = tx * b.states + ty;
      if (!seen.has(p)) {
        seen.add(p);
        queue.push(p);
      }
    }
  }
  return false;
}

export interface UnionCoverage {
  /** Every word of `key` is accepted by at least one candidate. */
  readonly covered: boolean;
  /** When covered: which candidates accept some word of `key` (index into `candidates`). */
  readonly overlapping: readonly boolean[];
  /** When not covered: a word of `key` that no candidate accepts. */
  readonly witness?: string;
}

/**
 * Work left to the product constructions of one decision (candidate transitions followed): the
 * state limit alone let one product with hundreds of candidates run for seconds.
 */
export class ProductBudget {
  constructor(private left: number) {}

  /** Pays for `work`; throws TooLargeError once the budget is spent. */
  spend(work: number): void {
    this.left -= work;
    if (this.left < 0) throw new TooLargeError('the inclusion check takes too many steps');
  }
}

/**
 * Decides L(key) ⊆ ∪ L(candidates) without building the union's DFA: a breadth-first walk of
 * the key's DFA together with the set of live (candidate, state) pairs, i.e. the subset
 * construction of the union done lazily, only along the key's words. Throws TooLargeError past
 * `maxStates` explored product states or once `budget` is spent.
 */
export function unionCovers(key: TableDfa, candidates: readonly TableDfa[], maxStates = 200_000, budget?: ProductBudget): UnionCoverage {
  const overlapping = candidates.map(() => false);
  if (key.states === 0) return { covered: true, overlapping };
  const reps = jointRepresentatives([key, ...candidates]);
  const startPairs: number[] = [];
  candidates.forEach((c, k) => {
    if (c.states > 0) startPairs.push(k, 0);
  });
  const seen = new Set<string>();
  const queue: { state: number; pairs: Int32Array; symbol: number; parent: number }[] = [];
  const start = new Int32Array(startPairs);
  seen.add(`0|${start.join(',')}`);
  queue.push({ state: 0, pairs: start, symbol: -1, parent: -1 });
  for (let head = 0; head < queue.length; head++) {
    const { state, pairs } = queue[head]!;
    if (pairs.length === 0) {
      // No candidate is alive and the key's state still reaches a final state (trimmed DFA).
      return { covered: false, overlapping, witness: wordOf(queue, head) + shortestCompletion(key, state) };
    }
    if (key.final[state]) {
      let accepted = false;
      for (let p = 0; p < pairs.length; p += 2) {
        if (candidates[pairs[p]!]!.final[pairs[p + 1]!]) {
          accepted = true;
          overlapping[pairs[p]!] = true;
        }
      }
      if (!accepted) return { covered: false, overlapping, witness: wordOf(queue, head) };
    }
    budget?.spend(reps.length * (pairs.length + 2));
    for (const sym of reps) {
      const next = step(key, state, sym);
      if (next < 0) continue;
      const out: number[] = [];
      for (let p = 0; p < pairs.length; p += 2) {
        const c = pairs[p]!;
        const t = step(candidates[c]!, pairs[p + 1]!, sym);
        if (t >= 0) out.push(c, t);
      }
      const k = `${next}|${out.join(',')}`;
      if (seen.has(k)) continue;
      if (seen.size >= maxStates) throw new TooLargeError(`the inclusion check explored more than ${maxStates} product states`);
      seen.add(k);
      queue.push({ state: next, pairs: new Int32Array(out), symbol: sym, parent: head });
    }
  }
  return { covered: true, overlapping };
}

function wordOf(queue: readonly { symbol: number; parent: number }[], at: number): string {
  const reversed: string[] = [];
  for (let k = at; k > 0; k = queue[k]!.parent) reversed.push(SYMBOLS[queue[k]!.symbol]!);
  return reversed.reverse().join('');
}
