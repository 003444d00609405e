import * as assert from 'node:assert/strict';
import { medianRatio, pairedRatio, poolRuns, renderRows, slowerThan, type Row } from '../../bench/compare-rows';

const row = (what: string, mine: number[], theirs: number[], unit = 'ms'): Row => ({ what, mine, theirs, unit });

describe('bench:compare: server pairs pooled', () => {
  it('pools each figure over the pairs, keeping each pair\'s own paired ratio', () => {
    const pooled = poolRuns([
      [row('edit, server', [2, 4, 6], [2, 2, 2]), row('RSS at the end', [100], [80], 'MB')],
      [row('edit, server', [1, 1, 1], [1, 1, 1]), row('RSS at the end', [90], [90], 'MB')],
    ]);
    assert.deepEqual(
      pooled.map((p) => [p.what, p.mine, p.theirs, p.pairRatios]),
      [
        ['edit, server', [2, 4, 6, 1, 1, 1], [2, 2, 2, 1, 1, 1], [2, 1]],
        ['RSS at the end', [100, 90], [80, 90], [1.25, 1]],
      ],
    );
    // Pooled: ratios 1, 2, 3, 1, 1, 1; medians 1.5 against 1.5.
    assert.equal(pairedRatio(pooled[0]), 1);
    assert.equal(medianRatio(pooled[0]), 1);
  });

  it('keeps each figure\'s breakdowns apart, though they share their names', () => {
    const run = [row('edit, server', [2], [1]), row('  of which analysis', [1], [1]), row('typing, server', [3], [1]), row('  of which analysis', [2], [1])];
    const pooled = poolRuns([run, run]);
    assert.deepEqual(
      pooled.map((p) => [p.what, p.mine]),
      [
        ['edit, server', [2, 2]],
        ['  of which analysis', [1, 1]],
        ['typing, server', [3, 3]],
        ['  of which analysis', [2, 2]],
      ],
    );
  });

  it('lists a figure as slower only when both ratios pass the bound, and never a breakdown', () => {
    const pooled = poolRuns([
      [
        row('typing, server', [12, 12, 12], [10, 10, 10]),
        row('  of which analysis', [6, 6, 6], [4, 4, 4]),
        // The medians differ by 20%, sample pair by sample pair mostly nothing.
        row('open', [9, 12, 12], [10, 10, 12]),
        row('hover, round trip', [1.05, 1.05, 1.05], [1, 1, 1]),
      ],
    ]);
    assert.deepEqual(
      slowerThan(pooled, 1.1).map((r) => r.what),
      ['typing, server'],
    );
  });

  it('shows the pairs\' spread only when there are several', () => {
    const one = renderRows('bonfire 1,000', poolRuns([[row('edit, server', [2], [1])]]), 1);
    assert.doesNotMatch(one, /pairs/);
    assert.match(one, /edit, server\s+1\s+2\.00 ms\s+1\.00 ms\s+2\.00×\s+2\.00×$/m);
    const two = renderRows('bonfire 1,000', poolRuns([[row('edit, server', [2], [1])], [row('edit, server', [1], [1])]]), 2);
    assert.match(two, /the 2 server pairs' paired ratios/);
    assert.match(two, /edit, server\s+2\s+1\.50 ms\s+1\.00 ms\s+1\.50×\s+1\.50×\s+1\.00–2\.00×$/m);
  });
});
