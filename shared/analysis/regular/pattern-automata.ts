import { JS, NFA, TooManyNodesError, type CharSet } from 'refa';
import { ByteArena } from '../../util/byte-arena';
import { HashChains, mixHash, startHash } from '../../util/hash-chains';
import type { Alternative } from './inclusion-syntax';

/**
 * Automata for route keys, restricted to the URIs that can reach CodeIgniter's router.
 *
 * The universe U: one or more segments joined by `/`, each segment a non-empty string of
 * CodeIgniter's default permitted URI characters `[a-z 0-9~%.:_\-]` (checked case-insensitively,
 * so A-Z too) that neither starts nor ends with a space: CI_URI::_set_uri_string() trims every
 * segment and drops empty ones before the router joins them (the project's router model,
 * uriSegments() in ci-router.ts, does the same). Every language here is intersected with U, so the automata only ever read these
 * 70 symbols: refa parses the translated pattern and builds its NFA (the semantics of the
 * regex), and this module determinises that NFA over the 70-symbol alphabet as a plain table,
 * which makes the many product constructions of an inclusion check cheap.
 */

/** The alphabet of U, `/` first. */
export const SYMBOLS = '/ %-.0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';
export const ALPHABET = SYMBOLS.length;
const SLASH = 0;
const SPACE = 1;

const SYMBOL_OF = new Int8Array(128).fill(-1);
for (let k = 0; k < ALPHABET; k++) SYMBOL_OF[SYMBOLS.charCodeAt(k)] = k;

const SEGMENT = '[A-Za-z0-9~%.:_-](?:[A-Za-z0-9 ~%.:_-]*[A-Za-z0-9~%.:_-])?';
const URI = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);

/** Whether the string is a URI that can reach the router (a word of U). */
export function isRoutableUri(uri: string): boolean {
  return URI.test(uri);
}

/**
 * A partial DFA over the symbols of U, with the symbols grouped into classes that the DFA treats
 * alike: `trans[state * classes + classOf[symbol]]` is the next state or -1. State 0 is
 * initial. Trimmed: every state can reach a final state, so an empty language has no state at
 * all (`states === 0`).
 */
export interface TableDfa {
  readonly states: number;
  readonly classes: number;
  readonly classOf: Uint8Array;
  /** Row per state, column per class: the next state or -1 (8 or 16 bits once packed for a cache). */
  readonly trans: Int32Array | Int16Array | Int8Array;
  readonly final: Uint8Array;
}

export const EMPTY_DFA: TableDfa = { states: 0, classes: 1, classOf: new Uint8Array(ALPHABET), trans: new Int32Array(0), final: new Uint8Array(0) };

/** Symbol-class maps in use, by content: most keys' DFAs split the alphabet the same few ways. */
const sharedClassMaps = new Map<string, Uint8Array>();
const MAX_SHARED_CLASS_MAPS = 10_000;

/**
 * The same DFA in the form kept in a cache: transitions as narrow as its state numbers allow
 * (8 bits up to 127 states, most keys' DFAs; 16 bits under any sensible size limit) and the
 * final flags side by side, cut from the arena's shared buffers, the class map shared with every
 * DFA that has the same one. Unless `shared` is false: a literal key's map is its own word's, and
 * its DFA is kept briefly, so it gets a buffer of its own that goes with it. 32-bit transitions
 * made up most of the memory of a large file's automata (13 MB for 10,000 keys; 6.7 MB at 16
 * bits), then a buffer per DFA and per class map (about 2 MB).
 */
