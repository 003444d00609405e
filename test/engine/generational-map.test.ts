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
});
