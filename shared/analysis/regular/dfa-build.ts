import { HashChains, mixHash, startHash } from '../../util/hash-chains';
import type { Alternative } from './inclusion-syntax';
import { ALPHABET, EMPTY_DFA, SLASH, SPACE, SYMBOL_OF, isRoutableUri, type TableDfa } from './pattern-automata';
import { PositionLimitError, positionNfa, type PositionNfa } from './position-nfa';

/** How U reads each symbol (see U_NEXT): `/`, space, another default character, then the bytes of `ſ` and `K`. */
const U_KIND = new Uint8Array(ALPHABET).fill(2);
U_KIND[SLASH] = 0;
U_KIND[SPACE] = 1;
for (const [byte, kind] of [[0xc5, 3], [0xbf, 4], [0xe2, 5], [0x84, 6], [0xaa, 7]] as const) U_KIND[SYMBOL_OF[byte]!] = kind;
const U_KINDS = 8;

/**
 * U's DFA, by state and kind of symbol: 0 a segment must start (no space), 1 inside a segment after
 * a non-space (final), 2 inside a segment after a space, 3 after the byte C5 (BF must follow),
 * 4 after E2 (84 must follow), 5 after E2 84 (AA must follow). `ſ` and `K` are non-spaces.
 */
const U_NEXT: readonly (readonly number[])[] = [
  // /   sp  oth  C5  BF  E2  84  AA
  [-1, -1, 1, 3, -1, 4, -1, -1],
  [0, 2, 1, 3, -1, 4, -1, -1],
  [-1, 2, 1, 3, -1, 4, -1, -1],
  [-1, -1, -1, -1, 1, -1, -1, -1],
  [-1, -1, -1, -1, -1, -1, 5, -1],
  [-1, -1, -1, -1, -1, -1, -1, 1],
];
import { withThousands } from '../../util/without-icu';

/** Building a key's DFA: the position automaton of the translated pattern, determinised over U's symbols, trimmed and minimised. */

/** Raised when an automaton or a product would exceed its size guard. */
export class TooLargeError extends Error {}

export interface BuildLimits {
  /** Positions (states) of the NFA: the pattern's characters, counted repetitions written out. */
  readonly nfaNodes: number;
  /** States of the determinised table. */
  readonly dfaStates: number;
  /**
   * Work of the subset construction (NFA states visited, summed over every DFA state and symbol
   * class): subsets of thousands of NFA states (`(.{1,50}){1,50}`) cost seconds well within the
   * state limit.
   */
  readonly subsetWork?: number;
}

/** About 30 ms of subset construction at most; an ordinary key's takes a few thousand units. */
export const DEFAULT_LIMITS: BuildLimits = { nfaNodes: 20_000, dfaStates: 5_000, subsetWork: 1_000_000 };

/** The DFA of `alternatives` ∩ U. Throws SyntaxError (a translation it cannot read) or TooLargeError. */
export function buildDfa(alternatives: readonly Alternative[], limits: BuildLimits = DEFAULT_LIMITS): TableDfa {
  let nfa: PositionNfa;
  try {
    nfa = positionNfa(alternatives, limits.nfaNodes);
  } catch (err) {
    if (err instanceof PositionLimitError) throw new TooLargeError(err.message);
    throw err;
  }
  return determinise(nfa, limits.dfaStates, limits.subsetWork ?? DEFAULT_LIMITS.subsetWork!);
}

/** The DFA of the single word `uri` (EMPTY_DFA when it is not routable). */
export function literalDfa(uri: string): TableDfa {
  if (!isRoutableUri(uri)) return EMPTY_DFA;
  // classes: one per distinct character of the word, then the rest
  const classOf = new Uint8Array(ALPHABET);
  const distinct: number[] = [];
  for (let k = 0; k < uri.length; k++) {
    const sym = SYMBOL_OF[uri.charCodeAt(k)]!;
    if (!distinct.includes(sym)) distinct.push(sym);
  }
  const rest = distinct.length;
  classOf.fill(rest);
  distinct.forEach((sym, c) => (classOf[sym] = c));
  const classes = rest + 1;
  const n = uri.length + 1;
  const trans = new Int32Array(n * classes).fill(-1);
  const final = new Uint8Array(n);
  for (let k = 0; k < uri.length; k++) trans[k * classes + classOf[SYMBOL_OF[uri.charCodeAt(k)]!]!] = k + 1;
  final[uri.length] = 1;
  return { states: n, classes, classOf, trans, final };
}

/**
 * Subset construction of `nfa` over U's symbols, in product with U's own DFA (0: a segment must
 * start, with no space; 1: inside a segment after a non-space, final; 2: inside a segment after a
 * space), then trimmed and minimised. Works on the
 * classes of symbols that no transition of the NFA (nor U) tells apart.
 */
