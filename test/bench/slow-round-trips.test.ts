import * as assert from 'node:assert/strict';
import { combineSlow, describeSlow, slowRoundTrips } from '../../bench/slow-round-trips';

describe('bench: where slow round trips go', () => {
  // Sent at 1000, 2000, 3000, 4000; the server's handler started and ran as given.
  const trips = [
    { ms: 0.5, sentAt: 1000 }, // fast: not counted
    { ms: 5, sentAt: 2000 }, // waited 4 ms before the handler
    { ms: 5, sentAt: 3000 }, // 4 ms in the handler
    { ms: 5, sentAt: 4000 }, // 4 ms after the handler
  ];
  const server = { startedAt: [1000.1, 2004, 3000.5, 4000.5], ms: [0.2, 0.5, 4, 0.5] };

  it('counts each slow trip under its longest part', () => {
    assert.deepEqual(slowRoundTrips(trips, server, 2), { thresholdMs: 2, of: 4, over: 3, beforeHandler: 1, inHandler: 1, afterHandler: 1 });
  });

  it('says nothing when the server\'s timings do not pair with the trips', () => {
    assert.equal(slowRoundTrips(trips, undefined, 2), undefined);
    assert.equal(slowRoundTrips(trips, { startedAt: [1], ms: [1] }, 2), undefined);
  });

  it('adds kinds together and describes the sum', () => {
    const one = slowRoundTrips(trips, server, 2);
    const both = combineSlow([one, one, undefined])!;
    assert.equal(describeSlow(both), '6 of 8 over 2 ms (most of each before the handler: 2, in it: 2, after it: 2)');
    assert.equal(describeSlow(slowRoundTrips(trips.slice(0, 1), { startedAt: [1000.1], ms: [0.2] }, 2)!), '0 of 1 over 2 ms');
    assert.equal(combineSlow([undefined]), undefined);
  });
});