export function packDfa(dfa: TableDfa, shared = true): TableDfa {
  if (dfa.states === 0) return dfa;
  const width = dfa.states < 0x80 ? 1 : dfa.states < 0x8000 ? 2 : 4;
  const bytes = dfa.trans.length * width + dfa.final.length;
  const { buffer, offset } = shared ? arena.take(bytes, width) : { buffer: new ArrayBuffer(bytes), offset: 0 };
  const trans =
    width === 1
      ? new Int8Array(buffer, offset, dfa.trans.length)
      : width === 2
        ? new Int16Array(buffer, offset, dfa.trans.length)
        : new Int32Array(buffer, offset, dfa.trans.length);
  trans.set(dfa.trans);
  const final = new Uint8Array(buffer, offset + dfa.trans.length * width, dfa.final.length);
  final.set(dfa.final);
  return { states: dfa.states, classes: dfa.classes, classOf: shared ? sharedClassMap(dfa.classOf) : dfa.classOf, trans, final };
}

/** Where the automata kept with a file's keys (and their class maps) are stored. */
const arena = new ByteArena();

function sharedClassMap(classOf: Uint8Array): Uint8Array {
  const signature = String.fromCharCode(...classOf);
  let shared = sharedClassMaps.get(signature);
  if (!shared) {
    if (sharedClassMaps.size >= MAX_SHARED_CLASS_MAPS) return classOf;
    const { buffer, offset } = arena.take(classOf.length, 1);
    shared = new Uint8Array(buffer, offset, classOf.length);
    shared.set(classOf);
    sharedClassMaps.set(signature, shared);
  }
  return shared;
}

/** The next state on `symbol`, or -1. */
export function step(dfa: TableDfa, state: number, symbol: number): number {
  return dfa.trans[state * dfa.classes + dfa.classOf[symbol]!]!;
}

/** Raised when an automaton or a product would exceed its size guard. */
export class TooLargeError extends Error {}

