import * as assert from 'node:assert/strict';
import { BoundedMatcher } from '../../shared/router/bounded-backtracking';
import { compileRouteKey } from '../../shared/router/pattern';
import { seededRandom } from '../helpers/random';

/** A random pattern over a, b with look-arounds, groups and quantifiers; says what may make groups differ from JavaScript's. */
function randomPattern(rnd: () => number, depth = 0): { source: string; quantifiedGroup: boolean; lookbehind: boolean } {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  let quantifiedGroup = false;
  let lookbehind = false;
  const atom = (): string => {
    const r = rnd();
    if (depth > 2 || r < 0.45) return pick(['a', 'b', '.', '[ab]', '[^a]', '\\w', '/']);
    const inner = randomPattern(rnd, depth + 1);
    quantifiedGroup ||= inner.quantifiedGroup;
    lookbehind ||= inner.lookbehind;
    if (r < 0.6) return `(${inner.source})`;
    if (r < 0.7) return `(?:${inner.source})`;
    if (r < 0.8) return `(?${pick(['=', '!'])}${inner.source})`;
    lookbehind = true;
    return `(?<${pick(['=', '!'])}${inner.source})`;
  };
  const seq = (): string => {
    let s = '';
    for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
      const a = atom();
      const q = rnd() < 0.35 && !a.startsWith('(?') ? pick(['*', '+', '?', '{1,2}', '*?', '+?']) : '';
      if (q && a.includes('(')) quantifiedGroup = true;
      s += a + q;
    }
    return s;
  };
  const source = rnd() < 0.2 ? `${seq()}|${seq()}` : seq();
  return { source, quantifiedGroup, lookbehind };
}

function randomInput(rnd: () => number): string {
  let s = '';
  for (let n = Math.floor(rnd() * 8); n > 0; n--) s += 'ab/'[Math.floor(rnd() * 3)];
  return s;
}

describe('bounded backtracking matcher (the fallback for look-arounds and back-references)', function () {
  this.timeout(30_000);

  it('finds the same first match as JavaScript on 3,000 random patterns and inputs (fixed seed)', () => {
    const rnd = seededRandom(20260515);
    let compared = 0;
    for (let i = 0; i < 3000; i++) {
      const p = randomPattern(rnd);
      let js: RegExp;
      try {
        js = new RegExp(p.source, 'g');
      } catch {
        continue;
      }
      const bounded = new BoundedMatcher(p.source);
      for (let j = 0; j < 4; j++) {
        const input = randomInput(rnd);
        js.lastIndex = 0;
        const want = js.exec(input);
        const got = bounded.find(input, 0);
        const where = `/${p.source}/ on '${input}'`;
        assert.equal(got === null, want === null, `match or not: ${where}`);
        if (!got || !want) continue;
        assert.deepEqual([got.start, got.end], [want.index, want.index + want[0].length], `bounds: ${where}`);
        if (!p.quantifiedGroup && !p.lookbehind) assert.deepEqual(got.groups, Array.from(want, (g) => g ?? ''), `groups: ${where}`);
        compared++;
      }
    }
    assert.ok(compared > 1000, `enough matches compared (${compared})`);
  });

  it('matches back-references as PCRE does (a group that did not take part fails)', () => {
    assert.deepEqual(new BoundedMatcher('^(a+)-\\1$').find('aa-aa', 0)?.groups, ['aa-aa', 'aa']);
    assert.equal(new BoundedMatcher('^(a+)-\\1$').find('aa-a', 0), null);
    assert.deepEqual(new BoundedMatcher('^(?<x>[a-z]+)/\\k<x>$').find('ab/ab', 0)?.groups, ['ab/ab', 'ab']);
    assert.equal(new BoundedMatcher('^(?:(a)|b)\\1$').find('b', 0), null, 'JavaScript would match: the group is unset');
  });

  for (const key of ['((a+)+)+\\1$', '(?=(a+)+)((a+)+)+$', '(?!x)(a|aa)+$', '(a|a?)+(?<=b)$', '((a*)*)*(?=\\2)b']) {
    it(`gives up on '${key}' against 200 a's within its step budget (no match, as at PCRE's backtrack limit)`, () => {
      const pattern = compileRouteKey(key);
      assert.equal(pattern.engine, 'backtracking');
      const t0 = Date.now();
      assert.equal(pattern.match(`${'a'.repeat(200)}-`), null);
      assert.ok(Date.now() - t0 < 5_000, 'bounded');
    });
  }

  it('still matches route keys with look-arounds as CodeIgniter does', () => {
    const key = compileRouteKey('(?!admin)(:any)/(:num)');
    assert.deepEqual(key.match('users/12'), ['users/12', 'users', '12']);
    assert.equal(key.match('admin/12'), null);
    assert.equal(compileRouteKey('(?<=x)y').match('y'), null);
    assert.equal(key.replace('users/12', 'people/$1/$2'), 'people/users/12');
  });
});
