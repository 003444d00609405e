import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Resident set size of a process in bytes: /proc on Linux, `ps` elsewhere, undefined if neither answers. */
export function readRss(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux, or the process is gone
  }
  if (process.platform === 'win32') return undefined;
  try {
    const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
    return Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
  } catch {
    return undefined;
  }
}
