import { ByteArena } from '../../util/byte-arena';

/**
 * Automata for route keys, restricted to the URIs that can reach CodeIgniter's router.
 *
 * The universe U: one or more segments joined by `/`, each segment a non-empty string of
 * CodeIgniter's default permitted URI characters `[a-z 0-9~%.:_\-]` (checked case-insensitively,
 * so A-Z too) that neither starts nor ends with a space: CI_URI::_set_uri_string() trims every
 * segment and drops empty ones before the router joins them (the project's router model,
 * uriSegments() in ci-router.ts, does the same). Under UTF8_ENABLED (a UTF-8 `charset`, CodeIgniter's
 * default) the filter's `/iu` also lets through the two characters Unicode folds onto `s` and `k`:
 * `ſ` (U+017F) and the Kelvin sign `K` (U+212A). The router matches keys without `u`, on bytes,
 * so U holds those two as their UTF-8 bytes (C5 BF and E2 84 AA), and every string the automata
 * read (keys, URIs) is written as its UTF-8 bytes, one character per byte (see utf8Bytes).
 * Every language here is intersected with U, so the automata only ever read these 75 symbols:
 * position-nfa.ts builds the translated pattern's position automaton over them (the semantics of
 * the regex), and dfa-build.ts determinises it as a plain table, which makes the many product
 * constructions of an inclusion check cheap.
 */

/** The ASCII symbols of U, `/` first: `/` and CodeIgniter's default permitted characters. */
export const DEFAULT_SYMBOLS = '/ %-.0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';
/** The bytes of `ſ` and `K` beyond them (see U above). */
const FOLDED_BYTES = '\u00c5\u00bf\u00e2\u0084\u00aa';
/** The alphabet of U. */
export const SYMBOLS = DEFAULT_SYMBOLS + FOLDED_BYTES;
export const ALPHABET = SYMBOLS.length;
export const SLASH = 0;
export const SPACE = 1;

/** A symbol by its character code (a byte), or -1. */
export const SYMBOL_OF = new Int8Array(256).fill(-1);
for (let k = 0; k < ALPHABET; k++) SYMBOL_OF[SYMBOLS.charCodeAt(k)] = k;

/** A segment character: a default one, or the bytes of `ſ` or `K`. */
const CHAR = '(?:[A-Za-z0-9~%.:_-]|\xc5\xbf|\xe2\x84\xaa)';
const CHAR_OR_SPACE = '(?:[A-Za-z0-9 ~%.:_-]|\xc5\xbf|\xe2\x84\xaa)';
const SEGMENT = `${CHAR}(?:${CHAR_OR_SPACE}*${CHAR})?`;
const URI = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);

/** Whether the string (as utf8Bytes writes it) is a URI that can reach the router (a word of U). */
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
 * final flags side by side in one buffer, the class map shared with every DFA that has the same
 * one. Unless `sharedClassMap` is false: a literal key's map is its own word's, kept briefly.
 * 32-bit transitions made up most of the memory of a large file's automata (13 MB for 10,000
 * keys; 6.7 MB at 16 bits). A buffer of its own per DFA (about 180 bytes besides its data) lets
 * a cache that forgets automata give their memory back; cut from shared chunks, one kept DFA
 * kept its whole chunk.
 */
export function packDfa(dfa: TableDfa, sharedClassMap = true): TableDfa {
  if (dfa.states === 0) return dfa;
  const width = dfa.states < 0x80 ? 1 : dfa.states < 0x8000 ? 2 : 4;
  const buffer = new ArrayBuffer(dfa.trans.length * width + dfa.final.length);
  const trans =
    width === 1
      ? new Int8Array(buffer, 0, dfa.trans.length)
      : width === 2
        ? new Int16Array(buffer, 0, dfa.trans.length)
        : new Int32Array(buffer, 0, dfa.trans.length);
  trans.set(dfa.trans);
  const final = new Uint8Array(buffer, dfa.trans.length * width, dfa.final.length);
  final.set(dfa.final);
  return { states: dfa.states, classes: dfa.classes, classOf: sharedClassMap ? sharedClassMapOf(dfa.classOf) : dfa.classOf, trans, final };
}

/** Where the shared class maps are stored (they live as long as the process: see MAX_SHARED_CLASS_MAPS). */
const arena = new ByteArena();

function sharedClassMapOf(classOf: Uint8Array): Uint8Array {
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

/** The state after reading `word` from the start, or -1 (dead, or a character outside U's alphabet). */
function walk(dfa: TableDfa, word: string): number {
  if (dfa.states === 0) return -1;
  let state = 0;
  for (let k = 0; k < word.length && state >= 0; k++) {
    const code = word.charCodeAt(k);
    const sym = code < 256 ? SYMBOL_OF[code]! : -1;
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

/** The symbols of each class of a DFA. */
export function members(dfa: TableDfa): number[][] {
  const out: number[][] = Array.from({ length: dfa.classes }, () => []);
  for (let sym = 0; sym < ALPHABET; sym++) out[dfa.classOf[sym]!]!.push(sym);
  return out;
}

/** A shortest word leading from `state` to a final state (one exists: the DFA is trimmed). */
export function shortestCompletion(dfa: TableDfa, state: number): string {
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
