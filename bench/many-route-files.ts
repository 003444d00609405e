/**
 * The language server's memory on a workspace of many large route files no editor opens:
 * writes one application whose `config/routes.php` and N-1 modules' route files hold D
 * declarations each (the bench's generator, a different seed per file), starts the built server
 * on it over stdio, and prints the time to index and the server's RSS while it indexes and then
 * checks every file ahead of its opening, until that is done (or the server dies).
 *
 *   npm run --silent build && node out/bench/many-route-files.js --files 200 --declarations 3000
 *
 * `--keep` leaves the generated folder in place (its path is printed); it is removed otherwise.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerProcess } from '../test/robustness/fuzz/server-process';
import { controllerSource, planControllers } from './gen-controllers';
import { generateRouteFile } from './gen-routes';
import { Random } from './random';

const SEED = 20_240_601;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** The route files' paths: the application's, then one per module `r<i>`. */
export function generateManyRouteFiles(root: string, files: number, declarations: number): string[] {
  const app = path.join(root, 'application');
  const controllers = planControllers(new Random(SEED));
  const bodies = new Random(SEED + 1);
  for (const c of controllers) write(path.join(app, c.file), controllerSource(c, bodies));
  write(path.join(app, 'config', 'constants.php'), "<?php\ndefined('SITE_AREA') || define('SITE_AREA', 'admin');\n");
  const out: string[] = [];
  for (let i = 0; i < files; i++) {
    const file = i === 0 ? path.join(app, 'config', 'routes.php') : path.join(app, 'modules', `r${i}`, 'config', 'routes.php');
    write(file, generateRouteFile(declarations, controllers, SEED + i).text);
    out.push(file);
  }
  return out;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

async function main(): Promise<void> {
  const files = option('files', 200);
  const declarations = option('declarations', 3000);
  const timeoutS = option('timeout', 900);
  const idleS = option('idle', 30);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-many-'));
  const t0 = Date.now();
  const routeFiles = generateManyRouteFiles(root, files, declarations);
  const bytes = routeFiles.reduce((n, f) => n + fs.statSync(f).size, 0);
  console.log(`${files} route files of ${declarations} declarations (${mb(bytes)} of route source) written in ${((Date.now() - t0) / 1000).toFixed(1)} s under ${root}`);
  // ServerProcess starts it as every launcher does (server/src/node-flags.ts).
  const server = new ServerProcess(root);
  let checked = 0;
  let held = '';
  /** The files the server checks ahead of their opening: those whose evaluation it holds (every file before the budget). */
  let toCheck = files;
  server.onLog = (message) => {
    if (/checked .* ahead of its opening/.test(message)) checked++;
    const m = /evaluations held: (\d+) .*/.exec(message);
    if (m) {
      held = m[0];
      toCheck = Number(m[1]);
    }
  };
  let peak = 0;
  const sample = () => {
    const rss = server.rss();
    if (rss !== undefined) peak = Math.max(peak, rss);
    return rss;
  };
  const sampler = setInterval(sample, 250);
  try {
    const started = Date.now();
    await server.initialize(root);
    await server.whenIndexed(timeoutS * 1000);
    const indexedS = (Date.now() - started) / 1000;
    console.log(`indexed in ${indexedS.toFixed(1)} s; RSS then ${mb(sample())}, peak so far ${mb(peak)}`);
    const deadline = Date.now() + timeoutS * 1000;
    let last = 0;
    while (server.alive && checked < toCheck && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      if (Date.now() - last > 15_000) {
        last = Date.now();
        console.log(`  ${checked}/${files} checked ahead, RSS ${mb(sample())}, peak ${mb(peak)}`);
      }
    }
    const doneS = (Date.now() - started) / 1000;
    // V8 gives memory back after seconds without allocation: the RSS the server settles at.
    let settled = sample();
    for (let waited = 0; server.alive && waited < idleS; waited++) {
      await new Promise((r) => setTimeout(r, 1000));
      const rss = sample();
      if (rss !== undefined && (settled === undefined || rss < settled)) settled = rss;
    }
    if (!server.alive) console.log(`the server died (${JSON.stringify(server.exit)}) after ${doneS.toFixed(0)} s, ${checked} file(s) checked; peak RSS ${mb(peak)}\n${server.stderr.slice(-2000)}`);
    else console.log(`${checked}/${toCheck} checked ahead in ${doneS.toFixed(1)} s; RSS ${mb(sample())}, peak ${mb(peak)}, lowest in ${idleS} s idle ${mb(settled)}${held ? `\n${held}` : ''}`);
  } finally {
    clearInterval(sampler);
    await server.stop();
    if (process.argv.includes('--keep')) console.log(`kept ${root}`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
