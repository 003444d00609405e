import { run } from './main';

try {
  process.exitCode = run(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
  });
} catch (e) {
  process.stderr.write(`ci-routes: internal error: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 70;
}
