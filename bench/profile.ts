/**
 * `[MIX=context-heavy] node out/bench/profile.js [size]`: where an edit's time goes inside the engine, without a
 * server: scan+parse, evaluation and each diagnostics check, for the first analysis and for
 * one-character edits in the middle of a generated route file. A developer's tool; the bench is
 * the measure.
 */
import { FILE_CHECKS } from '../shared/analysis/diagnostics/analyze';
import type { CheckContext } from '../shared/analysis/diagnostics/core/context';
import { Describer } from '../shared/analysis/model/origins';
import { DocumentEvaluator } from '../shared/evaluate/document-evaluator';
import { planControllers } from './gen-controllers';
import { generateRouteFile } from './gen-routes';
import { MIXES } from './mixes';
import { SEED } from './generate';
import { Random } from './random';
import { EditProfiler } from './edit-profiler';

function offsetOf(text: string, line: number, character: number): number {
  let at = 0;
  for (let l = 0; l < line; l++) at = text.indexOf('\n', at) + 1;
  return at + character;
}

/** CPU time, not wall time: other processes on a shared machine then matter less. */
function time<T>(label: string, into: Map<string, number>, fn: () => T): T {
  const t0 = process.cpuUsage();
  const r = fn();
  const d = process.cpuUsage(t0);
  into.set(label, (into.get(label) ?? 0) + (d.user + d.system) / 1000);
  return r;
}

function run(size: number): void {
  const controllers = planControllers(new Random(SEED));
  const mix = process.env.MIX ? MIXES[process.env.MIX] : undefined;
  if (process.env.MIX && !mix) throw new Error(`unknown mix '${process.env.MIX}' (expected ${Object.keys(MIXES).join(', ')})`);
  const plan = generateRouteFile(size, controllers, SEED + size, mix);
  let text = plan.text;
  const at = offsetOf(text, plan.edit.line, plan.edit.character);
  const evaluator = new DocumentEvaluator({ constants: new Map([['SITE_AREA', 'admin']]), maxSteps: 50_000_000 });
  const rounds = Number(process.argv[3] ?? 12);
  const edits = new Map<string, number[]>();
  const profiler = new EditProfiler(process.env.CPU_PROFILE, size);
  for (let round = 0; round <= rounds; round++) {
    if (round === 1) profiler.start();
    const t = new Map<string, number>();
    if (round > 0) {
      const char = round % 2 === 1 ? 'z' : plan.edit.original;
      text = text.slice(0, at) + char + text.slice(at + 1);
    }
    const evaluation = time('evaluate', t, () => evaluator.update(text));
    const ctx: CheckContext = { text, evaluation, describe: new Describer(text) };
    let findings = 0;
    for (const check of FILE_CHECKS) findings += time(check.name || 'check', t, () => check(ctx)).length;
    const total = [...t.values()].reduce((a, b) => a + b, 0);
    if (round > 0) for (const [k, ms] of [...t, ['total', total] as [string, number]]) edits.set(k, [...(edits.get(k) ?? []), ms]);
    const parts = [...t].filter(([, ms]) => ms >= 0.5).map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(', ');
    if (round === 0 || process.env.VERBOSE) console.log(`${size} ${round === 0 ? 'open' : `edit ${round}`}: ${total.toFixed(1)} ms (${findings} findings; ${evaluator.lastStats()}) ${parts}`);
  }
  profiler.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`${size} edits, median CPU ms: ${[...edits].map(([k, xs]) => `${k} ${median(xs).toFixed(1)}`).join(', ')}`);
}

for (const size of (process.argv[2] ?? '1000,10000').split(',').map(Number)) run(size);
