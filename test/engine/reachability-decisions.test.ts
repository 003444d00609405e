import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { CoverageWalk, DecisionMemo } from '../../shared/analysis/diagnostics/checks/coverage-walk';
import { decideTable as decideSteps, type MethodDecisions, type TableEntries } from '../../shared/analysis/diagnostics/checks/reachability-decisions';
import { runSteps } from '../../shared/util/steps';
import { InclusionChecker } from '../../shared/analysis/regular/inclusion';
import type { LiteralOrigin } from '../../shared/library/records';

const decideTable = (...args: Parameters<typeof decideSteps>): MethodDecisions => runSteps(decideSteps(...args));

/**
 * Incremental reachability: deciding an edited table from the previous table's decisions must
 * give what deciding it afresh gives. Keys come from a small vocabulary so that buckets collide,
 * routes cover each other, and wild keys (which may start with any segment) come and go.
 */
const VOCABULARY = [
  'a', 'a/(:num)', 'a/(:any)', 'a/new', 'a/(:num)/edit', 'b', 'b/(:any)', 'b/x', 'c/(:num)', 'c/1', 'c/(:any)/y',
  '(:any)', '(:any)/x', '(:any)/a/(:num)', '(:num)/a', '(a|b)/x', 'a/x', '(a|b)/(:any)', '(v[0-9]+)/a', '(v[0-9]+)/b/(:num)', '([a-z]+)/x', 'a/([0-9]+)', 'd//e', '',
  // Keys under one first segment told apart by their second (Bonfire's contexts: admin/<context>/…).
  'a/x/(:num)', 'a/x/(:any)/(:any)', 'a/y', 'a/y/(:any)', 'a/(:any)/x', 'a/xs?/(:num)',
];

/** A table of `$route` entries (no condition, no block()). */
function table(keys: readonly string[]): TableEntries {
  const origin: LiteralOrigin = { kind: 'literal', span: { start: 0, end: 0 }, valueSpan: { start: 0, end: 0 } };
  return { keys, blocked: new Uint8Array(keys.length), originAt: () => origin };
}

/** Decisions as comparable text: index, kind and covering indices. */
function summary(d: MethodDecisions): string[] {
  return [...d.decided].sort(([a], [b]) => a - b).map(([i, c]) => `${i} ${d.entries.keys[i]}: ${c.kind}${c.kind === 'covered' ? ` by ${c.by.join(',')}` : ''}`);
}

type Edit = { at: number; remove: number; insert: string[] };

const tableArb = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 0, maxLength: 30 });
const editArb = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 3 }) });

function apply(keys: string[], edit: Edit): string[] {
  const at = keys.length === 0 ? 0 : edit.at % (keys.length + 1);
  const next = keys.slice();
  next.splice(at, edit.remove, ...edit.insert);
  return next;
}

/** Each entry's literal first segment (null: a wild key), as the decisions number them. */
function segmentsOf(d: MethodDecisions): (string | null)[] {
  return [...d.buckets].map((b) => (b < 0 ? null : d.segmentIds.name(b)));
}

