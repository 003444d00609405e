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
