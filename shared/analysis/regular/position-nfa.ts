import type { Alternative } from './inclusion-syntax';
import { SYMBOL_OF } from './pattern-automata';

/**
 * The position automaton (Glushkov's construction) of a translated key, over U's symbols: one
 * state per position (a character set of the pattern, counted repetitions written out) and an
 * initial state, no ε-transitions. It reads only what inclusion-syntax.ts writes: literal
 * characters, `\xHH`, `.`, the class escapes `\d \D \w \W \s \S` (and `\t \n \r \f`), classes with
 * ranges, `(?:…)` groups, `|`, and the quantifiers `* + ? {m} {m,} {m,n}` (lazy or not: a language
 * has no laziness). Anything else is a SyntaxError: the translator wrote something unexpected.
 *
 * Written here rather than parsed by a general regex library: such a library's Unicode tables
 * (case folding, properties), which a 75-symbol alphabet never reads, cost the server about 8 MB
 * of memory at start-up.
 */

/** An ε-free NFA over U's symbols: state 0 is initial, every edge into a state reads that state's set. */
export interface PositionNfa {
  /** States: the initial one and one per position. */
  readonly count: number;
  readonly final: Uint8Array;
  /** Per state, the states it moves to. */
  readonly follow: readonly (readonly number[])[];
  /** Per state, the index in `sets` of the symbols read on entering it (-1 for the initial state). */
  readonly setOf: Int32Array;
  /** Distinct symbol sets, as ascending symbol indices. */
  readonly sets: readonly (readonly number[])[];
}

/** Raised past a size limit (positions, or follow edges). */
export class PositionLimitError extends Error {}

/** `bytes`: the characters (bytes: keys are read as the router reads them, without `u`) the position reads. */
type Node =
  | { kind: 'set'; bytes: readonly number[] }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; item: Node; min: number; max: number };

const ALL_BYTES: readonly number[] = Array.from({ length: 256 }, (_, k) => k);
/** What `.` reads: every byte but the newline. */
const DOT_BYTES: readonly number[] = ALL_BYTES.filter((b) => b !== 0x0a);

/** The bytes `from`..`to`. */
function bytesOfRange(from: number, to: number, into: Set<number>): void {
  for (let c = Math.max(0, from); c <= Math.min(255, to); c++) into.add(c);
}

/** `\d`, `\w`, `\s` as PCRE reads them without `u` (ASCII), and their complements, as bytes. */
function classEscape(e: string): readonly number[] | undefined {
  const set = new Set<number>();
  switch (e.toLowerCase()) {
    case 'd':
      bytesOfRange(0x30, 0x39, set);
      break;
    case 'w':
      bytesOfRange(0x30, 0x39, set);
      bytesOfRange(0x41, 0x5a, set);
      bytesOfRange(0x61, 0x7a, set);
      bytesOfRange(0x5f, 0x5f, set);
      break;
    case 's':
      for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) bytesOfRange(c, c, set);
      break;
    default:
      return undefined;
  }
  return e === e.toLowerCase() ? [...set].sort((a, b) => a - b) : ALL_BYTES.filter((b) => !set.has(b));
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c };

