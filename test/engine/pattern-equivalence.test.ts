import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CompiledPattern, expandWildcards } from '../../shared/router/pattern';

/**
 * The router matches keys with RE2 (linear time) where CodeIgniter uses PCRE. On the syntax route
 * keys use, PCRE and JavaScript's backtracking engine agree (leftmost-first alternation, greedy
 * quantifiers, the same `^a|b$` precedence), so JavaScript serves as the reference here: same
 * match or no match, same groups, same preg_replace result, for random keys and URIs.
 */

const literal = fc.constantFrom('photos', 'admin', 'api', 'v1', 'users', 'a', 'b', 'ab', 'x-y', 'x_y', '2024', 'new', 'edit');
const atom = fc.oneof(
  { weight: 5, arbitrary: literal },
  { weight: 3, arbitrary: fc.constantFrom('(:any)', '(:num)', ':any', ':num') },
  { weight: 2, arbitrary: fc.constantFrom('([a-z]+)', '(\\d+)', '([0-9]{2,4})', '(v[0-9]+)', '(a|ab)', '(ab|a)', '(.*)', '(.+)', '([^/]+)', '(?:a|b)+') },
  { weight: 1, arbitrary: fc.constantFrom('.*', '.+', '[a-z]*', 'a?', '(a+)+', '(a|a)*', '(\\w+)?') },
);
const segment = fc.array(atom, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
const key = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.option(fc.array(segment, { minLength: 1, maxLength: 2 }), { nil: undefined }))
  .map(([left, right]) => left.join('/') + (right ? `|${right.join('/')}` : ''));

const uriPart = fc.constantFrom('photos', 'admin', 'api', 'v1', 'v22', 'users', 'a', 'b', 'ab', 'aaaa', 'x-y', 'x_y', '2024', '12', 'new', 'edit', '');
const uri = fc.array(uriPart, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));

function reference(regex: string, input: string): { groups: string[] | null; replaced: string } {
  const re = new RegExp(`^${regex}$`, 'u');
  const m = re.exec(input);
  const groups = m ? Array.from(m, (g) => g ?? '') : null;
  // preg_replace: every match, `$n` for a group that did not take part is ''.
  const replaced = input.replace(new RegExp(`^${regex}$`, 'gu'), (...args: unknown[]) => {
    const gs = args.slice(1, -2) as (string | undefined)[];
    return `<${gs.map((g) => g ?? '').join(',')}>`;
  });
  return { groups, replaced };
}

describe('route patterns: RE2 matching equals a backtracking engine on route-key syntax', () => {
  it('same match, groups and replacement on 3,000 random keys and URIs', () => {
    let matched = 0;
    fc.assert(
      fc.property(key, uri, (k, u) => {
        const pattern = new CompiledPattern(k);
        if (pattern.engine !== 're2') return; // only PCRE-only syntax leaves RE2, and none is generated
        const want = reference(expandWildcards(k), u);
        const groups = pattern.match(u);
        if (groups) matched++;
        // RE2 reports a group that did not take part as '' like PHP does (trailing ones are dropped by PHP only).
        assert.deepEqual(groups?.map((g) => g ?? ''), want.groups?.map((g) => g ?? '') ?? undefined, `key ${k} on '${u}'`);
        const replacement = `<${Array.from({ length: pattern.groups }, (_, i) => `$${i + 1}`).join(',')}>`;
        assert.equal(pattern.replace(u, replacement), want.replaced, `preg_replace of ${k} on '${u}'`);
      }),
      { seed: 20261122, numRuns: 3000 },
    );
    // Not vacuous: a good share of the pairs match, with groups to compare.
    assert.ok(matched > 300, `only ${matched} of 3,000 pairs matched`);
  });

  it("tells a key's literal start, or its whole text, without a program, as the program would", () => {
    const cases: [string, string, string[] | null][] = [
      ['blog/archive', 'blog/archive', ['blog/archive']],
      ['blog/archive', 'blog/archive/', null],
      ['blog/archive', 'Blog/archive', null],
      ['blog/archive/(:num)', 'blog/archive/12', ['blog/archive/12', '12']],
      ['blog/archive/(:num)', 'blog/posts/12', null],
      // a quantifier takes the last literal character away from the start
      ['blog/ab?', 'blog/a', ['blog/a']],
      ['blog/ab*/(:any)', 'blog/a/x', ['blog/a/x', 'x']],
      // `#^photos|new$#`: the second alternative matches anything ending in `new`
      ['photos|new', 'xnew', ['new']],
      ['café/(:num)', 'café/1', ['café/1', '1']],
      ['café/(:num)', 'cafe/1', null],
      ['', '', ['']],
    ];
    for (const [k, u, want] of cases) assert.deepEqual(new CompiledPattern(k).match(u), want, `${k} on '${u}'`);
  });

  it('matches in linear time where backtracking would explode', () => {
    const pattern = new CompiledPattern('((a+)+)+$');
    assert.equal(pattern.engine, 're2');
    assert.equal(pattern.match(`${'a'.repeat(50_000)}!`), null);
  });
});
