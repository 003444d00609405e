import * as assert from 'node:assert/strict';
import { PositionMemo } from '../../shared/util/position-memo';

describe('PositionMemo', () => {
  const a = { name: 'a' };
  const b = { name: 'b' };

  it('computes a value once per key and position, again when another key takes the position', () => {
    const memo = new PositionMemo<object, string>();
    const computed: string[] = [];
    const compute = (k: object) => (computed.push((k as { name: string }).name), `value of ${(k as { name: string }).name}`);
    assert.equal(memo.get(0, a, compute), 'value of a');
    assert.equal(memo.get(0, a, compute), 'value of a');
    assert.equal(memo.get(1, a, compute), 'value of a');
    assert.equal(memo.get(0, b, compute), 'value of b');
    assert.equal(memo.get(0, a, compute), 'value of a');
    assert.deepEqual(computed, ['a', 'a', 'b', 'a']);
  });

  it('keeps a value set for a position, including undefined, and forgets positions past a truncation', () => {
    const memo = new PositionMemo<object, string | undefined>();
    const never = () => assert.fail('computed where a value was remembered');
    memo.set(0, a, undefined);
    memo.set(1, b, 'b');
    assert.equal(memo.get(0, a, never), undefined);
    assert.equal(memo.get(1, b, never), 'b');
    memo.truncate(1);
    assert.equal(memo.get(0, a, never), undefined);
    assert.equal(memo.get(1, b, () => 'again'), 'again');
    memo.clear();
    assert.equal(memo.get(0, a, () => 'fresh'), 'fresh');
  });
});