/** A parser of the translator's output. */
class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.s.length) this.fail(`unexpected '${this.s[this.i]}'`);
    return node;
  }

  private fail(why: string): never {
    throw new SyntaxError(`translated pattern /${this.s}/ at ${this.i}: ${why}`);
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') items.push(this.quantified(this.atom()));
    return { kind: 'seq', items };
  }

  private atom(): Node {
    const c = this.s[this.i]!;
    if (c === '(') {
      if (!this.s.startsWith('(?:', this.i)) this.fail('a group other than (?:');
      this.i += 3;
      const inner = this.alternation();
      if (this.s[this.i] !== ')') this.fail("missing ')'");
      this.i++;
      return inner;
    }
    if (c === '[') return this.characterClass();
    if (c === '.') {
      this.i++;
      return { kind: 'set', bytes: DOT_BYTES };
    }
    if (c === '\\') {
      const e = this.s[this.i + 1];
      if (e === undefined) this.fail('a lone backslash');
      const set = classEscape(e);
      if (set) {
        this.i += 2;
        return { kind: 'set', bytes: set };
      }
      return { kind: 'set', bytes: this.single(this.escapedChar()) };
    }
    if ('*+?{})]|'.includes(c)) this.fail(`'${c}' where an item must be`);
    this.i++;
    return { kind: 'set', bytes: this.single(c.charCodeAt(0)) };
  }

  /** A character beyond a byte is none the router reads (the translator writes none). */
  private single(code: number): readonly number[] {
    return code <= 255 ? [code] : [];
  }

  /** The character of an escape at `i` (`\xHH`, a control escape, an escaped punctuation character); moves past it. */
  private escapedChar(): number {
    const e = this.s[this.i + 1]!;
    if (e === 'x') {
      const hex = this.s.slice(this.i + 2, this.i + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) this.fail('\\x without two hex digits');
      this.i += 4;
      return parseInt(hex, 16);
    }
    if (CONTROL_ESCAPES[e] !== undefined) {
      this.i += 2;
      return CONTROL_ESCAPES[e]!;
    }
    if (/[A-Za-z0-9]/.test(e)) this.fail(`the escape \\${e}`);
    this.i += 2;
    return e.charCodeAt(0);
  }

  private characterClass(): Node {
    this.i++;
    let negated = false;
    if (this.s[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const set = new Set<number>();
    let first = true;
    for (;;) {
      if (this.i >= this.s.length) this.fail("missing ']'");
      const c = this.s[this.i]!;
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === '\\') {
        const escape = classEscape(this.s[this.i + 1] ?? '');
        if (escape) {
          for (const sym of escape) set.add(sym);
          this.i += 2;
          continue;
        }
      }
      const lo = this.classChar();
      if (this.s[this.i] === '-' && this.s[this.i + 1] !== ']' && this.i + 1 < this.s.length) {
        this.i++;
        const hi = this.classChar();
        if (hi < lo) this.fail('a range out of order');
        bytesOfRange(lo, hi, set);
      } else bytesOfRange(lo, lo, set);
    }
    return { kind: 'set', bytes: negated ? ALL_BYTES.filter((b) => !set.has(b)) : [...set].sort((a, b) => a - b) };
  }

  private classChar(): number {
    if (this.s[this.i] === '\\') {
      if (classEscape(this.s[this.i + 1] ?? '')) this.fail('a class escape in a range');
      return this.escapedChar();
    }
    return this.s.charCodeAt(this.i++);
  }

  private quantified(item: Node): Node {
    let node = item;
    for (;;) {
      const c = this.s[this.i];
      let min: number;
      let max: number;
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
      } else if (c === '{') {
        const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.s.slice(this.i, this.i + 24));
        if (!m) this.fail("a '{' that is no count");
        this.i += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      } else return node;
      // Laziness changes which match is found, not the language.
      if (this.s[this.i] === '?') this.i++;
      node = { kind: 'repeat', item: node, min, max };
    }
  }
}

/** What a sub-pattern contributes: whether it matches the empty word, its first and last positions. */
interface Fragment {
  nullable: boolean;
  first: number[];
  last: number[];
}

/** The symbols of U among bytes. */
function symbolsOf(bytes: readonly number[]): number[] {
  const out: number[] = [];
  for (const b of bytes) {
    const sym = SYMBOL_OF[b]!;
    if (sym >= 0) out.push(sym);
  }
  return out.sort((a, b) => a - b);
}

/** Glushkov's construction over parsed nodes, counted repetitions written out copy by copy. */
class Builder {
  readonly setOf: number[] = [-1];
  readonly follow: Set<number>[] = [new Set()];
  readonly sets: (readonly number[])[] = [];
  private readonly setIds = new Map<string, number>();
  private edges = 0;

  constructor(
    private readonly maxPositions: number,
    private readonly maxEdges: number,
  ) {}

