import * as assert from 'node:assert/strict';
import { PositionLimitError, positionNfa } from '../../shared/analysis/regular/position-nfa';
import { SYMBOL_OF } from '../../shared/analysis/regular/pattern-automata';
import { keyWithinDefaultChars } from '../../shared/analysis/regular/default-chars-keys';

const anchored = (source: string) => [{ source, anchoredStart: true, anchoredEnd: true }];

/** Whether the position automaton accepts a word of U's characters (a plain NFA run). */
function accepts(source: string, word: string): boolean {
  const nfa = positionNfa(anchored(source), 1000);
  let states = new Set([0]);
  for (const ch of word) {
    const sym = SYMBOL_OF[ch.charCodeAt(0)]!;
    const next = new Set<number>();
    for (const s of states) for (const t of nfa.follow[s]!) if (nfa.sets[nfa.setOf[t]!]!.includes(sym)) next.add(t);
    states = next;
  }
  return [...states].some((s) => nfa.final[s] === 1);
}

describe("the position automaton of a translated key (Glushkov's construction)", () => {
  it('writes counted repetitions out copy by copy, one state per position', () => {
    assert.equal(positionNfa(anchored('a{2,3}'), 1000).count, 4, 'the initial state and three copies of a');
    assert.equal(positionNfa(anchored('(?:ab){2,}'), 1000).count, 7, 'two copies of ab, then one starred');
    for (const w of ['aa', 'aaa']) assert.ok(accepts('a{2,3}', w), w);
    for (const w of ['', 'a', 'aaaa']) assert.ok(!accepts('a{2,3}', w), w);
  });

  it('reads classes, their complements within U, class escapes and hex escapes as PCRE does without u', () => {
    assert.ok(accepts('[^a\\x2f]+', 'bZ~'));
    assert.ok(!accepts('[^a\\x2f]+', 'ba'));
    assert.ok(accepts('\\w+\\x2e\\d', 'a_Z.7'));
    assert.ok(!accepts('\\w', '-'));
    assert.ok(accepts('\\W\\S', '-x'));
    assert.ok(accepts('(?:ab|c)*?d?', 'abcab'));
    assert.ok(!accepts('(?:ab|c)*d', 'abcb'));
    assert.ok(accepts('\\xc5\\xbf', '\u00c5\u00bf'), 'the bytes of ſ, symbols of U');
  });

  it('refuses what the translator never writes, and stops at its size limits', () => {
    assert.throws(() => positionNfa(anchored('(?=a)'), 1000), SyntaxError);
    assert.throws(() => positionNfa(anchored('\\p{L}'), 1000), SyntaxError);
    assert.throws(() => positionNfa(anchored('a{30}'), 20), PositionLimitError);
    assert.throws(() => positionNfa(anchored('(?:a?){300}'), 1000, 10_000), PositionLimitError, 'follow edges grow as the square of optional copies');
  });
});

describe('route keys every URI of which is of the default characters (judged where more are permitted)', () => {
  it('takes literal keys and patterns anchored at both ends that read the default characters only', () => {
    for (const key of ['posts/latest', 'posts/(:num)', 'shop/([a-z0-9-]+)', 'x/\\d+', 'y/(?:a|b)c{2,3}', 'z/[~%.:_ ]?a']) assert.ok(keyWithinDefaultChars(key), key);
  });

  it('leaves out what may match another character: (:any), `.`, a negated class, \\W, an unanchored side, non-ASCII', () => {
    for (const key of ['posts/(:any)', 'x/.{2}', 'x/[^/]+', 'x/\\W', 'a|b', 'caf\u00e9', 'k/\u212a', 'x/[+]', 'x/a@b']) assert.ok(!keyWithinDefaultChars(key), key);
  });
});
