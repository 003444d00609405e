import { StampedMap, type Stamp } from '../../../util/generational-map';
import { RunningHash } from '../../../util/running-hash';
import { fnv1a } from '../../../util/hash-chains';
import type { Coverage, InclusionChecker } from '../../regular/inclusion';

/** What the walk needs to know of a key, computed once per key text. */
interface KeyInfo extends Stamp {
  /** Its literal first segment, if its text shows one. */
  readonly segment: string | null;
  /** With one, its literal second segment, if its text shows one too. */
  readonly second: string | null;
  /** Without a literal first segment: its leading pattern (null: may start with anything). */
  readonly pattern: string | null;
  /** Two 32-bit hashes of the key text. */
  readonly h1: number;
  readonly h2: number;
}

/** A key's decisions by candidates' signature: the first inline (most keys have one), others in a map. */
interface KeyDecisions extends Stamp {
  signature: number;
  coverage: Coverage;
  more?: Map<number, Coverage>;
}

/**
 * Answers by key and the signature of its candidate keys, with candidate positions (not table
 * indices), so they hold wherever the same candidates sit. Two generations: an analysis keeps
 * what it used and what the one before it used, so memory stays flat however long editing goes on.
 */
export class DecisionMemo {
  /** By key, then by the signature of its candidates (keys are table strings: their hash is cached). */
  private readonly decisions = new StampedMap<string, KeyDecisions>();
  private readonly infos = new StampedMap<string, KeyInfo>();

  /** Decisions stored since the last rotation. */
  growth = 0;

  /** Starts a new analysis: what neither it nor the previous one used is dropped. */
  rotate(): void {
    this.growth = 0;
    this.decisions.rotate();
    this.infos.rotate();
  }

  /**
   * A walk that decided every entry is over: what it stored it uses, and is no growth to rotate
   * away (else the first edit after a file opened decided everything again).
   */
  walkedAll(): void {
    this.growth = 0;
  }

  get(key: string, signature: number): Coverage | undefined {
    const d = this.decisions.get(key);
    if (d === undefined) return undefined;
    return d.signature === signature ? d.coverage : d.more?.get(signature);
  }

  set(key: string, signature: number, c: Coverage): void {
    this.growth++;
    const d = this.decisions.get(key);
    if (d === undefined) this.decisions.set(key, { signature, coverage: c, more: undefined, generation: 0 });
    else if (d.signature === signature) d.coverage = c;
    else (d.more ??= new Map()).set(signature, c);
  }

  info(key: string, checker: InclusionChecker): KeyInfo {
    let info = this.infos.get(key);
    if (!info) {
      const segment = checker.firstSegmentOf(key);
      info = { segment, second: segment === null ? null : checker.secondSegmentOf(key), pattern: segment === null ? checker.leadingPatternOf(key) : null, h1: fnv1a(key), h2: hash2(key), generation: 0 };
      this.infos.set(key, info);
    }
    return info;
  }
}

/** The signature of no candidates at all. */
const EMPTY_SIGNATURE = new RunningHash().signature(5);

// Signed 32-bit results (see fnv1a): the running hash reads them modulo 2^32 either way.
function hash2(s: string): number {
  let h = 0x12345678;
  for (let i = 0; i < s.length; i++) h = Math.imul(h + s.charCodeAt(i), 2654435761) ^ (h >>> 15);
  return h | 0;
}

/** Keys in table order, with the running hash of their texts. */
interface KeyList {
  readonly indices: number[];
  readonly hash: RunningHash;
}

interface Bucket extends KeyList {
  /** Leading patterns of wild keys (met so far) that may start with this segment. */
  readonly patterns: (string | null)[];
  /** Its keys by literal second segment (`admin/users/…`), and those whose text shows none. */
  readonly bySecond: Map<string, KeyList>;
  readonly noSecond: KeyList;
}

/**
 * Walks one method's table in order, answering "is key i covered by the keys before it?" with
 * the inclusion checker, and remembering answers by (key, its candidate keys in order).
 *
 * A key whose text shows a literal first segment `s` can only be covered by earlier keys whose
 * first segment is `s` and by earlier keys without a literal first segment whose leading pattern
 * may start with `s`: those are its candidates, and an edit elsewhere in the table changes
 * neither them nor the answer. When its text shows a literal second segment `t` too, the keys of
 * `s` whose second segment is another literal one share no URI with it and are left out (all of
 * Bonfire's contexts are under one first segment, `admin`). A key without one but whose leading pattern is known (`(v[0-9]+)/x`)
 * has as candidates every earlier such key and the buckets whose segment that pattern may start;
 * any other key has every earlier key as candidate.
 */
