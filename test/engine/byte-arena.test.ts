import * as assert from 'node:assert/strict';
import { ByteArena } from '../../shared/util/byte-arena';

describe('ByteArena', () => {
  it('cuts successive arrays from one buffer without overlap, aligned to their element size', () => {
    const arena = new ByteArena(1024);
    const a = arena.take(3, 1);
    const b = arena.take(4, 2);
    const c = arena.take(8, 4);
    assert.equal(b.buffer, a.buffer);
    assert.equal(c.buffer, a.buffer);
    assert.deepEqual([a.offset, b.offset, c.offset], [0, 4, 8]);
    const views = [new Uint8Array(a.buffer, a.offset, 3), new Int16Array(b.buffer, b.offset, 2), new Int32Array(c.buffer, c.offset, 2)];
    views[0].fill(1);
    views[1].fill(-2);
    views[2].fill(-3);
    assert.deepEqual([...views[0]], [1, 1, 1]);
    assert.deepEqual([...views[1]], [-2, -2]);
    assert.deepEqual([...views[2]], [-3, -3]);
  });

  it('starts a new buffer when the current one is full', () => {
    const arena = new ByteArena(64);
    const four = [arena.take(16, 1), arena.take(16, 1), arena.take(16, 1), arena.take(16, 1)];
    const fifth = arena.take(16, 1);
    assert.ok(four.every((t) => t.buffer === four[0].buffer));
    assert.deepEqual(four.map((t) => t.offset), [0, 16, 32, 48]);
    assert.notEqual(fifth.buffer, four[0].buffer);
    assert.equal(fifth.offset, 0);
  });

  it('gives an array larger than a quarter of a chunk a buffer of its own, leaving the chunk in use', () => {
    const arena = new ByteArena(64);
    const small = arena.take(4, 1);
    const large = arena.take(40, 1);
    assert.notEqual(large.buffer, small.buffer);
    assert.equal(large.buffer.byteLength, 40);
    assert.equal(arena.take(4, 1).buffer, small.buffer);
  });
});
