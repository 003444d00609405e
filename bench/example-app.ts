import * as fs from 'node:fs';
import * as path from 'node:path';
import { idleRss } from './idle-rss';
import { LspDriver, ServerExitedError, TimeoutError } from './lsp-driver';
import { BENCH_SETTINGS } from './session';
import { figure, now, type Figure } from './stats';

/** The bundled example application (README's `npm start`), in the bench as the mix `example-app`. */
export const EXAMPLE_APP = path.join('examples', 'bonfire-app');

export interface ExampleAppMemory {
  /** Route files opened: every `routes*.php` under its `application/`. */
  files: number;
  /** RSS once every file's analysis was published. */
  afterOpen: Figure;
  /** The lowest RSS while left alone for the window (see idleRss). */
  idle: Figure;
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : /^routes.*\.php$/.test(e.name) ? [p] : [];
  });
}

/**
 * The server's RSS with the example application open, as an editor opens it: the workspace
 * indexed, then each of its route files opened and analysed. The memory target is read
 * against the no-op server's RSS of the same run.
 */
export async function exampleAppMemory(root: string, idleMs: number, budgetMs: number): Promise<ExampleAppMemory> {
  const end = now() + budgetMs;
  const left = () => Math.max(1000, end - now());
  const app = path.join(root, EXAMPLE_APP);
  const files = routeFiles(path.join(app, 'application')).sort();
  const failed = (why: string): ExampleAppMemory => ({ files: files.length, afterOpen: figure([], 'skipped', why), idle: figure([], 'skipped', why) });
  const driver = new LspDriver(root, BENCH_SETTINGS);
  try {
    await driver.initialize(app, left());
    await driver.indexWorkspace(left());
    for (const file of files) await driver.open(file, fs.readFileSync(file, 'utf8'), 1, left(), true);
    const rss = driver.memory().rssMb;
    if (rss === undefined) return failed('no /proc/<pid>/status');
    return { files: files.length, afterOpen: figure([rss]), idle: await idleRss(driver, Math.min(idleMs, left() - 1000)) };
  } catch (e) {
    if (!(e instanceof TimeoutError) && !(e instanceof ServerExitedError)) throw e;
    driver.kill();
    return failed((e as Error).message);
  } finally {
    await driver.stop();
  }
}