function determinise(nfa: PositionNfa, maxStates: number, maxWork: number): TableDfa {
  const count = nfa.count;

  // Symbol classes: refine U's kinds of symbols ({/}, {space}, the other default characters and
  // each byte of `ſ` and `K`) by every set an edge reads.
  const classOf = new Uint8Array(U_KIND);
  let classes = U_KINDS;
  for (const symbols of nfa.sets) {
    const split = new Map<number, number>();
    for (const sym of symbols) {
      const old = classOf[sym]!;
      let fresh = split.get(old);
      if (fresh === undefined) split.set(old, (fresh = classes++));
      classOf[sym] = fresh;
    }
  }
  // Renumber classes densely (some old ones emptied).
  const dense = new Map<number, number>();
  for (let sym = 0; sym < ALPHABET; sym++) {
    let c = dense.get(classOf[sym]!);
    if (c === undefined) {
      c = dense.size;
      dense.set(classOf[sym]!, c);
    }
    classOf[sym] = c;
  }
  classes = dense.size;
  // Each class lies within one kind of U's symbols (the refinement started from them).
  const kindOfClass = new Uint8Array(classes);
  for (let sym = 0; sym < ALPHABET; sym++) kindOfClass[classOf[sym]!] = U_KIND[sym]!;
  // The classes each set covers, once each (a set's symbols fall in few classes).
  const classesOfSet = nfa.sets.map((symbols) => [...new Set(symbols.map((sym) => classOf[sym]!))]);

  // succ[node * classes + class]: target nodes
  const succ: number[][] = new Array(count * classes);
  const isFinal = nfa.final;
  for (let id = 0; id < count; id++) {
    for (const target of nfa.follow[id]!) {
      for (const c of classesOfSet[nfa.setOf[target]!]!) (succ[id * classes + c] ??= []).push(target);
    }
  }

  // States by a hash of (U state, subset).
  const index = new HashChains();
  const sets: number[][] = [];
  const uStates: number[] = [];
  const transitions: number[] = [];
  const finals: number[] = [];
  const mark = new Int32Array(count).fill(-1);
  // The subset under construction: a scratch buffer, copied only when it is a new state (most
  // transitions lead to a known one).
  const scratch = new Int32Array(count);
  const isScratch = (id: number, u: number, size: number): boolean => {
    const set = sets[id]!;
    if (uStates[id] !== u || set.length !== size) return false;
    for (let k = 0; k < size; k++) if (set[k] !== scratch[k]) return false;
    return true;
  };
  const intern = (u: number, size: number): number => {
    let h = startHash(u);
    for (let k = 0; k < size; k++) h = mixHash(h, scratch[k]!);
    for (let id = index.first(h); id >= 0; id = index.after(id)) if (isScratch(id, u, size)) return id;
    const id = sets.length;
    if (id >= maxStates) throw new TooLargeError(`the pattern's automaton exceeds ${maxStates} states`);
    index.add(h, id);
    // A plain array: a typed array's copy would be a buffer of its own outside the heap, one per state.
    const set = new Array<number>(size);
    for (let k = 0; k < size; k++) set[k] = scratch[k]!;
    sets.push(set);
    uStates.push(u);
    return id;
  };
  scratch[0] = 0;
  intern(0, 1);
  let stamp = 0;
  let work = 0;
  for (let d = 0; d < sets.length; d++) {
    const set = sets[d]!;
    const u = uStates[d]!;
    // Checked once per state: the work of one state is at most classes × (subset + its edges).
    if (work > maxWork) throw new TooLargeError(`the pattern's automaton takes more than ${withThousands(maxWork)} steps to build`);
    let accepting = 0;
    if (u === 1) for (const n of set) if (isFinal[n]) accepting = 1;
    finals.push(accepting);
    for (let c = 0; c < classes; c++) {
      const nextU = U_NEXT[u]![kindOfClass[c]!]!;
      if (nextU < 0) {
        transitions.push(-1);
        continue;
      }
      let size = 0;
      stamp++;
      work += set.length;
      for (const n of set) {
        const targets = succ[n * classes + c];
        if (!targets) continue;
        work += targets.length;
        for (const t of targets) {
          if (mark[t] !== stamp) {
            mark[t] = stamp;
            scratch[size++] = t;
          }
        }
      }
      if (size === 0) {
        transitions.push(-1);
        continue;
      }
      // Sorted, hashed and compared with the states of its hash.
      work += 2 * size;
      sortPrefix(scratch, size);
      transitions.push(intern(nextU, size));
    }
  }
  return minimise(trim({ states: sets.length, classes, classOf, trans: new Int32Array(transitions), final: new Uint8Array(finals) }));
}

