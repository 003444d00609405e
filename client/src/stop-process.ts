import type { ChildProcess } from 'node:child_process';

/** How long a process is given to end on SIGTERM before SIGKILL. */
export const KILL_AFTER_MS = 2000;

function gone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Ends a process that no longer answers: SIGTERM, then SIGKILL if it is still there after
 * KILL_AFTER_MS. A server stuck in a loop cannot run a graceful `shutdown`; the signal's default
 * action needs no help from its event loop. Resolves once it has exited.
 */
export function stopProcess(child: ChildProcess, killAfterMs = KILL_AFTER_MS): Promise<void> {
  if (gone(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (!gone(child)) child.kill('SIGKILL');
    }, killAfterMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