export class CoverageWalk {
  private readonly buckets = new Map<string, Bucket>();
  /** Earlier keys without a literal first segment, by leading pattern (null: may start with anything). */
  private readonly wild = new Map<string | null, number[]>();
  /** Every earlier key without a literal first segment, in order, and their running hash. */
  private readonly wildAll: number[] = [];
  private readonly wildHash = new RunningHash();
  private readonly all = new RunningHash();
  /** Per leading pattern met so far: the bucket segments it may start (kept up to date as buckets appear). */
  private readonly segmentsOf = new Map<string, string[]>();
  private next = 0;
  /** Each key visited so far, by table index: its info without a look-up by text (a candidate list is walked once per key). */
  private readonly infoAt: KeyInfo[] = [];
  /** The last bucket's merged candidates (see mergedFor). */
  private lastMerged: { bucket: Bucket; candidates: number[]; hash: RunningHash; wildSeen: number; ownSeen: number; /** `candidates` is a wild list itself: copied before it is extended. */ shared: boolean } | undefined;
  /** Per leading pattern (null: may start with anything): the running hash of its wild keys, in order. */
  private readonly wildHashes = new Map<string | null, RunningHash>();

  constructor(
    private readonly checker: InclusionChecker,
    private readonly memo: DecisionMemo,
    private readonly keys: readonly string[],
  ) {}

  /** Coverage of key i by keys 0..i-1 (indices into the table); call for i = 0, 1, 2… in order. */
  coverage(i: number): Coverage {
    const key = this.visit(i);
    const info = this.memo.info(key, this.checker);
    let result: Coverage;
    if (info.segment !== null) {
      const bucket = this.bucket(info.segment);
      if (info.second !== null) {
        result = this.decideInSecond(key, bucket, info.second);
      } else if (bucket.patterns.length === 0) {
        result = this.decideAmong(key, bucket.hash.signature(1), bucket.indices);
      } else {
        const merged = this.mergedFor(bucket);
        result = this.decideAmong(key, merged.hash.signature(2), merged.candidates);
      }
    } else if (info.pattern !== null) {
      const segments = this.segmentsFor(info.pattern);
      if (segments.length === 0) {
        result = this.decideAmong(key, this.wildHash.signature(3), this.wildAll);
      } else if (segments.length === this.buckets.size) {
        // It may start every segment met so far (`(:any)/x`): every earlier key is a candidate,
        // as for a key that may start with anything, without listing them.
        result = this.decideAmongAll(key, i);
      } else {
        const candidates = mergeSorted([this.wildAll, ...segments.map((s) => this.buckets.get(s)!.indices)]);
        result = this.decideAmong(key, this.sequenceSignature(candidates), candidates);
      }
    } else {
      result = this.decideAmongAll(key, i);
    }
    this.add(i, info);
    return result;
  }

  /** Moves past key i without deciding it (its answer is computed another way). */
  skip(i: number): void {
    const key = this.visit(i);
    this.add(i, this.memo.info(key, this.checker));
  }

  private visit(i: number): string {
    if (i !== this.next) throw new Error('CoverageWalk: keys must be visited in order');
    this.next++;
    return this.keys[i]!;
  }

  /** Decides key i against every earlier key, remembered by the running hash of the whole table so far. */
  private decideAmongAll(key: string, i: number): Coverage {
    const signature = this.all.signature(4);
    return this.memo.get(key, signature) ?? this.store(key, signature, this.checker.coverage(key, this.keys, i));
  }

  /** Decides a key against explicit candidates (table indices), remembered by position. */
  private decideAmong(key: string, signature: number, candidates: readonly number[]): Coverage {
    const byPosition = this.memo.get(key, signature) ?? this.store(key, signature, this.checker.coverageAmong(key, candidates.map((j) => this.keys[j]!)));
    return byPosition.kind === 'covered' ? { kind: 'covered', by: byPosition.by.map((p) => candidates[p]!) } : byPosition;
  }

  /** Decides a key of a literal first and second segment against the keys that may share its URIs (see the class). */
  private decideInSecond(key: string, bucket: Bucket, second: string): Coverage {
    const own = bucket.bySecond.get(second);
    if (bucket.patterns.length === 0 && bucket.noSecond.indices.length === 0) {
      return own ? this.decideAmong(key, own.hash.signature(5), own.indices) : this.decideAmong(key, EMPTY_SIGNATURE, []);
    }
    const candidates = mergeSorted([...bucket.patterns.map((p) => this.wild.get(p)!), bucket.noSecond.indices, own?.indices ?? []]);
    return this.decideAmong(key, this.sequenceSignature(candidates), candidates);
  }

