import * as assert from 'node:assert/strict';
import { GenerationalMap, StampedMap } from '../../shared/util/generational-map';

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

describe('StampedMap (bounded caches of values carrying their stamp)', () => {
  interface Item {
    name: string;
    generation: number;
  }
  const item = (name: string): Item => ({ name, generation: 0 });

  it('keeps the values themselves, stamped, for two generations', () => {
    const m = new StampedMap<string, Item>();
    const old = item('old');
    const kept = item('kept');
    m.set('old', old);
    m.set('kept', kept);
    m.rotate();
    assert.equal(m.get('kept'), kept, 'the value itself, not a copy or a wrapper');
    assert.equal(kept.generation, 1, 'stamped with the generation that used it');
    m.rotate();
    assert.equal(m.get('old'), undefined);
    assert.equal(m.get('kept'), kept);
  });

  it('a value replaced in the previous generation is the new one, kept for two more', () => {
    const m = new StampedMap<string, Item>();
    m.set('k', item('first'));
    m.rotate();
    const second = item('second');
    m.set('k', second);
    m.rotate();
    assert.equal(m.get('k'), second);
    m.rotate();
    m.rotate();
    assert.equal(m.get('k'), undefined);
  });

  it('rotates on its own when a generation is full, and stays bounded', () => {
    const m = new StampedMap<number, Item>(3);
    for (let i = 0; i < 5000; i++) m.set(i, item(String(i)));
    assert.equal(m.get(0), undefined);
    assert.equal(m.get(4999)?.name, '4999');
    assert.ok(m.heldEntries <= 2 * 3 + 1024 + 3, `${m.heldEntries} entries held`);
  });
});
