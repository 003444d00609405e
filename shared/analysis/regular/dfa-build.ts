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

/** Predecessor edges Hopcroft's refinement may read in all (a few milliseconds). */
const MINIMISE_WORK = 500_000;

/**
 * Hopcroft's partition refinement, O(k·n·log n): Moore's rounds took as many rounds as a chain has
 * states, and a route key is a chain (`admin/products/(:any)/(:any)`: 50 states, 35% of building
 * its automaton). Minimality is only an optimisation of later products: skipped for small tables
 * (the subset construction of the position automaton is rarely far from minimal there) and for
 * very large ones, and given up (the table kept as it is) past MINIMISE_WORK.
 */
function minimise(dfa: TableDfa): TableDfa {
  const { states: n, classes, trans } = dfa;
  if (n <= 32 || n > 2000) return dfa;
  // Completed with a sink (state n) where a transition is missing; trimmed, no other state is dead,
  // so the sink stays alone in its block and is dropped at the end.
  const total = n + 1;
  const targetOf = (s: number, c: number): number => {
    if (s === n) return n;
    const t = trans[s * classes + c]!;
    return t < 0 ? n : t;
  };
  // Predecessors by class, compressed: those of state t on class c are preds[at[c*total+t] .. at[c*total+t+1]).
  const at = new Int32Array(classes * total + 1);
  for (let c = 0; c < classes; c++) for (let s = 0; s < total; s++) at[c * total + targetOf(s, c) + 1]!++;
  for (let i = 0; i < classes * total; i++) at[i + 1]! += at[i]!;
  const preds = new Int32Array(classes * total);
  const fill = at.slice(0, classes * total);
  for (let c = 0; c < classes; c++) for (let s = 0; s < total; s++) preds[fill[c * total + targetOf(s, c)]!++] = s;

  // Blocks are ranges of `elems`; a block's marked states are moved to the front of its range.
  const elems = new Int32Array(total);
  const loc = new Int32Array(total);
  const blockOf = new Int32Array(total);
  const first = new Int32Array(total);
  const past = new Int32Array(total);
  const marked = new Int32Array(total);
  let blocks = 0;
  {
    let k = 0;
    for (const wanted of [1, 0]) {
      const from = k;
      for (let s = 0; s < total; s++) {
        if ((s < n && dfa.final[s] === 1 ? 1 : 0) !== wanted) continue;
        elems[k] = s;
        loc[s] = k++;
        blockOf[s] = blocks;
      }
      if (k > from) {
        first[blocks] = from;
        past[blocks++] = k;
      }
    }
  }
  // Splitters (block, class), as a stack: the smaller of the two first blocks, then each split's
  // smaller part, for every class; a block is split at most total - 1 times.
  const pending = new Int32Array(2 * classes * total);
  let top = 0;
  // A class no state of the block is entered by splits nothing: not pushed (a chain's states are
  // entered by one or two classes of twenty).
  const pushSplitters = (block: number, at0: number): number => {
    let t = at0;
    for (let k = 0; k < classes; k++) {
      for (let i = first[block]!; i < past[block]!; i++) {
        const state = elems[i]!;
        if (at[k * total + state + 1]! > at[k * total + state]!) {
          pending[t++] = block;
          pending[t++] = k;
          break;
        }
      }
    }
    return t;
  };
  if (blocks === 2) top = pushSplitters(past[1]! - first[1]! < past[0]! - first[0]! ? 1 : 0, 0);
  const touched = new Int32Array(total);
  const splitter = new Int32Array(total);
  let work = 0;
  while (top > 0) {
    const c = pending[--top]!;
    const a = pending[--top]!;
    // Its states now (the block may split while its predecessors are marked).
    let size = 0;
    for (let i = first[a]!; i < past[a]!; i++) splitter[size++] = elems[i]!;
    let touchedCount = 0;
    for (let x = 0; x < size; x++) {
      const t = splitter[x]!;
      const from = at[c * total + t]!;
      const to = at[c * total + t + 1]!;
      work += to - from;
      for (let p = from; p < to; p++) {
        const s = preds[p]!;
        const b = blockOf[s]!;
        const i = loc[s]!;
        const j = first[b]! + marked[b]!;
        if (i < j) continue; // marked already
        elems[i] = elems[j]!;
        loc[elems[i]!] = i;
        elems[j] = s;
        loc[s] = j;
        if (marked[b] === 0) touched[touchedCount++] = b;
        marked[b]!++;
      }
    }
    if (work > MINIMISE_WORK) return dfa;
    for (let x = 0; x < touchedCount; x++) {
      const b = touched[x]!;
      const middle = first[b]! + marked[b]!;
      marked[b] = 0;
      if (middle === past[b]) continue; // all of it marked: no split
      // The smaller part becomes the new block, and the splitter of every class.
      const nb = blocks++;
      if (middle - first[b]! <= past[b]! - middle) {
        first[nb] = first[b]!;
        past[nb] = middle;
        first[b] = middle;
      } else {
        first[nb] = middle;
        past[nb] = past[b]!;
        past[b] = middle;
      }
      for (let i = first[nb]!; i < past[nb]!; i++) blockOf[elems[i]!] = nb;
      top = pushSplitters(nb, top);
    }
  }
  const count = blocks - 1; // the sink's block is dropped
  if (count === n) return dfa;
  // Renumbered in order of each block's first state, the initial state's block first.
  const sinkBlock = blockOf[n]!;
  const order = new Int32Array(blocks).fill(-1);
  let m = 0;
  for (let s = 0; s < n; s++) if (order[blockOf[s]!] === -1) order[blockOf[s]!] = m++;
  const out = new Int32Array(count * classes).fill(-1);
  const final = new Uint8Array(count);
  for (let s = 0; s < n; s++) {
    const q = order[blockOf[s]!]!;
    final[q] = dfa.final[s]!;
    for (let c = 0; c < classes; c++) {
      const t = trans[s * classes + c]!;
      out[q * classes + c] = t < 0 || blockOf[t] === sinkBlock ? -1 : order[blockOf[t]!]!;
    }
  }
  return { states: count, classes, classOf: dfa.classOf, trans: out, final };
}
