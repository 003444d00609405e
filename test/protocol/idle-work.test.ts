import * as assert from 'node:assert/strict';
import { IdleWork } from '../../server/src/lsp/idle-work';
import type { Steps } from '../../shared/util/steps';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(done: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await turn();
  assert.ok(done(), 'did not happen within the turns allowed');
}

describe('IdleWork', () => {
  /** A job of `n` units, each logged, that takes about `unitMs` each. */
  function job(log: string[], name: string, n: number, unitMs = 0): Steps<void> {
    return (function* () {
      for (let i = 0; i < n; i++) {
        const end = performance.now() + unitMs;
        while (performance.now() < end);
        log.push(`${name}${i}`);
        yield;
      }
    })();
  }

  it('runs jobs to the end in slices, leaving the event loop between them', async () => {
    const log: string[] = [];
    const idle = new IdleWork(2, () => false, assert.fail);
    idle.start('a', job(log, 'a', 20, 0.5));
    assert.deepEqual(log, [], 'nothing runs in the caller');
    let turns = 0;
    await until(() => {
      turns++;
      return !idle.pending('a');
    });
    assert.equal(log.length, 20);
    assert.ok(turns > 2, `ran in ${turns} turns: a 2 ms slice cannot hold ten 0.5 ms units`);
  });

  it('waits while more urgent work is queued', async () => {
    const log: string[] = [];
    let busy = true;
    const idle = new IdleWork(2, () => busy, assert.fail);
    idle.start('a', job(log, 'a', 3));
    for (let i = 0; i < 10; i++) await turn();
    assert.deepEqual(log, []);
    busy = false;
    await until(() => !idle.pending('a'));
    assert.deepEqual(log, ['a0', 'a1', 'a2']);
  });

  it('a job started again for the same document replaces the old one; cancel stops it', async () => {
    const log: string[] = [];
    const idle = new IdleWork(2, () => false, assert.fail);
    let finallyRan = false;
    idle.start('a', (function* () {
      try {
        log.push('old');
        // Longer than a slice: the slice ends at this pause.
        const end = performance.now() + 3;
        while (performance.now() < end);
        yield;
        log.push('old again');
      } finally {
        finallyRan = true;
      }
    })());
    await until(() => log.length > 0);
    idle.start('a', job(log, 'new', 2));
    assert.equal(finallyRan, true, 'the old job was closed');
    idle.start('b', job(log, 'b', 100, 0.2));
    await until(() => !idle.pending('a'));
    idle.cancel('b');
    const at = log.length;
    for (let i = 0; i < 10; i++) await turn();
    assert.equal(log.length, at, 'nothing ran after the cancel');
    assert.ok(!log.includes('old again'));
    assert.ok(log.includes('new1'));
  });

  it('reports a failing job and goes on with the others', async () => {
    const log: string[] = [];
    const errors: string[] = [];
    const idle = new IdleWork(2, () => false, (uri, e) => errors.push(`${uri}: ${(e as Error).message}`));
    idle.start('bad', (function* (): Steps<void> {
      yield;
      throw new Error('boom');
    })());
    idle.start('good', job(log, 'g', 3));
    await until(() => !idle.pending('good') && !idle.pending('bad'));
    assert.deepEqual(errors, ['bad: boom']);
    assert.deepEqual(log, ['g0', 'g1', 'g2']);
  });

  it('starts only after a quiet period, which every new start begins again', async () => {
    // A clock the test moves: the quiet period ends when the test says so.
    let pending: (() => void) | undefined;
    let cleared = 0;
    const timer = { set: (run: () => void) => ((pending = run), run), clear: () => void cleared++ };
    const log: string[] = [];
    const idle = new IdleWork(2, () => false, assert.fail, 300, timer);
    idle.start('a', job(log, 'a', 2));
    for (let i = 0; i < 10; i++) await turn();
    assert.deepEqual(log, [], 'nothing runs before the quiet period ends');
    // An edit's new job: the wait begins again, and only the new job remains.
    idle.start('a', job(log, 'b', 2));
    assert.equal(cleared, 1);
    for (let i = 0; i < 10; i++) await turn();
    assert.deepEqual(log, []);
    pending!();
    await until(() => !idle.pending('a'));
    assert.deepEqual(log, ['b0', 'b1']);
  });
});
