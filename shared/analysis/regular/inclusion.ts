import { GenerationalMap, StampedMap, type Stamp } from '../../util/generational-map';
import { fnv1a } from '../../util/hash-chains';
import { describeKey, leadingPattern, translateExpanded, type ExpandKey, type KeyText, type Translation } from './inclusion-syntax';
import { accepts, isRoutableUri, mayStartWith, packDfa, type TableDfa } from './pattern-automata';
import { utf8Bytes } from '../../util/utf8-bytes';
import { buildDfa, DEFAULT_LIMITS, literalDfa, TooLargeError, type BuildLimits } from './dfa-build';
import { sampleWords, summarise, type Summary } from './dfa-facts';
import { ProductBudget, unionCovers } from './dfa-products';

/**
 * Exact inclusion of CodeIgniter route patterns: is every URI a key matches already matched by
 * the earlier keys of the table?
 *
 * Languages are those of `preg_match('#^KEY$#', $uri)` (after `:any`/`:num` expansion) on the
 * URIs that can reach the router: one or more non-empty segments joined by `/`, each made of
 * `[A-Za-z0-9 ~%.:_\-]` (CodeIgniter's default permitted_uri_chars, case-insensitive) and not
 * starting or ending with a space (CodeIgniter trims segments). `^` binds to the first top-level
 * alternative only and `$` to the last one, as in PCRE; a key with one alternative is anchored
 * at both ends. Patterns are
 * translated to JavaScript syntax (inclusion-syntax.ts), made position automata (position-nfa.ts) and
 * decided on DFAs over U's 75 symbols (pattern-automata.ts). Whatever cannot be translated exactly
 * gives 'unknown', never a guess.
 */
export type Coverage =
  | { kind: 'covered'; by: number[] }
  | { kind: 'empty' }
  /** `witness`: a URI the key matches and no earlier key does, when one was met (see InclusionChecker.mayMatch). */
  | { kind: 'not-covered'; witness?: string }
  | { kind: 'unknown'; reason: string };

/** The answers without details, shared: memos keep one per key of a large file. */
const NOT_COVERED: Coverage = Object.freeze({ kind: 'not-covered' });
const EMPTY: Coverage = Object.freeze({ kind: 'empty' });

/** A key's DFA (∩ URIs) and its summary, or why it could not be built. */
type Automaton = { dfa: TableDfa; summary: Summary } | { error: string };

/**
 * Everything known about one key; cached per key text. Its text's expansion, literal form and
 * textual segments (cheap, computed for every earlier key) are its own fields, and so is its
 * cache stamp: no object beside it per key (tens of thousands in a large file).
 */
interface Entry extends KeyText, Stamp {
  readonly key: string;
  /** Translated on demand. */
  translation?: Translation;
  /** Built on demand: the DFA (∩ URIs) and its summary, or why it could not be built (literal keys' are kept apart); forgotten when unused for long (see keep()). */
  automaton?: Automaton;
  /** The automata generation that last used `automaton`. */
  usedIn: number;
  /** A few words of the key's language (for the cheap rejection), computed on first use. */
  samples?: string[];
}

export interface InclusionStats {
  /** Automata built (each key's at most once while it stays cached). */
  automataBuilt: number;
  /** Entries created (translation and textual summary of a key). */
  entriesCreated: number;
}

export interface InclusionOptions {
  /** How keys' wildcards are written out (CodeIgniter's by default; a module routes file's `:any` is `.+`). */
  readonly expandKey?: ExpandKey;
  /** Size guards for one key's automaton. */
  readonly limits?: BuildLimits;
  /** Most product states one inclusion check may explore before giving up with 'unknown'. */
  readonly maxProductStates?: number;
  /** Candidate sets up to this size are reduced to an irredundant `by` (one check per member). */
  readonly maxReduce?: number;
  /** Work all the product constructions of one decision may do before it gives up with 'unknown'. */
  readonly maxProductWork?: number;
  /** Automata of keys with a literal first segment kept per generation (see AUTOMATA_PER_GENERATION). */
  readonly automataPerGeneration?: number;
}

