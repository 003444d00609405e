import * as fs from 'node:fs';

/** Is the process running? A zombie (dead, not yet reaped by its new parent) counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; the comm may hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // not Linux: kill(pid, 0) said it runs
  }
}

/** Polls until the process is gone; resolves with the milliseconds it took, or rejects after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (isRunning(pid)) {
    if (Date.now() - start > timeoutMs) throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}
