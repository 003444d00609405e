import * as fs from 'node:fs';

/** CPU time counters of the whole machine (jiffies), where Linux reports them. */
export interface CpuTimes {
  total: number;
  steal: number;
}

/** The machine's CPU counters now (/proc/stat), or undefined off Linux. */
export function cpuTimes(): CpuTimes | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu '));
    // user nice system idle iowait irq softirq steal ...
    const f = line?.trim().split(/\s+/).slice(1, 9).map(Number);
    if (!f || f.length < 8 || f.some((n) => !Number.isFinite(n))) return undefined;
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] };
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU time the hypervisor took for other guests between two readings
 * (steal time), in percent: a virtual machine whose vCPUs are often stolen gives noisy timings.
 */
export function stealPercent(before: CpuTimes | undefined, after: CpuTimes | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}
