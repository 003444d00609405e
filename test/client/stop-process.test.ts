import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { stopProcess } from '../../client/src/stop-process';

describe('client: stopping a server process that no longer answers', () => {
  it('ends a process stuck in a loop (SIGTERM)', async () => {
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("ready\\n"); for (;;) {}'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((r) => child.stdout!.once('data', r));
    await stopProcess(child);
    assert.equal(child.signalCode, 'SIGTERM');
  });

  it('kills one that ignores SIGTERM (SIGKILL)', async () => {
    const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => undefined); process.stdout.write("ready\\n"); setInterval(() => undefined, 1000);'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((r) => child.stdout!.once('data', r));
    await stopProcess(child, 200);
    assert.equal(child.signalCode, 'SIGKILL');
  });

  it('resolves at once for a process already gone', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    await stopProcess(child);
  });
});
