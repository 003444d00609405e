import * as assert from 'node:assert/strict';
import { runSteps, type Steps } from '../../shared/util/steps';
import { StepsMemo } from '../../shared/util/steps-memo';

describe('StepsMemo', () => {
  /** A build of `n` pauses that counts its starts and returns the key's name with `extra`. */
  function counting(n: number) {
    const starts: string[] = [];
    const memo = new StepsMemo<{ name: string }, string, [string]>(function* (key, extra): Steps<string> {
      starts.push(key.name);
      for (let i = 0; i < n; i++) yield;
      return `${key.name}${extra}`;
    });
    return { memo, starts };
  }

  it('finishes a run started in steps instead of starting another', () => {
    const { memo, starts } = counting(5);
    const key = { name: 'a' };
    const background = memo.steps(key, '!');
    background.next();
    background.next();
    assert.equal(memo.has(key), false);
    assert.equal(memo.get(key, '?'), 'a!', 'the run already under way, with the arguments it started with');
    assert.deepEqual(starts, ['a']);
    assert.equal(memo.has(key), true);
    // The background consumer now finds the value without more work.
    assert.deepEqual(background.next(), { value: 'a!', done: true });
    assert.equal(runSteps(memo.steps(key, '?')), 'a!');
    assert.deepEqual(starts, ['a']);
  });

  it('keeps one value per key', () => {
    const { memo, starts } = counting(1);
    const a = { name: 'a' };
    const b = { name: 'b' };
    assert.equal(memo.get(a, ''), 'a');
    assert.equal(memo.get(b, ''), 'b');
    assert.equal(memo.get(a, ''), 'a');
    assert.deepEqual(starts, ['a', 'b']);
  });

  it('does not keep a failed run: the next caller starts again', () => {
    let calls = 0;
    const memo = new StepsMemo<object, number>(function* (): Steps<number> {
      calls++;
      yield;
      if (calls === 1) throw new Error('boom');
      return calls;
    });
    const key = {};
    assert.throws(() => memo.get(key), /boom/);
    assert.equal(memo.get(key), 2);
    assert.equal(memo.get(key), 2);
  });

  it('a run abandoned by its consumer is finished by the next one', () => {
    const { memo, starts } = counting(3);
    const key = { name: 'k' };
    const first = memo.steps(key, '');
    first.next();
    first.return('abandoned');
    assert.equal(memo.get(key, ''), 'k');
    assert.deepEqual(starts, ['k']);
  });
});
