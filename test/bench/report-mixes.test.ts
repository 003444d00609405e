import * as assert from 'node:assert/strict';
import { exampleAppRows, renderMarkdown, renderTable, rowsOf, type SizeResult } from '../../bench/report';
import type { SessionResult } from '../../bench/session';
import { figure } from '../../bench/stats';

const none = figure([], 'skipped', 'not measured here');

function session(editMs: number): SessionResult {
  return {
    index: none,
    open: figure([40]),
    openComplete: none,
    editServer: figure([editMs]),
    editE2e: figure([editMs + 2]),
    editSpread: none,
    typing: none,
    editSymbols: figure([20, 30, 40]),
    requests: { hover: figure([1]), completion: none, definition: none, symbols: none },
    warmRequests: { hover: figure([0.5]), completion: none, definition: none },
    serverRequests: { hover: none, completion: none, definition: none, symbols: none },
    warmServerRequests: { hover: none, completion: none, definition: none },
    maxRequest: none,
    rss: figure([120]),
    peakRss: none,
    checks: [],
  };
}

function result(mix: string, size: number, editMs: number): SizeResult {
  return { mix, size, bytes: 1, parse: figure([100]), phpLint: none, floor: { cold: figure([0.5]), warm: figure([0.25]), rss: figure([60]) }, session: session(editMs) };
}

describe('bench report: figures per mix', () => {
  const rows = rowsOf([result('bonfire', 1_000, 4), result('app', 1_000, 8)]);
  const of = (mix: string, fig: string) => rows.find((r) => r.mix === mix && r.figure === fig)!;

  it('gives every row its mix, with ratios to the parse and to the no-op server of its own run', () => {
    assert.equal(of('app', 'edit → diagnostics, server').ratio, 0.08);
    assert.equal(of('app', 'edit → diagnostics, server').noopRatio, undefined);
    assert.equal(of('app', 'edit → diagnostics, end to end').noopRatio, 20);
    assert.equal(of('bonfire', 'edit → document symbols, round trip').median, 30);
    assert.equal(of('bonfire', 'edit → document symbols, round trip').noopRatio, 60);
    assert.equal(of('bonfire', 'hover on Route::resources(, warm').noopRatio, 2);
    assert.equal(of('bonfire', 'RSS after opening everything').noopRatio, 2, "the RSS against the no-op server's");
    assert.equal(of('bonfire', 'no-op server RSS (floor)').median, 60);
  });

  it("checks the targets for every mix", () => {
    assert.equal(of('bonfire', 'edit → diagnostics, server').met, 'yes');
    assert.equal(of('app', 'edit → diagnostics, server').met, 'no');
    // At 1,000: within 1.5× the no-op server's RSS (120 against 60 MB is not).
    assert.equal(of('bonfire', 'RSS after opening everything').met, 'no');
  });

  it('groups the table by mix, with a × no-op column', () => {
    const table = renderTable(rows);
    assert.match(table.split('\n')[0], /× parse\s+× no-op/);
    assert.ok(table.indexOf('mix bonfire') < table.indexOf('mix app'));
    assert.match(renderMarkdown(rows), /^\| mix \| figure \|/);
    assert.match(renderMarkdown(rows), /\| app \| edit → diagnostics, end to end \| 1,000 \| 1 \| 10.0 ms \|  \| 0.10× \| 20× \|/);
  });

  it("reads the example app's RSS, after opening and once idle, against the run's no-op server", () => {
    const example = exampleAppRows({ files: 3, afterOpen: figure([95]), idle: figure([85]) }, 60);
    assert.deepEqual(
      example.map((r) => [r.mix, r.figure, r.noopRatio?.toFixed(3), r.target, r.met]),
      [
        ['example-app', 'RSS after opening everything', '1.583', '≤ 1.5× no-op', 'no'],
        ['example-app', 'RSS once idle', '1.417', '≤ 1.5× no-op', 'yes'],
      ],
    );
    const table = renderTable([...rows, ...example]);
    assert.equal(table.match(/^mix example-app$/gm)?.length, 1, 'one heading for the example app');
    assert.match(table, /^RSS once idle +— +1 +85\.0 MB +1\.42× +≤ 1\.5× no-op +yes$/m);
    assert.deepEqual(exampleAppRows({ files: 3, afterOpen: figure([], 'skipped', 'timed out'), idle: figure([], 'skipped', 'timed out') }, 60).map((r) => r.met), ['n/a', 'n/a']);
  });
});
