import * as assert from 'node:assert/strict';
import { LineIndex } from '../../shared/php/line-index';

describe('LineIndex', () => {
  it('converts offsets to lines and positions, and back', () => {
    const lines = new LineIndex('a\nbc\n\nd');
    assert.equal(lines.lineCount, 4);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((o) => lines.lineOf(o)), [0, 0, 1, 1, 1, 2, 3, 3]);
    assert.deepEqual(lines.position(3), { line: 1, character: 1 });
    assert.deepEqual(lines.position(99), { line: 3, character: 1 });
    assert.equal(lines.offset(1, 1), 3);
    assert.equal(lines.offset(1, 9), 4);
  });

  it('gives the same index for the same text, even another string of it, and keeps only the last two texts', () => {
    const text = 'x\n'.repeat(3000);
    const first = LineIndex.of(text);
    assert.equal(LineIndex.of(text), first);
    // Built apart, so that V8 holds two strings of the same characters.
    const again = ['x\n'.repeat(2999), 'x\n'].join('');
    assert.equal(LineIndex.of(again), first);
    const other = 'y\n'.repeat(3000);
    assert.notEqual(LineIndex.of(other), first);
    assert.equal(LineIndex.of(text), first);
    LineIndex.of('z');
    LineIndex.of('w');
    const afresh = LineIndex.of(text);
    assert.notEqual(afresh, first);
    assert.deepEqual(afresh.position(5), first.position(5));
  });
});
