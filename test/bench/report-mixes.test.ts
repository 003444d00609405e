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
    // At 1,000: the outline's round trip within 20 ms (a median of 30 is not).
    assert.equal(of('bonfire', 'edit → document symbols, round trip').target, 'median ≤ 20 ms');
    assert.equal(of('bonfire', 'edit → document symbols, round trip').met, 'no');
  });

  it("checks the requests' targets at 10,000: handlers' p99 within 1 ms, round trips' within 0.5 ms of the no-op server's", () => {
    const big = result('bonfire', 10_000, 4);
    big.floor = { cold: figure([0.2, 0.3, 1.5]), warm: figure([0.1, 0.2, 0.4]), rss: figure([60]) };
    big.session.requests = { hover: figure([0.5, 1.9]), completion: figure([0.5, 2.1]), definition: none, symbols: none };
    big.session.warmRequests = { hover: figure([0.3, 0.9]), completion: figure([0.3, 0.95]), definition: none };
    big.session.serverRequests = { hover: figure([0.1, 1.0]), completion: figure([0.1, 1.2]), definition: none, symbols: none };
    big.session.warmServerRequests = { hover: figure([0.05, 0.5]), completion: figure([0.1, 1.01]), definition: none };
    big.session.rss = figure([149]);
    const r = rowsOf([big]);
    const met = (fig: string) => {
      const row = r.find((x) => x.figure === fig)!;
      return [row.target, row.met];
    };
    // The floor's p99 is 1.5 ms cold and 0.4 ms warm.
    assert.deepEqual(met('hover on Route::resources('), ['p99 ≤ no-op p99 + 0.5 ms', 'yes']);
    assert.deepEqual(met("completion in named('"), ['p99 ≤ no-op p99 + 0.5 ms', 'no']);
    assert.deepEqual(met('hover on Route::resources(, warm'), ['p99 ≤ no-op p99 + 0.5 ms', 'yes']);
    assert.deepEqual(met("completion in named(', warm"), ['p99 ≤ no-op p99 + 0.5 ms', 'no']);
    assert.deepEqual(met("definition of named('x')"), ['p99 ≤ no-op p99 + 0.5 ms', 'n/a']);
    assert.deepEqual(met('hover on Route::resources(, server'), ['p99 ≤ 1 ms', 'yes']);
    assert.deepEqual(met("completion in named(', server"), ['p99 ≤ 1 ms', 'no']);
    assert.deepEqual(met('hover on Route::resources(, warm, server'), ['p99 ≤ 1 ms', 'yes']);
    assert.deepEqual(met("completion in named(', warm, server"), ['p99 ≤ 1 ms', 'no']);
    assert.deepEqual(met('RSS after opening everything'), ['≤ 150 MB', 'yes']);
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
