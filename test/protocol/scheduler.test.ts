import * as assert from 'node:assert/strict';
import { Scheduler, type Due, type Timers } from '../../server/src/lsp/scheduler';
import { DiagnosticsPublisher } from '../../server/src/lsp/diagnostics-publisher';

/** Timers run by hand: `tick(ms)` fires what is due, `turn()` runs what was queued for the next turn. */
function manualTimers() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  let queued: (() => void)[] = [];
  const timers: Timers = {
    after: (ms, run) => {
      pending.set(++next, { at: now + ms, run });
      return next;
    },
    cancel: (handle) => void pending.delete(handle as number),
    soon: (run) => void queued.push(run),
    nextTurn: () => Promise.resolve(),
  };
  return {
    timers,
    tick(ms: number) {
      now += ms;
      for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        pending.delete(id);
        t.run();
      }
    },
    turn() {
      const run = queued;
      queued = [];
      for (const r of run) r();
    },
  };
}

describe('Scheduler', () => {
  it('debounces per document: a later edit replaces the earlier timer', () => {
    const clock = manualTimers();
    const due: Due[] = [];
    const s = new Scheduler((e) => due.push(e), clock.timers);
    s.debounce('a', 100);
    clock.tick(60);
    s.debounce('a', 100);
    clock.tick(60);
    assert.deepEqual(due, []);
    assert.ok(s.debouncing('a'));
    clock.tick(40);
    assert.deepEqual(due, [{ kind: 'debounceElapsed', uri: 'a' }]);
    assert.ok(!s.debouncing('a'));
  });

  it('coalesces deferred work by kind (and by application for main routes and module keys)', () => {
    const clock = manualTimers();
    const due: Due[] = [];
    const s = new Scheduler((e) => due.push(e), clock.timers);
    s.defer({ kind: 'namesDue' }, 50);
    s.defer({ kind: 'namesDue' }, 50);
    s.defer({ kind: 'mainRoutesDue', appDir: '/a' }, 50);
    s.defer({ kind: 'mainRoutesDue', appDir: '/b' }, 50);
    s.defer({ kind: 'moduleKeysDue', appDir: '/a' }, 50);
    s.defer({ kind: 'moduleKeysDue', appDir: '/a' }, 50);
    s.defer({ kind: 'moduleKeysDue', appDir: '/b' }, 50);
    clock.tick(50);
    assert.deepEqual(due, [
      { kind: 'namesDue' },
      { kind: 'mainRoutesDue', appDir: '/a' },
      { kind: 'mainRoutesDue', appDir: '/b' },
      { kind: 'moduleKeysDue', appDir: '/a' },
      { kind: 'moduleKeysDue', appDir: '/b' },
    ]);
  });

  it('gives one queued document a turn per turn of the event loop, even after a failing turn', () => {
    const clock = manualTimers();
    const due: Due[] = [];
    const s = new Scheduler((e) => {
      due.push(e);
      if (e.kind === 'analysisTurn' && e.uri === 'a') throw new Error('boom');
    }, clock.timers);
    s.enqueue('a');
    s.enqueue('b');
    s.enqueue('a');
    assert.ok(s.busy());
    assert.throws(() => clock.turn(), /boom/);
    assert.deepEqual(due, [{ kind: 'analysisTurn', uri: 'a' }]);
    clock.turn();
    assert.deepEqual(due.map((d) => (d.kind === 'analysisTurn' ? d.uri : d.kind)), ['a', 'b']);
    assert.ok(!s.busy());
  });

  it('forgets everything on clear', () => {
    const clock = manualTimers();
    const due: Due[] = [];
    const s = new Scheduler((e) => due.push(e), clock.timers);
    s.debounce('a', 10);
    s.defer({ kind: 'moduleKeysDue', appDir: '/a' }, 10);
    s.enqueue('b');
    s.clear();
    clock.tick(20);
    clock.turn();
    assert.deepEqual(due, []);
  });
});

describe('DiagnosticsPublisher', () => {
  it('never publishes an older version of a document after a newer one', () => {
    const sent: { uri: string; version?: number }[] = [];
    const p = new DiagnosticsPublisher((params) => void sent.push({ uri: params.uri, version: params.version }));
    assert.ok(p.publish('a', 2, []));
    assert.ok(p.publish('a', 2, []), 'the same version again (the early findings, then all)');
    assert.ok(!p.publish('a', 1, []));
    assert.ok(p.publish('b', 1, []));
    assert.ok(p.publish('a', undefined, []), 'a file no editor has open has no version');
    p.forget('a');
    assert.ok(p.publish('a', 1, []), 'opened again: its versions start again');
    assert.deepEqual(sent, [
      { uri: 'a', version: 2 },
      { uri: 'a', version: 2 },
      { uri: 'b', version: 1 },
      { uri: 'a', version: undefined },
      { uri: 'a', version: 1 },
    ]);
  });
});