/** Sorts the first `size` numbers of `a` in place: insertion sort, as subsets are mostly a few states. */
function sortPrefix(a: Int32Array, size: number): void {
  if (size > 32) {
    a.subarray(0, size).sort();
    return;
  }
  for (let i = 1; i < size; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

/** Keeps the states that are reachable (all are, by construction) and can reach a final state. */
function trim(dfa: TableDfa): TableDfa {
  const { states: n, classes, trans, final } = dfa;
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < classes; c++) {
      const t = trans[s * classes + c]!;
      if (t >= 0) preds[t]!.push(s);
    }
  }
  const alive = new Uint8Array(n);
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (final[s]) {
      alive[s] = 1;
      stack.push(s);
    }
  }
  while (stack.length) {
    for (const p of preds[stack.pop()!]!) {
      if (!alive[p]) {
        alive[p] = 1;
        stack.push(p);
      }
    }
  }
  if (n === 0 || !alive[0]) return EMPTY_DFA;
  const renum = new Int32Array(n).fill(-1);
  let m = 0;
  for (let s = 0; s < n; s++) if (alive[s]) renum[s] = m++;
  if (m === n) return dfa;
  const t2 = new Int32Array(m * classes).fill(-1);
  const f2 = new Uint8Array(m);
  for (let s = 0; s < n; s++) {
    if (!alive[s]) continue;
    const r = renum[s]!;
    f2[r] = final[s]!;
    for (let c = 0; c < classes; c++) {
      const t = trans[s * classes + c]!;
      t2[r * classes + c] = t >= 0 ? renum[t]! : -1;
    }
  }
  return { states: m, classes, classOf: dfa.classOf, trans: t2, final: f2 };
}

/** Transitions Moore's rounds may read in all (about 10 ms). */
const MINIMISE_WORK = 500_000;

/**
 * Moore's partition refinement. Minimality is only an optimisation of later products: skipped for
 * small tables (where the subset construction of the position automaton is rarely far from minimal and Moore's
 * rounds would cost more than they save) and for very large ones, and given up (the table kept
 * as it is) past MINIMISE_WORK: a chain of states takes as many rounds as it has states.
 */
function minimise(dfa: TableDfa): TableDfa {
  const { states: n, classes } = dfa;
  if (n <= 32 || n > 2000) return dfa;
  let work = 0;
  let cls = Int32Array.from(dfa.final);
  let count = new Set(cls).size;
  // A state's signature: its class and its targets' classes. Equal signatures, one new class.
  const targetClass = (c: Int32Array, s: number, k: number): number => {
    const t = dfa.trans[s * classes + k]!;
    return t < 0 ? -1 : c[t]!;
  };
  const sameSignature = (c: Int32Array, a: number, b: number): boolean => {
    if (c[a] !== c[b]) return false;
    for (let k = 0; k < classes; k++) if (targetClass(c, a, k) !== targetClass(c, b, k)) return false;
    return true;
  };
  for (;;) {
    work += n * classes;
    if (work > MINIMISE_WORK) return dfa;
    // One representative state per signature, by its hash.
    const representatives = new HashChains();
    const next = new Int32Array(n);
    let size = 0;
    for (let s = 0; s < n; s++) {
      let h = startHash(cls[s]!);
      for (let k = 0; k < classes; k++) h = mixHash(h, targetClass(cls, s, k) + 2);
      let rep = representatives.first(h);
      while (rep >= 0 && !sameSignature(cls, rep, s)) rep = representatives.after(rep);
      if (rep >= 0) next[s] = next[rep]!;
      else {
        next[s] = size++;
        representatives.add(h, s);
      }
    }
    cls = next;
    if (size === count) break;
    count = size;
  }
  if (count === n) return dfa;
  // Renumber so that the initial state's class is 0.
  const order = new Int32Array(count).fill(-1);
  let m = 0;
  order[cls[0]!] = m++;
  for (let s = 0; s < n; s++) if (order[cls[s]!] === -1) order[cls[s]!] = m++;
  const trans = new Int32Array(count * classes).fill(-1);
  const final = new Uint8Array(count);
  for (let s = 0; s < n; s++) {
    const q = order[cls[s]!]!;
    final[q] = dfa.final[s]!;
    for (let c = 0; c < classes; c++) {
      const t = dfa.trans[s * classes + c]!;
      trans[q * classes + c] = t < 0 ? -1 : order[cls[t]!]!;
    }
  }
  return { states: count, classes, classOf: dfa.classOf, trans, final };
}