/** About 50 ms of products per decision; a large file's decisions take a few hundred units each. */
const DEFAULT_PRODUCT_WORK = 3_000_000;

/**
 * Keys (with their automata) are kept in two generations of this many: when the current one is
 * full it becomes the previous one, and what is used again moves back. A file's working set
 * stays; keys of versions typed long ago go, so memory stays flat however long editing goes on.
 */
const KEYS_PER_GENERATION = 20_000;

/** Literal keys' automata kept, per generation: a key's candidates are mostly its neighbours. */
const LITERAL_AUTOMATA_PER_GENERATION = 256;

/**
 * Automata of keys with a literal first segment kept, per generation: those used in the current
 * or the previous one stay. A decision reads its key's automaton and its candidates', mostly its
 * neighbours in the table; once decided, a key's answer is remembered by the caller
 * (DecisionMemo), and its automaton is needed again only when an edit changes its candidates.
 * Context-heavy files at 10,000 declarations kept 27,000 automata, 46 MB. Keys without a literal
 * first segment are candidates of nearly every decision: theirs are always kept.
 */
const AUTOMATA_PER_GENERATION = 2048;

/** The translation of a key whose automaton is built. */
const TRANSLATED: Translation = Object.freeze({ ok: true, alternatives: Object.freeze([]) });

export class InclusionChecker {
  readonly stats: InclusionStats = { automataBuilt: 0, entriesCreated: 0 };
  private readonly limits: BuildLimits;
  private readonly expandKey: ExpandKey | undefined;
  private readonly maxProductStates: number;
  private readonly maxReduce: number;
  private readonly maxProductWork: number;
  private readonly automataPerGeneration: number;
  /** What the decision under way may still spend on products (see decide()). */
  private budget = new ProductBudget(0);
  private readonly cache = new StampedMap<string, Entry>(KEYS_PER_GENERATION);
  /** The automata of the literal keys used last (see automaton()). */
  private readonly literalAutomata = new GenerationalMap<string, Automaton>(LITERAL_AUTOMATA_PER_GENERATION);
  /** The generation of automata in use (see AUTOMATA_PER_GENERATION), and the entries that hold one, by generation. */
  private automataGeneration = 0;
  private holdersNow: Entry[] = [];
  private holdersBefore: Entry[] = [];

  /**
   * Index of the last `earlier` list, kept incrementally: calls made in table order (earlier
   * growing by one key each time) only append to it.
   */
  private indexKeys: string[] = [];
  private indexEntries: Entry[] = [];
  private buckets = new Map<string, number[]>();
  /** Earlier keys without a textual first segment (they may start with anything). */
  private wild: number[] = [];