describe('reachability decided incrementally', () => {
  it('equals deciding the edited table afresh, over random edit sequences', () => {
    const checker = new InclusionChecker();
    let edited = 0;
    fc.assert(
      fc.property(tableArb, fc.array(editArb, { minLength: 1, maxLength: 8 }), (start, edits) => {
        const memo = new DecisionMemo();
        let keys = start;
        let previous = decideTable(table(keys), undefined, checker, memo);
        for (const edit of edits) {
          keys = apply(keys, edit);
          const entries = table(keys);
          const incremental = decideTable(entries, previous, checker, memo);
          const fresh = decideTable(entries, undefined, checker, new DecisionMemo());
          assert.deepEqual(summary(incremental), summary(fresh), `after ${JSON.stringify(edit)} on ${JSON.stringify(keys)}`);
          assert.deepEqual(segmentsOf(incremental), segmentsOf(fresh));
          assert.deepEqual(incremental.wild, fresh.wild);
          edited++;
          previous = incremental;
        }
      }),
      { seed: 42, numRuns: 300 },
    );
    assert.ok(edited > 500, `${edited} edits decided`);
  });

  it('carries over the decisions of buckets the edit did not touch, moved by the entries it added', () => {
    const checker = new InclusionChecker();
    const memo = new DecisionMemo();
    const before = decideTable(table(['x', 'b/(:any)', 'b/x', 'a', 'a']), undefined, checker, memo);
    assert.deepEqual(summary(before), ['2 b/x: covered by 1', '4 a: covered by 3']);
    const after = decideTable(table(['x', 'y', 'z', 'b/(:any)', 'b/x', 'a', 'a']), before, checker, memo);
    assert.deepEqual(summary(after), ['4 b/x: covered by 3', '6 a: covered by 5']);
  });

  it('decides a wild key again when the edit removes a key covering it, or adds one matching where it was found reachable', () => {
    const checker = new InclusionChecker();
    const memo = new DecisionMemo();
    const covered = decideTable(table(['a/(:any)', 'b/(:any)', 'c', '(a|b)/(:any)']), undefined, checker, memo);
    assert.deepEqual(summary(covered), ['3 (a|b)/(:any): covered by 0,1']);
    // Edits in another bucket leave the decision (and the covering keys, moved) as they were.
    const moved = decideTable(table(['a/(:any)', 'b/(:any)', 'c', 'd', '(a|b)/(:any)']), covered, checker, memo);
    assert.deepEqual(summary(moved), ['4 (a|b)/(:any): covered by 0,1']);
    const uncovered = decideTable(table(['b/(:any)', 'c', 'd', '(a|b)/(:any)']), moved, checker, memo);
    assert.deepEqual(summary(uncovered), []);
    const reachable = decideTable(table(['c', '(a|b)/(:any)']), undefined, checker, memo);
    assert.deepEqual(summary(reachable), []);
    assert.equal(reachable.witnesses.size, 1, 'the wild key was found reachable through a witness');
    const stillReachable = decideTable(table(['c', 'e/(:any)', '(a|b)/(:any)']), reachable, checker, memo);
    assert.deepEqual(summary(stillReachable), []);
    assert.equal(stillReachable.witnesses.size, 1);
    const nowCovered = decideTable(table(['c', 'a/(:any)', 'b/(:any)', '(a|b)/(:any)']), stillReachable, checker, memo);
    assert.deepEqual(summary(nowCovered), ['3 (a|b)/(:any): covered by 1,2']);
  });

  it('numbers no more first segments than a bound over a long run of edits, and still equals deciding afresh', () => {
    // Typing a key's first segment numbers a new one on every keystroke; the ids of segments
    // long gone are dropped by starting the lineage afresh once there are too many.
    const checker = new InclusionChecker();
    const memo = new DecisionMemo();
    let keys = ['a/(:num)', 'a/1', 'b', 'b', 'c/(:any)', 'c/x'];
    let previous = decideTable(table(keys), undefined, checker, memo);
    let largest = 0;
    for (let n = 0; n < 3000; n++) {
      keys = [...keys.slice(0, 2), `typed${n}`, ...keys.slice(3)];
      previous = decideTable(table(keys), previous, checker, memo);
      largest = Math.max(largest, previous.segmentIds.size);
    }
    assert.ok(largest <= 2 * keys.length + 1024 + 1, `${largest} segments numbered at most`);
    assert.deepEqual(summary(previous), summary(decideTable(table(keys), undefined, checker, new DecisionMemo())));
    assert.deepEqual(segmentsOf(previous), ['a', 'a', 'typed2999', 'b', 'c', 'c']);
  });
});

describe('the coverage walk', () => {
  it('answers for each key what the inclusion checker answers against every earlier key, its memo warm from other tables', () => {
    const checker = new InclusionChecker();
    const memo = new DecisionMemo();
    let keysWalked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 0, maxLength: 40 }), (keys) => {
        memo.rotate();
        const walk = new CoverageWalk(checker, memo, keys);
        for (let i = 0; i < keys.length; i++) {
          const walked = walk.coverage(i);
          const whole = checker.coverage(keys[i]!, keys, i);
          assert.equal(walked.kind, whole.kind, `${keys[i]} at ${i} in ${JSON.stringify(keys)}`);
          // Each covering key the walk names is an earlier key that the checker finds covering with the others it names.
          if (walked.kind === 'covered') assert.ok(walked.by.every((j) => j < i), JSON.stringify(walked.by));
          keysWalked++;
        }
      }),
      { seed: 7, numRuns: 400 },
    );
    assert.ok(keysWalked > 1000, `${keysWalked} keys walked`);
  });
});
