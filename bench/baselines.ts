import { spawnSync } from 'node:child_process';
import { createPhpParser } from '../shared/php/parse';
import { figure, now, type Figure } from './stats';

/**
 * A whole-file parse of `text` by php-parser, configured as the engine configures it
 * (createPhpParser(): PHP 8.2, positions, error recovery) but without the engine's guards (their
 * cost is the engine's, not the yardstick's): the yardstick every figure is compared
 * with. One warm-up parse (not counted) when it is cheap, then up to `runs` parses within `budgetMs`.
 */
export function wholeFileParse(texts: string | readonly string[], runs: number, budgetMs: number): Figure {
  // Several files (a whole application's route files): each sample is the sum of their parses.
  const all = typeof texts === 'string' ? [texts] : texts;
  const parser = createPhpParser({ guarded: false });
  const samples: number[] = [];
  const started = now();
  const once = (): number => {
    const t = now();
    for (const text of all) parser.parseCode(text, 'routes.php');
    return now() - t;
  };
  const first = once();
  if (first * (runs + 1) < budgetMs) {
    samples.push(once());
  } else {
    samples.push(first);
  }
  while (samples.length < runs && now() - started + (samples[samples.length - 1] ?? 0) < budgetMs) samples.push(once());
  return figure(samples, samples.length < runs ? 'partial' : 'ok', samples.length < runs ? `${samples.length} of ${runs} runs within the ${Math.round(budgetMs / 1000)} s budget` : undefined);
}

let phpAvailable: boolean | undefined;

/** Is `php` on the PATH? */
export function hasPhp(): boolean {
  if (phpAvailable === undefined) {
    const r = spawnSync('php', ['-v'], { stdio: 'ignore', timeout: 10_000 });
    phpAvailable = !r.error && r.status === 0;
  }
  return phpAvailable;
}

/** `php -l file`, timed as a whole (process start included): the floor for a tool that shells out to PHP. */
export function phpLint(file: string, runs: number, budgetMs: number): Figure {
  if (!hasPhp()) return figure([], 'n/a', '`php` is not on the PATH');
  const samples: number[] = [];
  const started = now();
  while (samples.length < runs && now() - started < budgetMs) {
    const t = now();
    const r = spawnSync('php', ['-l', file], { stdio: 'ignore', timeout: Math.max(1000, budgetMs) });
    if (r.error) return figure(samples, samples.length ? 'partial' : 'timeout', String(r.error.message));
    samples.push(now() - t);
  }
  return figure(samples, samples.length < runs ? 'partial' : 'ok');
}
