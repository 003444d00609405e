import * as assert from 'node:assert/strict';
import { Heartbeat, HEARTBEAT_POLICY, hungMessage, silenceBeforeHung, type HeartbeatPolicy } from '../../client/src/heartbeat';
import { FakeTimers, settle } from './fake-timers';

const POLICY: HeartbeatPolicy = { intervalMs: 10_000, timeoutMs: 10_000, missesForHung: 3 };

/** A server stand-in: records each ping, answers it at once, later or never, as the test says. */
class FakeServer {
  /** Times (on the fake clock) at which pings were sent. */
  readonly sentAt: number[] = [];
  private readonly open: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  mode: 'answer' | 'silent' | 'error' = 'answer';

  constructor(private readonly clock: FakeTimers) {}

  readonly ping = (): Promise<unknown> => {
    this.sentAt.push(this.clock.now);
    if (this.mode === 'answer') return Promise.resolve({ alive: true });
    if (this.mode === 'error') return Promise.reject(new Error('method not found'));
    return new Promise((resolve, reject) => this.open.push({ resolve, reject }));
  };

  /** Answers the oldest ping still open. */
  answerOldest(): void {
    this.open.shift()?.resolve({ alive: true });
  }
}

function setUp(policy = POLICY) {
  const clock = new FakeTimers();
  const server = new FakeServer(clock);
  const hungAt: number[] = [];
  const heartbeat = new Heartbeat(server.ping, () => hungAt.push(clock.now), policy, clock);
  return { clock, server, hungAt, heartbeat };
}

describe('client: the heartbeat policy (injected clock)', () => {
  it('pings every interval a server that answers, and never calls it hung', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    heartbeat.start();
    await clock.advance(100_000);
    assert.deepEqual(server.sentAt, [10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000, 100_000]);
    assert.deepEqual(hungAt, []);
  });

  it('calls a silent server hung once, after three pings missed in a row (30 s of silence), and stops pinging', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    heartbeat.start();
    server.mode = 'silent';
    await clock.advance(39_999);
    assert.deepEqual(hungAt, [], 'two misses and a ping still within its timeout');
    await clock.advance(1);
    assert.deepEqual(server.sentAt, [10_000, 20_000, 30_000], 'a missed ping is followed by another at once');
    assert.deepEqual(hungAt, [40_000]);
    assert.equal(heartbeat.running, false);
    await clock.advance(600_000);
    assert.deepEqual(hungAt, [40_000]);
    assert.equal(server.sentAt.length, 3);
    assert.equal(clock.pending, 0, 'no timer left behind');
  });

  it('takes a late answer (to an earlier ping) as a sign of life and clears the count', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    server.mode = 'silent';
    heartbeat.start();
    await clock.advance(35_000); // pings at 10 s, 20 s, 30 s; two missed
    server.answerOldest(); // the first one answers after 25 s: a busy server, not a stuck one
    server.mode = 'answer';
    await clock.advance(100_000);
    assert.deepEqual(hungAt, []);
    assert.deepEqual(server.sentAt.slice(0, 4), [10_000, 20_000, 30_000, 45_000], 'the next ping one interval after the answer');
  });

  it('needs the misses in a row: two misses, an answer, two misses are not hung; a third is', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    heartbeat.start();
    server.mode = 'silent';
    await clock.advance(30_000); // pings at 10 s and 20 s missed, a third sent at 30 s
    server.answerOldest(); // the answer to the first, at 30 s: the count starts again
    await clock.advance(30_000); // next ping at 40 s, missed at 50 s and 60 s
    assert.deepEqual(server.sentAt, [10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
    assert.deepEqual(hungAt, []);
    await clock.advance(10_000);
    assert.deepEqual(hungAt, [70_000]);
  });

  it('takes an error answer as an answer (the server is turning its event loop)', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    server.mode = 'error';
    heartbeat.start();
    await clock.advance(100_000);
    assert.deepEqual(hungAt, []);
    assert.equal(server.sentAt.length, 10);
  });

  it('stop() ends the pings and ignores answers that come after; start() begins afresh', async () => {
    const { clock, server, hungAt, heartbeat } = setUp();
    server.mode = 'silent';
    heartbeat.start();
    await clock.advance(25_000); // one miss, a second ping open
    heartbeat.stop();
    server.answerOldest();
    await settle();
    assert.equal(clock.pending, 0);
    await clock.advance(100_000);
    assert.equal(server.sentAt.length, 2);
    heartbeat.start(); // the count starts from zero: hung only after three new misses
    await clock.advance(39_999);
    assert.deepEqual(hungAt, []);
    await clock.advance(1);
    assert.deepEqual(hungAt, [125_000 + 40_000]);
  });

  it('start() twice keeps one ping per interval', async () => {
    const { clock, server, heartbeat } = setUp();
    heartbeat.start();
    heartbeat.start();
    await clock.advance(30_000);
    assert.deepEqual(server.sentAt, [10_000, 20_000, 30_000]);
  });

  it('says in plain text how long the server was silent', () => {
    assert.equal(silenceBeforeHung(HEARTBEAT_POLICY), 30_000);
    const message = hungMessage(HEARTBEAT_POLICY);
    assert.match(message, /3 pings unanswered for 30 s/);
    assert.doesNotMatch(message, /[[\]`*<>]/, 'no Markdown or HTML in a notification');
  });
});