  build(node: Node): Fragment {
    switch (node.kind) {
      case 'set':
        return this.position(symbolsOf(node.bytes));
      case 'seq': {
        let whole: Fragment = { nullable: true, first: [], last: [] };
        for (const item of node.items) whole = this.concat(whole, this.build(item));
        return whole;
      }
      case 'alt': {
        const whole: Fragment = { nullable: false, first: [], last: [] };
        for (const option of node.options) {
          const f = this.build(option);
          whole.nullable ||= f.nullable;
          whole.first.push(...f.first);
          whole.last.push(...f.last);
        }
        return whole;
      }
      case 'repeat': {
        // x{m,n}: m copies, then n-m optional ones; x{m,}: m copies, then x*.
        let whole: Fragment = { nullable: true, first: [], last: [] };
        for (let k = 0; k < node.min; k++) whole = this.concat(whole, this.build(node.item));
        if (node.max === Infinity) whole = this.concat(whole, this.star(this.build(node.item)));
        else for (let k = node.min; k < node.max; k++) whole = this.concat(whole, { ...this.build(node.item), nullable: true });
        return whole;
      }
    }
  }

  /** The initial state's moves and the final states of a whole pattern. */
  finish(whole: Fragment): PositionNfa {
    this.link([0], whole.first);
    const count = this.setOf.length;
    const final = new Uint8Array(count);
    for (const p of whole.last) final[p] = 1;
    if (whole.nullable) final[0] = 1;
    return { count, final, follow: this.follow.map((s) => [...s]), setOf: Int32Array.from(this.setOf), sets: this.sets };
  }

  private position(symbols: readonly number[]): Fragment {
    const p = this.setOf.length;
    if (p > this.maxPositions) throw new PositionLimitError(`the pattern's automaton exceeds ${this.maxPositions} nodes`);
    const key = symbols.join(',');
    let id = this.setIds.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(symbols);
      this.setIds.set(key, id);
    }
    this.setOf.push(id);
    this.follow.push(new Set());
    return { nullable: false, first: [p], last: [p] };
  }

  private concat(a: Fragment, b: Fragment): Fragment {
    this.link(a.last, b.first);
    return { nullable: a.nullable && b.nullable, first: a.nullable ? [...a.first, ...b.first] : a.first, last: b.nullable ? [...a.last, ...b.last] : b.last };
  }

  private star(f: Fragment): Fragment {
    this.link(f.last, f.first);
    return { nullable: true, first: f.first, last: f.last };
  }

  private link(from: readonly number[], to: readonly number[]): void {
    this.edges += from.length * to.length;
    if (this.edges > this.maxEdges) throw new PositionLimitError(`the pattern's automaton exceeds ${this.maxEdges} edges`);
    for (const p of from) {
      const out = this.follow[p]!;
      for (const q of to) out.add(q);
    }
  }
}

/**
 * Follow edges a pattern may have: optional copies link each to every later one (`(?:a?){700}`
 * has about 245,000), and the subset construction would not finish within its work limit anyway.
 */
export const MAX_FOLLOW_EDGES = 250_000;

/**
 * The position automaton of `^KEY$` matched by preg_match anywhere in the URI: each alternative
 * padded with any word of U on its unanchored sides. Throws SyntaxError or PositionLimitError.
 */
export function positionNfa(alternatives: readonly Alternative[], maxPositions: number, maxEdges = MAX_FOLLOW_EDGES): PositionNfa {
  const any: Node = { kind: 'repeat', item: { kind: 'set', bytes: ALL_BYTES }, min: 0, max: Infinity };
  const options = alternatives.map((a): Node => ({ kind: 'seq', items: [...(a.anchoredStart ? [] : [any]), new Parser(a.source).parse(), ...(a.anchoredEnd ? [] : [any])] }));
  const builder = new Builder(maxPositions, maxEdges);
  return builder.finish(builder.build({ kind: 'alt', options }));
}

/**
 * Whether every word the pattern matches is made of `allowed` bytes only: each alternative
 * anchored at both ends (an unanchored side matches anything around it) and every position
 * reading allowed bytes only. Throws SyntaxError as positionNfa does.
 */
export function readsOnly(alternatives: readonly Alternative[], allowed: (byte: number) => boolean): boolean {
  const within = (node: Node): boolean => {
    switch (node.kind) {
      case 'set':
        return node.bytes.every(allowed);
      case 'seq':
        return node.items.every(within);
      case 'alt':
        return node.options.every(within);
      case 'repeat':
        return node.max === 0 || within(node.item);
    }
  };
  return alternatives.every((a) => a.anchoredStart && a.anchoredEnd && within(new Parser(a.source).parse()));
}
