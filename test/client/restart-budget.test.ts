import * as assert from 'node:assert/strict';
import { MAX_RESTARTS, RESTART_WINDOW_MS, RestartBudget } from '../../client/src/restart-budget';

describe('client: the restart back-off (injected clock)', () => {
  it('waits 1 s, 2 s, 4 s, 8 s, 16 s, then gives up when the stops come within three minutes', () => {
    let now = 0;
    const budget = new RestartBudget(() => now);
    const delays = [];
    for (let i = 0; i < MAX_RESTARTS + 1; i++) {
      delays.push(budget.next());
      now += 20_000;
    }
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, undefined]);
    assert.equal(budget.recent, 6);
  });

  it('forgets stops older than three minutes', () => {
    let now = 0;
    const budget = new RestartBudget(() => now);
    assert.equal(budget.next(), 1000);
    now += 60_000;
    assert.equal(budget.next(), 2000);
    now += RESTART_WINDOW_MS; // both forgotten
    assert.equal(budget.next(), 1000);
  });
});