  /**
   * A bucket's candidates with the wild keys that may start its segment, in table order, and their
   * running hash. Keys of one segment often follow one another: while no wild key came between
   * them, the last bucket's list is extended by its own new keys (all later than the rest) instead
   * of merged again; one list is kept, so memory stays that of one key's candidates.
   */
  private mergedFor(bucket: Bucket): { candidates: readonly number[]; hash: RunningHash } {
    const m = this.lastMerged;
    if (m && m.bucket === bucket && m.wildSeen === this.wildAll.length) {
      if (m.ownSeen < bucket.indices.length && m.shared) {
        m.candidates = m.candidates.slice();
        m.shared = false;
      }
      for (let k = m.ownSeen; k < bucket.indices.length; k++) {
        const j = bucket.indices[k]!;
        const info = this.infoAt[j]!;
        m.candidates.push(j);
        m.hash.add(info.h1, info.h2);
      }
      m.ownSeen = bucket.indices.length;
      return m;
    }
    const own = bucket.indices;
    let candidates: number[];
    let hash: RunningHash;
    let shared = false;
    const single = bucket.patterns.length === 1 ? this.wild.get(bucket.patterns[0]!)! : undefined;
    if (single && (own.length === 0 || single[single.length - 1]! < own[0]!)) {
      // One wild list, all before the bucket's own keys: its running hash goes on with them.
      hash = this.wildHashes.get(bucket.patterns[0]!)!.copy();
      candidates = own.length === 0 ? single : single.concat(own);
      shared = own.length === 0;
      for (const j of own) {
        const info = this.infoAt[j]!;
        hash.add(info.h1, info.h2);
      }
    } else {
      candidates = mergeSorted([...bucket.patterns.map((p) => this.wild.get(p)!), own]);
      hash = this.hashOf(candidates);
    }
    this.lastMerged = { bucket, candidates, hash, shared, wildSeen: this.wildAll.length, ownSeen: own.length };
    return this.lastMerged;
  }

  private sequenceSignature(candidates: readonly number[]): number {
    return this.hashOf(candidates).signature(2);
  }

  /** The running hash of candidate keys (table indices), in their order. */
  private hashOf(candidates: readonly number[]): RunningHash {
    const h = new RunningHash();
    for (const j of candidates) {
      const info = this.infoAt[j]!;
      h.add(info.h1, info.h2);
    }
    return h;
  }

  private bucket(segment: string): Bucket {
    let bucket = this.buckets.get(segment);
    if (!bucket) {
      const patterns = [...this.wild.keys()].filter((p) => this.checker.mayStartWith(p, segment));
      this.buckets.set(segment, (bucket = { indices: [], hash: new RunningHash(), patterns, bySecond: new Map(), noSecond: { indices: [], hash: new RunningHash() } }));
      for (const [pattern, segments] of this.segmentsOf) if (this.checker.mayStartWith(pattern, segment)) segments.push(segment);
    }
    return bucket;
  }

  /** The bucket segments a leading pattern may start, among the buckets met so far. */
  private segmentsFor(pattern: string): string[] {
    let segments = this.segmentsOf.get(pattern);
    if (!segments) {
      segments = [...this.buckets.keys()].filter((s) => this.checker.mayStartWith(pattern, s));
      this.segmentsOf.set(pattern, segments);
    }
    return segments;
  }

  private store(key: string, signature: number, c: Coverage): Coverage {
    this.memo.set(key, signature, c);
    return c;
  }

  private add(i: number, info: KeyInfo): void {
    this.infoAt[i] = info;
    this.all.add(info.h1, info.h2);
    if (info.segment !== null) {
      const bucket = this.bucket(info.segment);
      bucket.indices.push(i);
      bucket.hash.add(info.h1, info.h2);
      let list = info.second === null ? bucket.noSecond : bucket.bySecond.get(info.second);
      if (!list) bucket.bySecond.set(info.second!, (list = { indices: [], hash: new RunningHash() }));
      list.indices.push(i);
      list.hash.add(info.h1, info.h2);
      return;
    }
    this.wildAll.push(i);
    this.wildHash.add(info.h1, info.h2);
    let patternHash = this.wildHashes.get(info.pattern);
    if (!patternHash) this.wildHashes.set(info.pattern, (patternHash = new RunningHash()));
    patternHash.add(info.h1, info.h2);
    const list = this.wild.get(info.pattern);
    if (list) list.push(i);
    else {
      this.wild.set(info.pattern, [i]);
      // A new leading pattern: the buckets it may start now list it.
      for (const [segment, bucket] of this.buckets) if (this.checker.mayStartWith(info.pattern, segment)) bucket.patterns.push(info.pattern);
    }
  }
}

/** The ascending merge of ascending lists of distinct indices (each list's own, none shared). */
function mergeSorted(lists: readonly (readonly number[])[]): number[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return nonEmpty[0]!.slice();
  if (nonEmpty.length === 2) {
    const [a, b] = nonEmpty as [readonly number[], readonly number[]];
    const out = new Array<number>(a.length + b.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
    while (i < a.length) out[k++] = a[i++]!;
    while (j < b.length) out[k++] = b[j++]!;
    return out;
  }
  return nonEmpty.flat().sort((x, y) => x - y);
}