export interface BuildLimits {
  /** Nodes refa may create while parsing and building the NFA. */
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

/** `W*` for unanchored sides: any string, restricted to U's alphabet (equivalent after ∩ U). */
const ANY = `[A-Za-z0-9 ~%.:_\\-\\/]*`;

/**
 * The JS source (whole-string semantics, as refa reads it) of the language of `^KEY$` matched by
 * preg_match anywhere in the URI: each alternative padded on its unanchored sides.
 */
export function languageSource(alternatives: readonly Alternative[]): string {
  // An alternative's source has no top-level `|`, so it needs no group around it.
  return alternatives.map((a) => `${a.anchoredStart ? '' : ANY}${a.source}${a.anchoredEnd ? '' : ANY}`).join('|');
}

/** The DFA of `alternatives` ∩ U. Throws SyntaxError (refa/regexpp) or TooLargeError. */
export function buildDfa(alternatives: readonly Alternative[], limits: BuildLimits = DEFAULT_LIMITS): TableDfa {
  let nfa: NFA;
  try {
    const parser = JS.Parser.fromLiteral({ source: languageSource(alternatives), flags: '' });
    const { expression, maxCharacter } = parser.parse({ backreferences: 'throw', assertions: 'throw', maxNodes: limits.nfaNodes });
    nfa = NFA.fromRegex(expression, { maxCharacter }, { assertions: 'throw', unknowns: 'throw' }, new NFA.LimitedNodeFactory(limits.nfaNodes));
  } catch (err) {
    if (err instanceof TooManyNodesError) throw new TooLargeError(`the pattern's automaton exceeds ${limits.nfaNodes} nodes`);
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

/** The state after reading `word` from the start, or -1 (dead, or a character outside U's alphabet). */
function walk(dfa: TableDfa, word: string): number {
  if (dfa.states === 0) return -1;
  let state = 0;
  for (let k = 0; k < word.length && state >= 0; k++) {
    const code = word.charCodeAt(k);
    const sym = code < 128 ? SYMBOL_OF[code]! : -1;
    state = sym < 0 ? -1 : step(dfa, state, sym);
  }
  return state;
}

/** Whether the DFA accepts the string (false for anything outside U's alphabet). */
export function accepts(dfa: TableDfa, word: string): boolean {
  const state = walk(dfa, word);
  return state >= 0 && dfa.final[state] === 1;
}

/** Whether some word of the language starts with `prefix` (false when `prefix` leaves U's alphabet). */
export function mayContinue(dfa: TableDfa, prefix: string): boolean {
  return walk(dfa, prefix) >= 0;
}

/** Whether some word of the language is `segment` or starts with `segment/`. */
export function mayStartWith(dfa: TableDfa, segment: string): boolean {
  const state = walk(dfa, segment);
  return state >= 0 && (dfa.final[state] === 1 || step(dfa, state, SYMBOL_OF[47]!) >= 0);
}

/** Symbol codes in ascending order, with their symbol index. */
const SORTED = Array.from(SYMBOLS, (ch, sym) => ({ code: ch.charCodeAt(0), sym })).sort((a, b) => a.code - b.code);

/** The symbols of U in a character set. */
function symbolsOf(cs: CharSet): number[] {
  const out: number[] = [];
  let k = 0;
  for (const range of cs.ranges) {
    while (k < SORTED.length && SORTED[k]!.code < range.min) k++;
    for (let j = k; j < SORTED.length && SORTED[j]!.code <= range.max; j++) out.push(SORTED[j]!.sym);
  }
  return out;
}

/**
 * Subset construction of `nfa` over U's symbols, in product with U's own DFA (0: a segment must
 * start, with no space; 1: inside a segment after a non-space, final; 2: inside a segment after a
 * space), then trimmed and minimised. Works on the
 * classes of symbols that no transition of the NFA (nor U) tells apart.
 */
function determinise(nfa: NFA, maxStates: number, maxWork: number): TableDfa {
  const ids = new Map<NFA.ReadonlyNode, number>();
  for (const node of nfa.nodes()) ids.set(node, ids.size);
  const count = ids.size;

  // Symbol classes: refine {/}, {space} and the other characters by every transition's set.
  const classOf = new Uint8Array(ALPHABET).fill(2);
  classOf[SLASH] = 0;
  classOf[SPACE] = 1;
  let classes = 3;
  const edgeSymbols = new Map<CharSet, number[]>();
  for (const node of ids.keys()) {
    for (const cs of node.out.values()) {
      if (edgeSymbols.has(cs)) continue;
      const symbols = symbolsOf(cs);
      edgeSymbols.set(cs, symbols);
      const split = new Map<number, number>();
      for (const sym of symbols) {
        const old = classOf[sym]!;
        let fresh = split.get(old);
        if (fresh === undefined) split.set(old, (fresh = classes++));
        classOf[sym] = fresh;
      }
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
  const slashClass = classOf[SLASH]!;
  const spaceClass = classOf[SPACE]!;
  // U's transitions: [from state][slash, space, other]
  const uNext = [
    [-1, -1, 1],
    [0, 2, 1],
    [-1, 2, 1],
  ];

  // succ[node * classes + class]: target nodes
  const succ: number[][] = new Array(count * classes);
  const isFinal = new Uint8Array(count);
  const classSeen = new Int32Array(classes);
  let edgeStamp = 0;
  for (const [node, id] of ids) {
    if (nfa.finals.has(node as NFA.Node)) isFinal[id] = 1;
    for (const [to, cs] of node.out) {
      const target = ids.get(to);
      if (target === undefined) continue;
      // Each class once per edge (an edge's symbols fall in few classes).
      edgeStamp++;
      for (const sym of edgeSymbols.get(cs)!) {
        const c = classOf[sym]!;
        if (classSeen[c] === edgeStamp) continue;
        classSeen[c] = edgeStamp;
        (succ[id * classes + c] ??= []).push(target);
      }
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
  scratch[0] = ids.get(nfa.initial)!;
  intern(0, 1);
  let stamp = 0;
  let work = 0;
  for (let d = 0; d < sets.length; d++) {
    const set = sets[d]!;
    const u = uStates[d]!;
    // Checked once per state: the work of one state is at most classes × (subset + its edges).
    if (work > maxWork) throw new TooLargeError(`the pattern's automaton takes more than ${maxWork.toLocaleString('en-US')} steps to build`);
    let accepting = 0;
    if (u === 1) for (const n of set) if (isFinal[n]) accepting = 1;
    finals.push(accepting);
    for (let c = 0; c < classes; c++) {
      const nextU = uNext[u]![c === slashClass ? 0 : c === spaceClass ? 1 : 2]!;
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
 * small tables (where the subset construction of refa's NFA is rarely far from minimal and Moore's
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

/** Cheap facts about a language, used to skip candidates before any product construction. */
export interface Summary {
  /** The possible first segments when they are few and finite (at most 32, distinct), else null. */
  readonly firstSegments: readonly string[] | null;
  /** Fewest and most `/`-separated segments of a word (Infinity when unbounded); 0/0 if empty. */
  readonly minSegments: number;
  readonly maxSegments: number;
}

export function summarise(dfa: TableDfa): Summary {
  if (dfa.states === 0) return { firstSegments: [], minSegments: 0, maxSegments: 0 };
  const [minSegments, maxSegments] = segmentRange(dfa);
  // An array: thousands of keys keep a summary, most with one segment.
  const segments = firstSegments(dfa);
  return { firstSegments: segments && [...segments], minSegments, maxSegments };
}

/** The symbols of each class of a DFA. */
function members(dfa: TableDfa): number[][] {
  const out: number[][] = Array.from({ length: dfa.classes }, () => []);
  for (let sym = 0; sym < ALPHABET; sym++) out[dfa.classOf[sym]!]!.push(sym);
  return out;
}

function firstSegments(dfa: TableDfa, maxCount = 32, maxLength = 64, maxSteps = 4000): Set<string> | null {
  const { classes, trans } = dfa;
  const slash = dfa.classOf[SLASH]!;
  const symbols = members(dfa);
  const out = new Set<string>();
  let steps = 0;
  const stack: [number, string][] = [[0, '']];
  while (stack.length) {
    const [state, prefix] = stack.pop()!;
    if (++steps > maxSteps || prefix.length > maxLength) return null;
    if (dfa.final[state] || trans[state * classes + slash]! >= 0) out.add(prefix);
    if (out.size > maxCount) return null;
    for (let c = 0; c < classes; c++) {
      if (c === slash) continue;
      const t = trans[state * classes + c]!;
      if (t < 0) continue;
      if (stack.length + symbols[c]!.length > maxSteps) return null;
      for (const sym of symbols[c]!) stack.push([t, prefix + SYMBOLS[sym]]);
    }
  }
  return out;
}

/** [min, max] number of segments: `/` count + 1, max via the SCCs (a cycle through `/` = ∞). */
function segmentRange(dfa: TableDfa): [number, number] {
  const { states: n, classes, trans } = dfa;
  const slash = dfa.classOf[SLASH]!;
  // min: 0-1 BFS on the number of `/` transitions.
  const dist = new Int32Array(n).fill(0x7fffffff);
  dist[0] = 0;
  const deque: number[] = [0];
  let minSlashes = Infinity;
  while (deque.length) {
    const s = deque.shift()!;
    if (dfa.final[s]) minSlashes = Math.min(minSlashes, dist[s]!);
    for (let c = 0; c < classes; c++) {
      const t = trans[s * classes + c]!;
      if (t < 0) continue;
      const w = c === slash ? 1 : 0;
      if (dist[s]! + w < dist[t]!) {
        dist[t] = dist[s]! + w;
        if (w === 0) deque.unshift(t);
        else deque.push(t);
      }
    }
  }
  // max: Tarjan's SCCs (iterative); SCCs come out in reverse topological order.
  const indexOf = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const comp = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  const comps: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (indexOf[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    indexOf[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1]!;
      const [s, c] = top;
      if (c < classes) {
        top[1] = c + 1;
        const t = trans[s * classes + c]!;
        if (t < 0) continue;
        if (indexOf[t] === -1) {
          indexOf[t] = low[t] = counter++;
          stack.push(t);
          onStack[t] = 1;
          work.push([t, 0]);
        } else if (onStack[t]) low[s] = Math.min(low[s]!, indexOf[t]!);
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[s]!);
      }
      if (low[s] === indexOf[s]) {
        const group: number[] = [];
        let x: number;
        do {
          x = stack.pop()!;
          onStack[x] = 0;
          comp[x] = comps.length;
          group.push(x);
        } while (x !== s);
        comps.push(group);
      }
    }
  }
  const best = new Float64Array(comps.length).fill(-Infinity);
  for (let k = 0; k < comps.length; k++) {
    let value = -Infinity;
    for (const s of comps[k]!) {
      if (dfa.final[s]) value = Math.max(value, 0);
      for (let c = 0; c < classes; c++) {
        const t = trans[s * classes + c]!;
        if (t < 0) continue;
        const w = c === slash ? 1 : 0;
        if (comp[t] === k) {
          if (w) value = Infinity;
        } else value = Math.max(value, w + best[comp[t]!]!);
      }
    }
    best[k] = value;
  }
  return [minSlashes + 1, best[comp[0]!]! + 1];
}

/**
 * A few words of the language, deterministic for a given seed: a shortest word, then random
 * walks (each stops at a final state with some probability, or when nothing else is possible).
 */
export function sampleWords(dfa: TableDfa, count: number, seed: number): string[] {
  if (dfa.states === 0) return [];
  const symbols = members(dfa);
  const out = [shortestCompletion(dfa, 0)];
  let x = seed >>> 0 || 1;
  const random = (n: number): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
  // The classes leading on from a state: one buffer for every step.
  const options: number[] = [];
  for (let k = 1; k < count; k++) {
    let state = 0;
    const chars: string[] = [];
    for (;;) {
      if (chars.length > 48) {
        chars.push(shortestCompletion(dfa, state));
        break;
      }
      options.length = 0;
      for (let c = 0; c < dfa.classes; c++) if (dfa.trans[state * dfa.classes + c]! >= 0) options.push(c);
      if (dfa.final[state] && (options.length === 0 || random(4) === 0)) break;
      const c = options[random(options.length)]!;
      const inClass = symbols[c]!;
      chars.push(SYMBOLS[inClass[random(inClass.length)]!]!);
      state = dfa.trans[state * dfa.classes + c]!;
    }
    // Joined, not concatenated: a word built with += is a chain of one rope node per character,
    // and the samples stay cached with their key.
    out.push(chars.join(''));
  }
  return out;
}

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

/** A shortest word leading from `state` to a final state (one exists: the DFA is trimmed). */
function shortestCompletion(dfa: TableDfa, state: number): string {
  const symbols = members(dfa);
  const from = new Map<number, [number, number]>([[state, [-1, -1]]]);
  const queue = [state];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    if (dfa.final[s]) {
      const reversed: string[] = [];
      for (let x = s; x !== state; ) {
        const [prev, c] = from.get(x)!;
        reversed.push(SYMBOLS[symbols[c]![0]!]!);
        x = prev;
      }
      return reversed.reverse().join('');
    }
    for (let c = 0; c < dfa.classes; c++) {
      const t = dfa.trans[s * dfa.classes + c]!;
      if (t >= 0 && !from.has(t)) {
        from.set(t, [s, c]);
        queue.push(t);
      }
    }
  }
  return '';
}

function wordOf(queue: readonly { symbol: number; parent: number }[], at: number): string {
  const reversed: string[] = [];
  for (let k = at; k > 0; k = queue[k]!.parent) reversed.push(SYMBOLS[queue[k]!.symbol]!);
  return reversed.reverse().join('');
}
