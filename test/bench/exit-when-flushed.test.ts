import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

const HELPER = path.join(ROOT, 'out', 'bench', 'exit-when-flushed.js');

/** A process that writes `bytes` to its stdout (a pipe), then exits through the helper. */
function writeThenExit(bytes: number): number {
  const script = `process.stdout.write('x'.repeat(${bytes})); require(${JSON.stringify(HELPER)}).exitWhenFlushed(0);`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 16 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.length;
}

describe('bench output', () => {
  // With a plain process.exit() the same child's stdout stops at 65,536 bytes on Linux.
  it('reaches a pipe whole however large (the --json object of four sizes is over 64 KB)', () => {
    assert.equal(writeThenExit(2_000_000), 2_000_000);
  });
});
