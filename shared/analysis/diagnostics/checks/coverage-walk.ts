import { leadingPattern } from '../../inclusion-syntax';
import type { Coverage, InclusionChecker } from '../../inclusion';

/**
 * Answers with candidate positions (not table indices), so that they hold wherever the same
 * candidate keys sit. Two generations: an analysis keeps what it used and what the one before it
 * used, so memory stays flat however long the editing goes on.
 */
export class DecisionMemo {
  /** By key, then by the signature of its candidates (keys are table strings: their hash is cached). */
  private current = new Map<string, Map<string, Coverage>>();
  private previous = new Map<string, Map<string, Coverage>>();

  /** Starts a new analysis: answers neither it nor the previous one used are dropped. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  get(key: string, signature: string): Coverage | undefined {
    let c = this.current.get(key)?.get(signature);
    if (c === undefined) {
      c = this.previous.get(key)?.get(signature);
      if (c !== undefined) this.set(key, signature, c);
    }
    return c;
  }

  set(key: string, signature: string, c: Coverage): void {
    let bySignature = this.current.get(key);
    if (!bySignature) this.current.set(key, (bySignature = new Map()));
    bySignature.set(signature, c);
  }
}

const SEED1 = 0x811c9dc5;
const SEED2 = 0x12345678;

/** Folds a key into two running 32-bit hashes (order-sensitive; a separator keeps ['ab','c'] ≠ ['a','bc']). */
function fold(h: [number, number], s: string): [number, number] {
  let h1 = h[0];
  let h2 = h[1];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = Math.imul(h2 + c, 2654435761) ^ (h2 >>> 15);
  }
  return [Math.imul(h1 ^ 0x1f, 16777619), Math.imul(h2 + 0x1f, 2654435761)];
}

/**
 * Walks one method's table in order, answering "is key i covered by the keys before it?" with
 * the inclusion checker, and remembering answers by (key, its candidate keys in order).
 *
 * A key whose text shows a literal first segment `s` can only be covered by earlier keys whose
 * first segment is `s` and by earlier keys without a literal first segment whose leading pattern
 * may start with `s`: those are its candidates, and an edit elsewhere in the table changes
 * neither them nor the answer. Other keys have every earlier key as candidate.
 */
export class CoverageWalk {
  private readonly buckets = new Map<string, { indices: number[]; hash: [number, number] }>();
  /** Earlier keys without a literal first segment, by leading pattern (null: may start with anything). */
  private readonly wild = new Map<string | null, number[]>();
  private all: [number, number] = [SEED1, SEED2];
  private next = 0;

  constructor(
    private readonly checker: InclusionChecker,
    private readonly memo: DecisionMemo,
    private readonly keys: readonly string[],
  ) {}

  /** Coverage of key i by keys 0..i-1 (indices into the table); call for i = 0, 1, 2… in order. */
  coverage(i: number): Coverage {
    if (i !== this.next) throw new Error('CoverageWalk: keys must be visited in order');
    this.next++;
    const key = this.keys[i]!;
    const segment = this.checker.firstSegmentOf(key);
    let result: Coverage;
    if (segment === null) {
      const signature = `g${this.all[0]}.${this.all[1]}.${i}`;
      result = this.memo.get(key, signature) ?? this.store(key, signature, this.checker.coverage(key, this.keys, i));
    } else {
      const bucket = this.buckets.get(segment);
      const lists: number[][] = [];
      for (const [pattern, indices] of this.wild) if (this.checker.mayStartWith(pattern, segment)) lists.push(indices);
      let candidates: number[];
      let signature: string;
      if (lists.length === 0) {
        candidates = bucket?.indices ?? [];
        signature = bucket ? `b${bucket.hash[0]}.${bucket.hash[1]}.${candidates.length}` : 'b';
      } else {
        if (bucket) lists.push(bucket.indices);
        candidates = lists.flat().sort((a, b) => a - b);
        let h: [number, number] = [SEED1, SEED2];
        for (const j of candidates) h = fold(h, this.keys[j]!);
        signature = `m${h[0]}.${h[1]}.${candidates.length}`;
      }
      const byPosition = this.memo.get(key, signature) ?? this.store(key, signature, this.checker.coverageAmong(key, candidates.map((j) => this.keys[j]!)));
      result = byPosition.kind === 'covered' ? { kind: 'covered', by: byPosition.by.map((p) => candidates[p]!) } : byPosition;
    }
    this.add(i, key, segment);
    return result;
  }

  /** Moves past key i without deciding it (its answer is computed another way). */
  skip(i: number): void {
    if (i !== this.next) throw new Error('CoverageWalk: keys must be visited in order');
    this.next++;
    const key = this.keys[i]!;
    this.add(i, key, this.checker.firstSegmentOf(key));
  }

  private store(key: string, signature: string, c: Coverage): Coverage {
    this.memo.set(key, signature, c);
    return c;
  }

  private add(i: number, key: string, segment: string | null): void {
    this.all = fold(this.all, key);
    if (segment !== null) {
      const bucket = this.buckets.get(segment);
      if (bucket) {
        bucket.indices.push(i);
        bucket.hash = fold(bucket.hash, key);
      } else this.buckets.set(segment, { indices: [i], hash: fold([SEED1, SEED2], key) });
      return;
    }
    const pattern = leadingPattern(key);
    const list = this.wild.get(pattern);
    if (list) list.push(i);
    else this.wild.set(pattern, [i]);
  }
}
