import { SLASH, SYMBOLS, members, shortestCompletion, type TableDfa } from './pattern-automata';

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
