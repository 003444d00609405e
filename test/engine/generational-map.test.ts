import * as assert from 'node:assert/strict';
import { GenerationalMap } from '../../shared/util/generational-map';

describe('GenerationalMap (bounded caches)', () => {
  it('keeps what the last two generations used and drops the rest', () => {
    const m = new GenerationalMap<string, number>();
    m.set('old', 1);
    m.set('kept', 2);
    m.rotate();
    assert.equal(m.get('kept'), 2); // used in this generation: moves back
    m.rotate();
    assert.equal(m.get('old'), undefined);
    assert.equal(m.get('kept'), 2);
  });

  it('rotates on its own when a generation is full', () => {
    const m = new GenerationalMap<number, number>(3);
    for (let i = 0; i < 10; i++) m.set(i, i);
    assert.equal(m.get(0), undefined);
    assert.equal(m.get(9), 9);
    assert.equal(m.get(6), 6);
  });

  it('holds a bounded number of entries however many generations go by', () => {
    const m = new GenerationalMap<string, number>();
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 1000; i++) m.set(`${round}:${i}`, i);
      m.set('always', round);
      assert.equal(m.get('always'), round);
      m.rotate();
    }
    assert.ok(m.heldEntries <= 2 * 1001 + 1024 + 1001, `${m.heldEntries} entries held`);
    assert.equal(m.get('99:5'), 5);
    assert.equal(m.get('97:5'), undefined);
  });

  it('a value set again in the previous generation is kept and updated', () => {
    const m = new GenerationalMap<string, number>();
    m.set('k', 1);
    m.rotate();
    m.set('k', 2);
    m.rotate();
    assert.equal(m.get('k'), 2);
  });
});
