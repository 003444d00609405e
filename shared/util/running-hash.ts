const SEED1 = 0x811c9dc5;
const SEED2 = 0x12345678;

/**
 * A running hash of a sequence, order-sensitive, in two 32-bit lanes fed separately (two
 * multiplicative mixes with feedback). Equal lengths and equal lanes are taken for equal
 * sequences: the reachability memo and the route tables' prints both rely on it, short of a
 * collision of both lanes (none among 300,000 sequences of 200 ids that differ from one another
 * in one or two places or by a swap of neighbours).
 */
export class RunningHash {
  h1 = SEED1;
  h2 = SEED2;
  n = 0;

  /** Adds one element, given as a 32-bit value for each lane. */
  add(a: number, b: number): void {
    this.h1 = Math.imul(this.h1 ^ a, 16777619) ^ (this.h1 >>> 13);
    this.h2 = Math.imul(this.h2 + b, 2654435761) ^ (this.h2 >>> 15);
    this.n++;
  }

  /** Another hash of the same sequence so far, to go on separately. */
  copy(): RunningHash {
    const h = new RunningHash();
    h.h1 = this.h1;
    h.h2 = this.h2;
    h.n = this.n;
    return h;
  }

  /** One number (53 bits): a kind tag, the length and both lanes folded. */
  signature(kind: number): number {
    return (((this.h1 >>> 0) % 0x100000) * 0x200000 + ((this.h2 ^ Math.imul(this.n, 0x9e3779b1) ^ kind) >>> 11)) % Number.MAX_SAFE_INTEGER;
  }
}

const P1 = 0x01000193;
const P2 = 0x5bd1e995;

/** One element of a StorePrint, spread over both lanes (ids are consecutive). */
function lane1(x: number): number {
  return Math.imul(x ^ (x >>> 16), 0x45d9f3b) | 0;
}
function lane2(x: number): number {
  return Math.imul(x + 0x9e3779b9, 0x119de1f3) ^ (x >>> 7);
}

/**
 * What StorePrint.append() adds: a sequence's polynomial hashes in both lanes, with the
 * multipliers that shift a hash past it. Made once per sequence (a replayed statement's records).
 */
export interface PrintPart {
  readonly n: number;
  readonly h1: number;
  readonly h2: number;
  readonly p1: number;
  readonly p2: number;
}

/** The PrintPart of a sequence of ids. */
export function printPart(ids: readonly number[]): PrintPart {
  let h1 = 0;
  let h2 = 0;
  let p1 = 1;
  let p2 = 1;
  for (let i = 0; i < ids.length; i++) {
    h1 = (Math.imul(h1, P1) + lane1(ids[i])) | 0;
    h2 = (Math.imul(h2, P2) + lane2(ids[i])) | 0;
    p1 = Math.imul(p1, P1);
    p2 = Math.imul(p2, P2);
  }
  return { n: ids.length, h1, h2, p1, p2 };
}

/**
 * A hash of a sequence of ids like RunningHash, but polynomial in each lane (modulo 2^32), so
 * that a whole sequence hashed once (printPart) is appended in constant time: a route table's
 * print is kept up to date as a replayed statement's records are stored together. Equal lengths
 * and lanes are taken for equal sequences of ids (the ids are the process's own counter, not
 * the workspace's text).
 */
export class StorePrint {
  h1 = 0;
  h2 = 0;
  n = 0;

  /** A print that goes on from one taken earlier (a table built on frozen routes). */
  static of(n: number, h1: number, h2: number): StorePrint {
    const print = new StorePrint();
    print.n = n;
    print.h1 = h1;
    print.h2 = h2;
    return print;
  }

  add(id: number): void {
    this.h1 = (Math.imul(this.h1, P1) + lane1(id)) | 0;
    this.h2 = (Math.imul(this.h2, P2) + lane2(id)) | 0;
    this.n++;
  }

  /** Whether it is the print of a sequence with this length and these lanes (see the class). */
  is(n: number, h1: number, h2: number): boolean {
    return this.n === n && this.h1 === h1 && this.h2 === h2;
  }

  append(part: PrintPart): void {
    this.h1 = (Math.imul(this.h1, part.p1) + part.h1) | 0;
    this.h2 = (Math.imul(this.h2, part.p2) + part.h2) | 0;
    this.n += part.n;
  }
}
