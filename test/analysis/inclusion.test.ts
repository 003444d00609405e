import * as assert from 'node:assert/strict';
import { InclusionChecker, type Coverage } from '../../shared/analysis/regular/inclusion';
import { describeKey, literalKey, translateRouteKey } from '../../shared/analysis/regular/inclusion-syntax';
import { accepts, isRoutableUri, packDfa, SYMBOLS } from '../../shared/analysis/regular/pattern-automata';
import { fromUtf8Bytes, utf8Bytes } from '../../shared/util/utf8-bytes';
import { buildDfa, TooLargeError } from '../../shared/analysis/regular/dfa-build';
import { sampleWords, summarise } from '../../shared/analysis/regular/dfa-facts';
import { compileRouteKey } from '../../shared/router/pattern';
import { seededRandom } from '../helpers/random';

/** Deterministic PRNG (mulberry32), so failures reproduce. */
const rng = seededRandom;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

describe('InclusionChecker', () => {
  const checker = new InclusionChecker();
  const cov = (key: string, ...earlier: string[]): Coverage => checker.coverage(key, earlier);
  const kind = (key: string, ...earlier: string[]): string => cov(key, ...earlier).kind;

  describe('wildcards and classes', () => {
    it('photos/new is covered by photos/(:any), not the reverse', () => {
      assert.deepEqual(cov('photos/new', 'photos/(:any)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('photos/(:any)', 'photos/new'), { kind: 'not-covered' });
    });

    it('photos/new after several earlier keys names the one that covers it', () => {
      assert.deepEqual(cov('photos/new', 'users/(:any)', 'photos', 'photos/(:num)', 'photos/(:any)', 'photos/(:any)/edit'), {
        kind: 'covered',
        by: [3],
      });
    });

    it('a/([0-9]+) ⊆ a/([^/]+) but not the reverse', () => {
      assert.deepEqual(cov('a/([0-9]+)', 'a/([^/]+)'), { kind: 'covered', by: [0] });
      assert.equal(kind('a/([^/]+)', 'a/([0-9]+)'), 'not-covered');
      assert.deepEqual(cov('a/(:num)', 'a/(:any)'), { kind: 'covered', by: [0] });
    });

    it('a/(:num) is covered by a/[0-4][0-9]* and a/[5-9][0-9]* together, by neither alone', () => {
      // [0-9]+ = [0-4][0-9]* ∪ [5-9][0-9]* exactly
      assert.deepEqual(cov('a/(:num)', 'a/[0-4][0-9]*', 'a/[5-9][0-9]*'), { kind: 'covered', by: [0, 1] });
      assert.equal(kind('a/(:num)', 'a/[0-4][0-9]*'), 'not-covered');
      assert.equal(kind('a/(:num)', 'a/[5-9][0-9]*'), 'not-covered');
      // an irrelevant earlier key is not named
      assert.deepEqual(cov('a/(:num)', 'a/[0-4][0-9]*', 'b/(:any)', 'a/x', 'a/[5-9][0-9]*'), { kind: 'covered', by: [0, 3] });
      // a redundant one is dropped: [0-9] and [0-9]{2,} already cover [0-9]+, so [0-9]{1,3} is not needed
      assert.deepEqual(cov('a/(:num)', 'a/[0-9]', 'a/[0-9]{1,3}', 'a/[0-9]{2,}'), { kind: 'covered', by: [0, 2] });
    });

    it('context-style admin/(:any)/(:any) is not covered by admin/(:any)', () => {
      assert.equal(kind('admin/(:any)/(:any)', 'admin/(:any)'), 'not-covered');
      assert.equal(kind('admin/(:any)', 'admin/(:any)/(:any)'), 'not-covered');
      assert.deepEqual(cov('admin/(:any)/(:any)', 'admin/(:any)', 'admin/(.+)'), { kind: 'covered', by: [1] });
    });

    it("resources' default constraint ([a-zA-Z0-9\\-_]+) versus (:any)", () => {
      assert.deepEqual(cov('photos/([a-zA-Z0-9\\-_]+)', 'photos/(:any)'), { kind: 'covered', by: [0] });
      // (:any) also matches segments with ~ % . : or a space
      assert.equal(kind('photos/(:any)', 'photos/([a-zA-Z0-9\\-_]+)'), 'not-covered');
      assert.deepEqual(cov('photos/(:any)', 'photos/([a-zA-Z0-9\\-_]+)', 'photos/(.*[ ~%.:].*)', 'photos/(.*(\u017f|\u212a).*)'), { kind: 'covered', by: [0, 1, 2] });
    });

    it('letters are case-sensitive in patterns, while both cases are valid in URIs', () => {
      assert.equal(kind('Photos/(:any)', 'photos/(:any)'), 'not-covered');
      assert.equal(kind('photos/([A-Z]+)', 'photos/([a-z]+)'), 'not-covered');
      assert.deepEqual(cov('photos/([A-Z]+)', 'photos/([a-z]+)', 'photos/([A-Z][a-z]*)', 'photos/([A-Z]{2,})'), {
        kind: 'covered',
        by: [1, 2],
      });
      assert.equal(kind('PHOTOS'), 'not-covered');
    });

    it('PCRE spellings that JavaScript writes differently', () => {
      assert.deepEqual(cov('a/(?P<id>[0-9]+)', 'a/(?<n>\\d+)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov("a/(?'id'[0-9]+)", 'a/(:num)'), { kind: 'covered', by: [0] });
      // `]` first in a class is a literal for PCRE ([]x] is {], x}); no valid URI has `]`
      assert.equal(kind('a/[]x]'), 'not-covered');
      assert.equal(kind('a/[]]'), 'empty');
      // `{` that is no quantifier is a literal
      assert.equal(kind('a/{x}'), 'empty');
      assert.deepEqual(cov('a/x{2}', 'a/xx'), { kind: 'covered', by: [0] });
      // lazy quantifiers do not change the language
      assert.deepEqual(cov('a/(.+?)', 'a/(.+)'), { kind: 'covered', by: [0] });
    });
  });

  describe('dots, anchors and alternation', () => {
    it('an unescaped dot is a wildcard', () => {
      assert.deepEqual(cov('feed.xml', 'feed(.)xml'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('feedxxml', 'feed.xml'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('feed/xml', 'feed.xml'), { kind: 'covered', by: [0] });
      assert.equal(kind('feed.xml', 'feed\\.xml'), 'not-covered');
      assert.deepEqual(cov('feed\\.xml', 'feed.xml'), { kind: 'covered', by: [0] });
    });

    it('top-level alternation binds loosely: a|b is ^a or b$', () => {
      assert.deepEqual(cov('a', 'a|b'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('b', 'a|b'), { kind: 'covered', by: [0] });
      // ^a: anything starting with a
      assert.deepEqual(cov('abc/def', 'a|b'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('a(:any)/(:any)', 'a|b'), { kind: 'covered', by: [0] });
      // b$: anything ending with b
      assert.deepEqual(cov('x/y/zb', 'a|b'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('(:any)/b', 'a|b'), { kind: 'covered', by: [0] });
      assert.equal(kind('ba', 'a|b'), 'not-covered');
      assert.equal(kind('x/(:any)', 'a|b'), 'not-covered');
      // a middle alternative is anchored nowhere
      assert.deepEqual(cov('x/mid/y', 'a|mid|b'), { kind: 'covered', by: [0] });
      // the key side is modelled the same way: a|b matches more than a and b
      assert.equal(kind('a|b', 'a', 'b'), 'not-covered');
      assert.deepEqual(cov('a|b', 'a(.*)', '(.*)b'), { kind: 'covered', by: [0, 1] });
      assert.deepEqual(cov('(a|b)', 'a', 'b'), { kind: 'covered', by: [0, 1] });
      // an empty alternative at the end matches every URI
      assert.deepEqual(cov('x/y', 'nothing|'), { kind: 'covered', by: [0] });
      // a|b/c: URIs starting with a, or ending with b/c
      assert.deepEqual(cov('q/b/c', 'a|b/c'), { kind: 'covered', by: [0] });
      assert.equal(kind('b/c/q', 'a|b/c'), 'not-covered');
    });

    it('explicit ^ and $ at the edges of an alternative are honoured, elsewhere unknown', () => {
      assert.deepEqual(cov('^a$', 'a'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('a', '^a$'), { kind: 'covered', by: [0] });
      // ^ on a middle/last alternative anchors it at the start too
      assert.equal(kind('xb', 'a|^b'), 'not-covered');
      assert.deepEqual(cov('b', 'a|^b'), { kind: 'covered', by: [0] });
      assert.equal(cov('a$b').kind, 'unknown');
      assert.equal(cov('a(^b)').kind, 'unknown');
    });

    it('(.*) covers everything', () => {
      assert.deepEqual(cov('foo/bar', '(.*)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('(:any)/(:any)/(:num)', '(.*)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('x|y', '(.*)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('(.+)', '(.*)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('(.*)', '(.+)'), { kind: 'covered', by: [0] });
    });

    it('a/(.*) needs a/, so it is not covered by a (and the reverse)', () => {
      assert.equal(kind('a/(.*)', 'a'), 'not-covered');
      assert.equal(kind('a', 'a/(.*)'), 'not-covered');
      // on valid URIs a/(.*) and a/(.+) are the same language (no empty segment)
      assert.deepEqual(cov('a/(.*)', 'a/(.+)'), { kind: 'covered', by: [0] });
    });

    it('reasons only about URIs that reach the router: a/(.*) ⊆ a/(:any)/(:any) ∪ a/(:any)', () => {
      assert.equal(kind('a/(.*)', 'a/(:any)/(:any)'), 'not-covered');
      assert.deepEqual(cov('a/(.*)/b', 'a/(:any)/b', 'a/(:any)/(.+)/b'), { kind: 'covered', by: [0, 1] });
      // Under UTF8_ENABLED the URI filter also lets `\u017f` and `\u212a` through (as `s` and `k`): only (:any) matches a/\u017f.
      assert.equal(kind('a/(:any)', 'a/([a-zA-Z0-9 ~%.:_-]+)'), 'not-covered');
      assert.deepEqual(cov('a/(:any)', 'a/([^/]+)'), { kind: 'covered', by: [0] });
    });
  });

  describe('the bytes of \u017f and \u212a, which CodeIgniter\'s filter lets through under UTF8_ENABLED', () => {
    it('are URI characters, matched by (:any), `.` a byte at a time, and no ASCII class', () => {
      assert.equal(kind('tags/(:any)', 'tags/([a-zA-Z0-9 ~%.:_-]+)'), 'not-covered');
      assert.equal(kind('tags/\u017f', 'tags/([a-z]+)'), 'not-covered');
      assert.deepEqual(cov('tags/\u017f', 'tags/(:any)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('tags/\u212a', 'tags/(...)'), { kind: 'covered', by: [0] }, 'three bytes, three dots');
      assert.equal(kind('tags/\u212a', 'tags/(.)'), 'not-covered');
      assert.deepEqual(cov('tags/(\\xc5\\xbf)', 'tags/\u017f'), { kind: 'covered', by: [0] });
      assert.equal(kind('tags/(\\xc5)', 'tags/(:any)'), 'empty', 'half of \u017f is no URI');
      assert.equal(kind('tags/\u00e9', 'tags/(:any)'), 'empty', 'other characters beyond the default are still filtered out');
    });

    it('are read from a key as its UTF-8 bytes, whatever the class or range', () => {
      assert.equal(utf8Bytes('a/\u017f'), 'a/\u00c5\u00bf');
      assert.equal(utf8Bytes('plain/ascii'), 'plain/ascii');
      // [\u017f] is the class of its two bytes: it matches neither \u017f alone (two bytes) nor a URI.
      assert.equal(kind('a/[\u017f]', 'a/(:any)'), 'empty');
      assert.deepEqual(cov('a/[\u017f]{2}', 'a/\u017f'), { kind: 'covered', by: [0] });
      assert.equal(isRoutableUri(utf8Bytes('a/\u212a/b')), true);
      assert.equal(isRoutableUri(utf8Bytes('a/\u00e9')), false);
      assert.equal(isRoutableUri('a/\u00c5'), false, 'a lone first byte');
    });
  });

  describe('empty patterns', () => {
    it('keys that match no valid URI are empty', () => {
      for (const key of ['a//b', 'a/', '/a', '', 'a/(\\/)', 'a/(:any)//', 'a!b', 'a\\?', 'a/[,;]+', '(:any)/$', '^$', 'é']) {
        assert.deepEqual(cov(key, 'a/(:any)'), { kind: 'empty' }, key);
      }
    });

    it('a space or % is a valid URI character', () => {
      assert.deepEqual(cov('a b/%20', '(:any)/(:any)'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('a b/(:num)', 'a\\ b/(.*)'), { kind: 'covered', by: [0] });
      assert.equal(kind('search/%(:any)', 'search/(:num)'), 'not-covered');
    });

    it('segments never start or end with a space (CodeIgniter trims them)', () => {
      assert.equal(kind('a/ b'), 'empty');
      assert.equal(kind('a/b /c'), 'empty');
      assert.equal(kind('a/( [a-z]+)'), 'empty');
      assert.deepEqual(cov('a/(:any)', 'a/([^ /]|[^ /][^/]*[^ /])'), { kind: 'covered', by: [0] });
      assert.deepEqual(cov('a/(:any)', 'a/([^ /]+)', 'a/([^/]+ [^/]+)'), { kind: 'covered', by: [0, 1] });
    });

    it('earlier keys that never match (empty, or with the # delimiter) do not count', () => {
      assert.equal(kind('a/(:any)', 'a//(:any)', 'a/#x'), 'not-covered');
      assert.deepEqual(cov('a/x', 'a/#(.*)', 'a/(:any)'), { kind: 'covered', by: [1] });
    });
  });

  describe('unknown', () => {
    const unknown = (key: string, ...earlier: string[]): string => {
      const result = cov(key, ...earlier);
      assert.equal(result.kind, 'unknown', `${key}: ${JSON.stringify(result)}`);
      return (result as { reason: string }).reason;
    };

    it('look-arounds, back-references and PCRE-only syntax', () => {
      assert.match(unknown('(?=x)a'), /look-ahead/);
      assert.match(unknown('a/(?!new)(:any)'), /look-ahead/);
      assert.match(unknown('(?<=a)b'), /look-behind/);
      assert.match(unknown('(a)\\1'), /back-reference/);
      assert.match(unknown('(?P<x>a)(?P=x)'), /back-reference/);
      assert.match(unknown('a++'), /possessive/);
      assert.match(unknown('a/[0-9]*+'), /possessive/);
      assert.match(unknown('a{2}+'), /possessive/);
      assert.match(unknown('(?>a+)b'), /atomic/);
      assert.match(unknown('\\Aa\\z'), /anchor/);
      assert.match(unknown('a\\Z'), /anchor/);
      assert.match(unknown('a\\h'), /escape/);
      assert.match(unknown('a\\Kb'), /\\K/);
      assert.match(unknown('(?i)photos'), /inline flags/);
      assert.match(unknown('(?i:photos)'), /inline flags/);
      assert.match(unknown('[[:alpha:]]+'), /POSIX/);
      assert.match(unknown('\\Qa.b\\E'), /\\Q/);
      assert.match(unknown('a\\bb'), /word-boundary/);
      assert.match(unknown('a/[\\w-.]+'), /range/);
      assert.match(unknown('a/x{,3}'), /PCRE versions/);
      assert.match(unknown('(*UTF8)a'), /verbs/);
    });

    it('keys with the delimiter # are unknown (reported elsewhere), not empty', () => {
      assert.match(unknown('a#b'), /delimiter/);
      assert.match(unknown('a/[#]'), /delimiter/);
      assert.deepEqual(cov('a/\\#', 'x'), { kind: 'empty' });
    });

    it('syntax errors and oversized automata', () => {
      unknown('a/(b');
      unknown('a/b)');
      unknown('a/[b');
      unknown('*a');
      unknown('a/[z-a]');
      assert.match(unknown('(a|b)*a(a|b){16}/(.*)'), /exceeds/);
    });

    it('an earlier key that cannot be analysed blocks only the keys it may concern', () => {
      assert.match(unknown('a/(:any)', 'a/(?!new)(:any)'), /earlier pattern #0/);
      assert.match(unknown('a/x', 'a/(?!new)(:any)'), /earlier pattern #0/);
      // its literal first segment keeps it away from other keys
      assert.equal(kind('b/(:any)', 'a/(?!new)(:any)'), 'not-covered');
      assert.equal(kind('b/x', 'a/(?!new)(:any)'), 'not-covered');
      // unless it has another top-level alternative
      assert.match(unknown('ay/x', 'photos/(?!a)|x'), /earlier pattern #0/);
      // coverage found without it is still certain
      assert.deepEqual(cov('a/x', 'a/(?!new)(:any)', 'a/(:any)'), { kind: 'covered', by: [1] });
      assert.deepEqual(cov('a/(:num)', 'a/(?!new)(:any)', 'a/(:any)'), { kind: 'covered', by: [1] });
    });
  });

  it('never throws on random junk (fixed seed)', () => {
    const random = rng(20240611);
    const alphabet = ['a', 'b', '/', '(', ')', '[', ']', '^', '$', '|', '*', '+', '?', '{', '}', ',', '1', '2', '.', '\\', '-', ':any', ':num', '#', '<', '>', '=', '!', 'P', 'é', ' ', '%', 'x', 'd', 'w', 'Q', 'E'];
    const junk: string[] = [];
    for (let n = 0; n < 500; n++) {
      let s = '';
      const len = Math.floor(random() * 14);
      for (let k = 0; k < len; k++) s += pick(random, alphabet);
      junk.push(s);
    }
    const fresh = new InclusionChecker();
    const kinds = new Set<string>();
    for (let n = 0; n < junk.length; n++) {
      const earlier = junk.slice(Math.max(0, n - 8), n);
      const result = fresh.coverage(junk[n]!, earlier);
      kinds.add(result.kind);
      assert.ok(['covered', 'empty', 'not-covered', 'unknown'].includes(result.kind));
      if (result.kind === 'covered') for (const b of result.by) assert.ok(b >= 0 && b < earlier.length);
      if (result.kind === 'unknown') assert.ok(result.reason.length > 0);
    }
    assert.ok(kinds.size >= 3, [...kinds].join());
  });

  it('caches each automaton: a repeated check builds nothing', () => {
    const fresh = new InclusionChecker();
    const earlier = ['photos/(:any)/edit', 'photos/(:num)', 'users/(:any)', 'photos/([a-z]+)'];
    const first = fresh.coverage('photos/([a-z0-9]+)', earlier);
    const built = fresh.stats.automataBuilt;
    assert.ok(built > 0);
    assert.deepEqual(fresh.coverage('photos/([a-z0-9]+)', earlier), first);
    assert.deepEqual(fresh.coverage('photos/([a-z0-9]+)', [...earlier]), first);
    assert.equal(fresh.stats.automataBuilt, built);
    // the earlier key with another first segment is filtered out before any automaton work
    const other = new InclusionChecker();
    other.coverage('photos/(:num)', ['users/(:any)', 'users/(:num)/edit']);
    assert.equal(other.stats.automataBuilt, 1);
    // a literal key needs no automaton of its own
    other.coverage('photos/new', ['users/(:any)', 'photos/(:any)']);
    assert.equal(other.stats.automataBuilt, 2);
  });

  it('forgets the automata of keys unused for two generations, builds them again alike, and keeps those of wild keys', () => {
    const checker = new InclusionChecker({ automataPerGeneration: 4 });
    const earlier = ['(:any)/edit', 'photos/(:num)', 'photos/([a-z]+)', 'photos/(:any)/edit'];
    const key = 'photos/([0-9]+|[a-z]+)';
    const first = checker.coverage(key, earlier);
    assert.deepEqual(first, { kind: 'covered', by: [1, 2] });
    const built = checker.stats.automataBuilt;
    assert.deepEqual(checker.coverage(key, earlier), first);
    assert.equal(checker.stats.automataBuilt, built, 'used again at once: kept');
    // The key and its three candidates with a literal first segment fill a generation; eight others two more.
    for (let i = 0; i < 8; i++) checker.coverage(`other${i}/(:num)`, []);
    assert.equal(checker.stats.automataBuilt, built + 8);
    // Translated again from the key's text: a forgotten automaton is the same language.
    assert.deepEqual(checker.coverage(key, earlier), first);
    assert.equal(checker.stats.automataBuilt, built + 8 + 4, "the key's and its three candidates', not the wild key's");
    assert.deepEqual(checker.coverage('(:num)/edit', earlier), { kind: 'covered', by: [0] });
  });

  it('incremental calls in table order agree with fresh ones', () => {
    const table = ['photos', 'photos/new', 'photos/(:num)', 'photos/(:any)', 'photos/(:num)/edit', 'photos/(:any)/(:any)', '(:any)/edit', 'users/(:any)', 'photos/12/edit', 'users/me', 'x|photos', '(.*)', 'anything/at/all'];
    const incremental = new InclusionChecker();
    for (let n = 0; n < table.length; n++) {
      const expected = new InclusionChecker().coverage(table[n]!, table.slice(0, n));
      assert.deepEqual(incremental.coverage(table[n]!, table.slice(0, n)), expected, table[n]);
    }
    // going back to a shorter list and forward again
    assert.deepEqual(incremental.coverage('photos/new', table.slice(0, 1)), { kind: 'not-covered' });
    assert.deepEqual(incremental.coverage('users/me', table.slice(0, 9)), { kind: 'covered', by: [7] });
  });
});

describe('route key automata', () => {
  it('translates keys into JavaScript with their anchoring', () => {
    assert.deepEqual(translateRouteKey('a|b/c'), {
      ok: true,
      alternatives: [
        { source: 'a', anchoredStart: true, anchoredEnd: false },
        { source: 'b\\x2fc', anchoredStart: false, anchoredEnd: true },
      ],
    });
    assert.equal(literalKey('photos/new'), 'photos/new');
    assert.equal(literalKey('photos/:num'), null);
    assert.equal(literalKey('feed.xml'), null);
  });

  it('summarises first segments and segment counts', () => {
    const summary = (key: string) => {
      const t = translateRouteKey(key);
      assert.ok(t.ok);
      const s = summarise(buildDfa(t.alternatives));
      return { ...s, firstSegments: s.firstSegments && [...s.firstSegments].sort() };
    };
    assert.deepEqual(summary('photos/(:any)/edit'), { firstSegments: ['photos'], minSegments: 3, maxSegments: 3 });
    assert.deepEqual(summary('(photos|users)(/(:num))?'), { firstSegments: ['photos', 'users'], minSegments: 1, maxSegments: 2 });
    assert.deepEqual(summary('a/(.*)'), { firstSegments: ['a'], minSegments: 2, maxSegments: Infinity });
    assert.equal(summary('(:any)/x').firstSegments, null);
  });

  it('minimises keys of more than 32 states: no two states accept the same words (a plain Moore refinement finds none to merge)', () => {
    const random = rng(20261127);
    const atoms = ['products', 'x-y', '(:any)', '(:num)', '([a-z]+)', '(\\d+)', '(v[0-9]+)', '(a|ab)', '(.*)', '[a-z]*', 'a?', 'ab'];
    let checked = 0;
    for (let n = 0; n < 400; n++) {
      const segments = Array.from({ length: 2 + Math.floor(random() * 6) }, () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(random, atoms)).join(''));
      const t = translateRouteKey(`admin/${segments.join('/')}`);
      if (!t.ok) continue;
      const dfa = buildDfa(t.alternatives);
      if (dfa.states <= 32) continue;
      checked++;
      // Moore's refinement from final / not final, until the number of classes stays.
      let cls = Array.from(dfa.final, Number);
      for (let count = new Set(cls).size; ; ) {
        const signatures = new Map<string, number>();
        cls = cls.map((c, s) => {
          const signature = [c, ...Array.from({ length: dfa.classes }, (_, k) => (dfa.trans[s * dfa.classes + k]! < 0 ? -1 : cls[dfa.trans[s * dfa.classes + k]!]))].join(',');
          if (!signatures.has(signature)) signatures.set(signature, signatures.size);
          return signatures.get(signature)!;
        });
        if (signatures.size === count) break;
        count = signatures.size;
      }
      assert.equal(new Set(cls).size, dfa.states, `admin/${segments.join('/')}`);
    }
    assert.ok(checked >= 50, `${checked} keys of more than 32 states`);
  });

  it("reads a key's literal first and second segments from its text, only where every match has them", () => {
    const segments = (key: string) => {
      const t = describeKey(key);
      return [t.firstSegment, t.secondSegment];
    };
    assert.deepEqual(segments('admin/users/(:any)/(:any)'), ['admin', 'users']);
    assert.deepEqual(segments('admin/users'), ['admin', 'users']);
    assert.deepEqual(segments('admin'), ['admin', null]);
    // A second segment that a quantifier, a group or a wildcard goes on with is not one literal word.
    assert.deepEqual(segments('admin/users?/(:num)'), ['admin', null]);
    assert.deepEqual(segments('admin/user(:any)'), ['admin', null]);
    assert.deepEqual(segments('admin/(:any)/users'), ['admin', null]);
    assert.deepEqual(segments('admin/users/*'), ['admin', null]);
    assert.deepEqual(segments('(admin|site)/users'), [null, null]);
    assert.deepEqual(segments('admin/users|x'), [null, null]);
  });

  it('packs transitions in 8 bits up to 127 states and in 16 bits beyond, accepting the same words', () => {
    for (const [length, kind] of [[126, Int8Array], [127, Int16Array], [300, Int16Array]] as const) {
      const word = 'ab/'.repeat(length).slice(0, length - 1) + 'z';
      const t = translateRouteKey(word);
      assert.ok(t.ok, word);
      const dfa = buildDfa(t.alternatives);
      assert.equal(dfa.states, length + 1, word);
      const packed = packDfa(dfa);
      assert.ok(packed.trans instanceof kind, `${length + 1} states`);
      assert.ok(accepts(packed, word) && accepts(dfa, word));
      assert.ok(!accepts(packed, word.slice(0, -1)) && !accepts(packed, `${word}z`));
    }
  });

  it('agrees with RE2 (compileRouteKey) on random keys and URIs', () => {
    const random = rng(7);
    const parts = ['photos', 'users', 'a', 'new', '(:any)', '(:num)', '([a-z]+)', '([0-9]{2})', '(.*)', '(.+)', 'x?', '[a-c]+', '(x|y)', 'v\\.1', 'v.1', '(?:ab)*', '[^/]*', 'A', '~', '%20'];
    const uriParts = ['photos', 'users', 'a', 'new', '12', '7', 'abc', 'x', 'y', 'v.1', 'v1', 'ab', 'abab', 'A', '~', '%20', 'b c', ''];
    let compared = 0;
    for (let n = 0; n < 60; n++) {
      const segments = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, parts) + (random() < 0.2 ? pick(random, parts) : ''));
      const key = segments.join('/');
      const t = translateRouteKey(key);
      assert.ok(t.ok, key);
      const dfa = buildDfa(t.alternatives);
      // The form the checker caches (8-bit transitions here, shared class maps) accepts the same words.
      const packed = packDfa(dfa);
      if (dfa.states > 0) assert.ok(dfa.states < 0x80 && packed.trans instanceof Int8Array, `${key}: ${dfa.states} states`);
      const compiled = compileRouteKey(key);
      for (let m = 0; m < 30; m++) {
        const uri = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, uriParts)).join('/');
        assert.equal(accepts(packed, uri), accepts(dfa, uri), `packed ${key} on ${uri}`);
        if (!isRoutableUri(uri)) {
          assert.equal(accepts(dfa, uri), false);
          continue;
        }
        // The automata read bytes, the router model text (it matches on its bytes).
        assert.equal(accepts(dfa, uri), compiled.match(fromUtf8Bytes(uri)) !== null, `${key} on ${uri}`);
        compared++;
      }
    }
    assert.ok(compared > 800, String(compared));
    assert.equal(SYMBOLS.length, 75);
  });

  it("gives as witness of a key it finds reachable a URI the key matches and no earlier key matches (RE2), in random tables", () => {
    const random = rng(11);
    const vocabulary = ['(:any)', '(:any)/b', '(:any)/(:num)', '(:num)/b', '([a-z]+)/x', '(a|b)/x', 'a', 'a/(:any)', 'a/(:num)', 'a/b', 'b/(:any)', 'b/x', 'x', 'x/b', '(.*)/b', 'v(:num)/b', 'a/(?!new)(:any)', '[^/]+/b/(:any)', '(:any)/(:any)/b'];
    let witnessed = 0;
    for (let n = 0; n < 300; n++) {
      const keys = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(random, vocabulary));
      const checker = new InclusionChecker();
      for (let i = 0; i < keys.length; i++) {
        const c = checker.coverage(keys[i]!, keys, i);
        if (c.kind !== 'not-covered' || c.witness === undefined) continue;
        const witness = fromUtf8Bytes(c.witness);
        assert.ok(compileRouteKey(keys[i]!).match(witness) !== null, `${keys[i]} does not match its witness ${c.witness}`);
        for (let j = 0; j < i; j++) assert.equal(compileRouteKey(keys[j]!).match(witness), null, `${keys[j]} (#${j}) matches ${c.witness}, the witness of ${keys[i]} (#${i}) in ${JSON.stringify(keys)}`);
        witnessed++;
      }
    }
    assert.ok(witnessed > 300, String(witnessed));
  });

  it('agrees with RE2 on random patterns using the whole supported syntax', () => {
    const random = rng(99);
    let names = 0;
    const atoms = ['a', 'b', 'A', '0', '1', '-', '_', '~', '%', ' ', ':', '.', '\\.', '\\d', '\\w', '\\s', '\\D', '\\W', '[a-c]', '[^a/]', '[0-9a-f]', '[-a]', '[]a]', '[\\d.]', '[^/]', '/', '\\/', ':any', ':num', '\\x41', '[\\x30-\\x39]'];
    const quantifiers = ['', '', '', '?', '*', '+', '{2}', '{1,3}', '{0,}', '*?', '+?'];
    const expr = (depth: number): string => {
      let out = '';
      const n = 1 + Math.floor(random() * 4);
      for (let k = 0; k < n; k++) {
        const r = random();
        let a: string;
        if (depth < 2 && r < 0.12) a = `(${expr(depth + 1)})`;
        else if (depth < 2 && r < 0.2) a = `(?:${expr(depth + 1)}|${expr(depth + 1)})`;
        else if (depth < 2 && r < 0.24) a = `(?P<n${names++}>${expr(depth + 1)})`;
        else a = pick(random, atoms);
        out += a.startsWith(':') ? a : a + pick(random, quantifiers);
      }
      return out;
    };
    const chars = 'abAB01-_.~% :/';
    let positives = 0;
    let compared = 0;
    for (let n = 0; n < 50; n++) {
      const key = Array.from({ length: 1 + Math.floor(random() * 2) }, () => expr(0)).join('/');
      const t = translateRouteKey(key);
      assert.ok(t.ok, `${key}: ${t.ok ? '' : t.reason}`);
      const compiled = compileRouteKey(key);
      if (compiled.engine !== 're2') continue;
      let dfa: ReturnType<typeof buildDfa>;
      try {
        dfa = buildDfa(t.alternatives, { nfaNodes: 5000, dfaStates: 1000 });
      } catch (err) {
        assert.ok(err instanceof TooLargeError, String(err));
        continue;
      }
      const words = sampleWords(dfa, 5, n);
      for (let m = 0; m < 40; m++) {
        let w = '';
        const len = 1 + Math.floor(random() * 8);
        for (let k = 0; k < len; k++) w += pick(random, [...chars]);
        words.push(w);
      }
      for (const uri of words) {
        if (!isRoutableUri(uri)) {
          assert.equal(accepts(dfa, uri), false, `${key} on ${uri}`);
          continue;
        }
        const mine = accepts(dfa, uri);
        assert.equal(mine, compiled.match(fromUtf8Bytes(uri)) !== null, `${key} on ${JSON.stringify(uri)}`);
        compared++;
        if (mine) positives++;
      }
    }
    assert.ok(compared > 800 && positives > 100, `${compared} compared, ${positives} matches`);
  });
});