  constructor(options: InclusionOptions = {}) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.expandKey = options.expandKey;
    this.maxProductStates = options.maxProductStates ?? 200_000;
    this.maxReduce = options.maxReduce ?? 16;
    this.maxProductWork = options.maxProductWork ?? DEFAULT_PRODUCT_WORK;
    this.automataPerGeneration = options.automataPerGeneration ?? AUTOMATA_PER_GENERATION;
  }

  /** `key` is the raw route key as written in $route; earlier keys likewise, in table order. */
  coverage(key: string, earlier: readonly string[], count = earlier.length): Coverage {
    try {
      return this.decide(key, earlier, count);
    } catch (err) {
      if (err instanceof TooLargeError) return { kind: 'unknown', reason: err.message };
      return { kind: 'unknown', reason: `internal error: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /**
   * Like coverage(), for a short list of candidates chosen by the caller, without disturbing the
   * index of the table being walked (so that walk keeps only appending to it).
   */
  coverageAmong(key: string, candidates: readonly string[]): Coverage {
    const saved = { keys: this.indexKeys, entries: this.indexEntries, buckets: this.buckets, wild: this.wild, source: this.indexSource };
    this.indexKeys = [];
    this.indexEntries = [];
    this.buckets = new Map();
    this.wild = [];
    this.indexSource = undefined;
    try {
      return this.coverage(key, candidates);
    } finally {
      this.indexKeys = saved.keys;
      this.indexEntries = saved.entries;
      this.buckets = saved.buckets;
      this.wild = saved.wild;
      this.indexSource = saved.source;
    }
  }

  /** See leadingPattern (under this checker's wildcards). */
  leadingPatternOf(key: string): string | null {
    return leadingPattern(key, this.expandKey);
  }

  /** The literal first segment every match of the key starts with, when its text shows one. */
  firstSegmentOf(key: string): string | null {
    return this.entry(key).firstSegment;
  }

  /** With a literal first segment, the literal second one every match goes on with, when its text shows one. */
  secondSegmentOf(key: string): string | null {
    return this.entry(key).secondSegment;
  }

  private readonly startsWith = new Map<string, boolean>();

  /**
   * Whether a key's leading pattern (see leadingPattern; null: unknown) may match a URI prefix
   * that is `segment` or starts with `segment/`. True when it cannot be decided.
   */
  mayStartWith(pattern: string | null, segment: string): boolean {
    if (pattern === null) return true;
    const memo = `${pattern}\u0000${segment}`;
    let answer = this.startsWith.get(memo);
    if (answer === undefined) {
      const entry = this.entry(pattern);
      const built = this.translation(entry).ok ? this.automaton(entry) : undefined;
      answer = !built || 'error' in built || mayStartWith(built.dfa, segment);
      if (this.startsWith.size >= KEYS_PER_GENERATION) this.startsWith.clear();
      this.startsWith.set(memo, answer);
    }
    return answer;
  }

  /**
   * Whether `key` may match the URI `uri`: false only when it certainly does not (its automaton
   * rejects it, or CodeIgniter's delimiter makes it match nothing); true when it cannot be analysed.
   */
  mayMatch(key: string, uri: string): boolean {
    const built = this.analysed(this.entry(key));
    return built !== undefined && ('reason' in built || accepts(built.dfa, uri));
  }

  /** Drops every cached automaton and the index. */
  clear(): void {
    this.cache.clear();
    this.literalAutomata.clear();
    this.holdersNow = [];
    this.holdersBefore = [];
    this.syncIndex([], 0);
  }

  private decide(key: string, earlier: readonly string[], count: number): Coverage {
    // One budget per decision, whatever the caches hold: the answer is the same on every analysis.
    this.budget = new ProductBudget(this.maxProductWork);
    const entry = this.entry(key);
    const translation = this.translation(entry);
    if (!translation.ok) return { kind: 'unknown', reason: translation.reason };
    this.syncIndex(earlier, count);

    if (entry.literal !== null) return this.literalCoverage(entry.literal);

    const own = this.automaton(entry);
    if ('error' in own) return { kind: 'unknown', reason: own.error };
    if (own.dfa.states === 0) return EMPTY;
    // A key that may start with many segments has many candidates; a word of it that none of the
    // few keys able to match that word's first segment matches settles it without listing them.
    if (entry.firstSegment === null) {
      const witness = this.unmatchedSample(entry, own.dfa, key);
      if (witness !== undefined) return { kind: 'not-covered', witness };
    }

    let blocked: { index: number; reason: string } | undefined;
    const indices: number[] = [];
    const dfas: TableDfa[] = [];
    for (const index of this.candidates(own.summary.firstSegments, own.dfa)) {
      const built = this.candidateAutomaton(index);
      if (built === undefined) continue;
      if ('reason' in built) {
        blocked ??= { index, reason: built.reason };
        continue;
      }
      if (built.dfa.states === 0 || !mayOverlap(own.summary, built.summary)) continue;
      indices.push(index);
      dfas.push(built.dfa);
    }

    const notCovered: Coverage = blocked ? this.blockedBy(blocked) : NOT_COVERED;
    // A key without a literal first segment is told with a witness (a URI it matches and no
    // earlier key does): an edit that adds no key matching it leaves it reachable, undecided again.
    const witnessed = !blocked && entry.firstSegment === null;
    // Nothing earlier can match any of its URIs (most keys of a large file): no sample words needed.
    if (dfas.length === 0) {
      if (!witnessed) return notCovered;
      const [word] = this.samplesOf(entry, own.dfa, key);
      return word === undefined ? notCovered : { kind: 'not-covered', witness: word };
    }

    // Cheap rejection and pruning: a few words of the key, each tested on every candidate. A
    // word no candidate accepts settles it; only a candidate accepting all of them can cover alone.
    const samples = this.samplesOf(entry, own.dfa, key);
    const acceptsAll = dfas.map(() => true);
    for (const word of samples) {
      let anyone = false;
      dfas.forEach((dfa, k) => {
        if (accepts(dfa, word)) anyone = true;
        else acceptsAll[k] = false;
      });
      if (!anyone) return witnessed ? { kind: 'not-covered', witness: word } : notCovered;
    }
    for (let k = 0; k < dfas.length; k++) {
      if (acceptsAll[k] && unionCovers(own.dfa, [dfas[k]!], this.maxProductStates, this.budget).covered) return { kind: 'covered', by: [indices[k]!] };
    }

    const result = unionCovers(own.dfa, dfas, this.maxProductStates, this.budget);
    if (!result.covered) return notCovered;
    const overlapping: number[] = [];
    result.overlapping.forEach((hit, k) => {
      if (hit) overlapping.push(k);
    });
    return { kind: 'covered', by: this.reduce(own.dfa, overlapping, dfas).map((k) => indices[k]!) };
  }

  /**
   * An earlier key's automaton; `{ reason }` when it cannot be analysed (it may cover anything),
   * undefined when it can never match (CodeIgniter's `#` delimiter breaks it) and so never counts.
   */
  private candidateAutomaton(index: number): { dfa: TableDfa; summary: Summary } | { reason: string } | undefined {
    return this.analysed(this.indexEntries[index]!);
  }

  /** A key's automaton; `{ reason }` when it cannot be analysed, undefined when it can never match (see candidateAutomaton). */
  private analysed(entry: Entry): { dfa: TableDfa; summary: Summary } | { reason: string } | undefined {
    const t = this.translation(entry);
    if (!t.ok) return t.delimiter ? undefined : { reason: t.reason };
    const built = this.automaton(entry);
    return 'error' in built ? { reason: built.error } : built;
  }

  /** A few words of a key's automaton, drawn once per key (its seed is the key's hash, so the same on every analysis). */
  private samplesOf(entry: Entry, dfa: TableDfa, key: string): readonly string[] {
    return (entry.samples ??= sampleWords(dfa, 6, fnv1a(key) >>> 0));
  }

  /**
   * A sample word of the key that no earlier key matches, tried only on the earlier keys that may
   * match it: those of its first segment's bucket and those without a literal first segment.
   * Undefined when each sample is matched, or one of those keys cannot be analysed (the whole
   * decision then says what it can).
   */
  private unmatchedSample(entry: Entry, dfa: TableDfa, key: string): string | undefined {
    for (const word of this.samplesOf(entry, dfa, key)) {
      const slash = word.indexOf('/');
      const bucket = this.buckets.get(slash < 0 ? word : word.slice(0, slash));
      let matched = false;
      for (const list of bucket ? [this.wild, bucket] : [this.wild]) {
        for (const index of list) {
          const built = this.candidateAutomaton(index);
          if (built === undefined) continue;
          if ('reason' in built) return undefined;
          if (built.dfa.states > 0 && accepts(built.dfa, word)) {
            matched = true;
            break;
          }
        }
        if (matched) break;
      }
      if (!matched) return word;
    }
    return undefined;
  }

  /** A literal key has one possible URI: test it on each candidate, no key automaton needed. */
  private literalCoverage(uri: string): Coverage {
    if (!isRoutableUri(uri)) return EMPTY;
    const segments = uri.split('/');
    let blocked: { index: number; reason: string } | undefined;
    for (const index of this.candidates([segments[0]!])) {
      const built = this.candidateAutomaton(index);
      if (built === undefined) continue;
      if ('reason' in built) {
        blocked ??= { index, reason: built.reason };
        continue;
      }
      const { minSegments, maxSegments } = built.summary;
      if (segments.length < minSegments || segments.length > maxSegments) continue;
      if (accepts(built.dfa, uri)) return { kind: 'covered', by: [index] };
    }
    return blocked ? this.blockedBy(blocked) : NOT_COVERED;
  }

  /**
   * A small set of candidates that still covers the key (none covers it alone): the overlapping
   * ones, reduced (when few) by dropping, latest first, each that the others make redundant.
   */
  private reduce(key: TableDfa, overlapping: number[], dfas: readonly TableDfa[]): number[] {
    if (overlapping.length > this.maxReduce) return overlapping;
    const kept = [...overlapping];
    try {
      for (let at = kept.length - 1; at >= 0 && kept.length > 1; at--) {
        const without = kept.filter((_, k) => k !== at);
        if (unionCovers(key, without.map((k) => dfas[k]!), this.maxProductStates, this.budget).covered) kept.splice(at, 1);
      }
    } catch (err) {
      if (!(err instanceof TooLargeError)) throw err;
      // coverage itself is established: keep what could not be reduced
    }
    return kept;
  }

  private blockedBy(blocked: { index: number; reason: string }): Coverage {
    const key = this.indexKeys[blocked.index]!;
    return {
      kind: 'unknown',
      reason: `earlier pattern #${blocked.index} "${key}" cannot be analysed: ${blocked.reason}`,
    };
  }

  /** Indices (ascending) of earlier keys whose first segment may be one of `firstSegments`. */
  private candidates(firstSegments: readonly string[] | null, own?: TableDfa): Iterable<number> {
    if (firstSegments === null) {
      if (!own) return this.indexKeys.keys();
      // Infinitely many first segments (`(v[0-9]+)/x`): still, most literal first segments of
      // earlier keys cannot be one of them, and a one-character walk says so.
      const lists: number[][] = [this.wild];
      for (const [segment, bucket] of this.buckets) if (mayStartWith(own, segment)) lists.push(bucket);
      return mergeSorted(lists);
    }
    const lists: number[][] = [this.wild];
    for (const segment of firstSegments) {
      const bucket = this.buckets.get(segment);
      if (bucket) lists.push(bucket);
    }
    if (lists.length === 1) return this.wild;
    return mergeSorted(lists);
  }

  private entry(key: string): Entry {
    let entry = this.cache.get(key);
    if (!entry) {
      // Every field from the start: added later, they went to a property store of their own (0.2 MB at 10,000 keys).
      // Read as the router's preg_match() reads it, on bytes (see utf8Bytes).
      const text = describeKey(utf8Bytes(key), this.expandKey);
      entry = { key, expanded: text.expanded, literal: text.literal, firstSegment: text.firstSegment, secondSegment: text.secondSegment, translation: undefined, automaton: undefined, usedIn: -1, samples: undefined, generation: 0 };
      this.stats.entriesCreated++;
      this.cache.set(key, entry);
    }
    return entry;
  }

  private translation(entry: Entry): Translation {
    return (entry.translation ??= translateExpanded(entry.expanded));
  }

  private automaton(entry: Entry): Automaton {
    const kept = entry.automaton;
    if (kept) {
      if (entry.usedIn !== this.automataGeneration) this.keep(entry, kept);
      return kept;
    }
    // A literal key's automaton is a chain of its characters, rebuilt in microseconds: only the
    // few last used are kept (they were a third of the cache's memory at 10,000 declarations).
    if (entry.literal !== null) {
      let built = this.literalAutomata.get(entry.literal);
      if (!built) this.literalAutomata.set(entry.literal, (built = this.build(entry)));
      return built;
    }
    const built = this.build(entry);
    this.keep(entry, built);
    return built;
  }

  /**
   * Keeps an entry's automaton, stamped as used in this generation; when the generation is full,
   * first forgets those neither it nor the one before used (see AUTOMATA_PER_GENERATION).
   */
  private keep(entry: Entry, automaton: Automaton): void {
    if (entry.firstSegment !== null && entry.usedIn !== this.automataGeneration) {
      if (this.holdersNow.length >= this.automataPerGeneration) {
        const current = this.automataGeneration;
        for (const held of this.holdersBefore) if (held.usedIn < current) held.automaton = undefined;
        this.holdersBefore = this.holdersNow;
        this.holdersNow = [];
        this.automataGeneration++;
      }
      entry.usedIn = this.automataGeneration;
      this.holdersNow.push(entry);
    }
    entry.automaton = automaton;
  }

  private build(entry: Entry): Automaton {
    this.stats.automataBuilt++;
    try {
      // Built again after it was forgotten: the translation kept is only a flag (see below).
      const translation = entry.translation === TRANSLATED && entry.literal === null ? translateExpanded(entry.expanded) : this.translation(entry);
      if (!translation.ok) throw new Error(translation.reason);
      // A literal key's class map (its own characters) would only fill the map of shared ones.
      const dfa = entry.literal !== null ? packDfa(literalDfa(entry.literal), false) : packDfa(buildDfa(translation.alternatives, this.limits));
      // Only whether it translated is read from now on: the cache keeps thousands of keys.
      entry.translation = TRANSLATED;
      return { dfa, summary: summarise(dfa) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { error: err instanceof TooLargeError ? message : `the pattern cannot be parsed as a regular expression: ${message}` };
    }
  }

  /** Makes the index describe `earlier`, reusing the common prefix with the previous call. */
  /** The array the index was last synced from: a caller walking one table passes it again and again. */
  private indexSource: readonly string[] | undefined;

  private syncIndex(source: readonly string[], count: number): void {
    const keys = this.indexKeys;
    let common = 0;
    if (source === this.indexSource && count >= keys.length) {
      // The same (unchanged) table, further along: everything indexed so far still holds.
      common = keys.length;
    } else {
      const limit = Math.min(keys.length, count);
      while (common < limit && keys[common] === source[common]) common++;
    }
    this.indexSource = source;
    for (let k = keys.length - 1; k >= common; k--) {
      const entry = this.indexEntries[k]!;
      const list = entry.firstSegment !== null ? this.buckets.get(entry.firstSegment)! : this.wild;
      list.pop();
      if (entry.firstSegment !== null && list.length === 0) this.buckets.delete(entry.firstSegment);
    }
    keys.length = common;
    this.indexEntries.length = common;
    for (let k = common; k < count; k++) {
      const entry = this.entry(source[k]!);
      keys.push(source[k]!);
      this.indexEntries.push(entry);
      if (entry.firstSegment !== null) {
        let bucket = this.buckets.get(entry.firstSegment);
        if (!bucket) this.buckets.set(entry.firstSegment, (bucket = []));
        bucket.push(k);
      } else this.wild.push(k);
    }
  }
}

/** Whether two summarised languages can share a word (false only when they surely cannot). */
function mayOverlap(a: Summary, b: Summary): boolean {
  if (a.maxSegments < b.minSegments || b.maxSegments < a.minSegments) return false;
  if (a.firstSegments && b.firstSegments) {
    for (const s of a.firstSegments) if (b.firstSegments.includes(s)) return true;
    return false;
  }
  return true;
}

function mergeSorted(lists: readonly number[][]): number[] {
  const out: number[] = [];
  for (const list of lists) for (const x of list) out.push(x);
  out.sort((a, b) => a - b);
  let w = 0;
  for (let r = 0; r < out.length; r++) if (r === 0 || out[r] !== out[r - 1]) out[w++] = out[r]!;
  out.length = w;
  return out;
}
