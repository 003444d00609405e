import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * Runs a headless editor whose driver writes a JSON report to `out`, then removes `tmp` (the
 * editor's home). Killed after 150 s, past the drivers' own watchdog (120 s); the report is null
 * when the editor wrote none.
 */
export function runHeadlessEditor<R>(command: string, args: string[], env: NodeJS.ProcessEnv, tmp: string, out: string): Promise<{ code: number | null; report: R | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: R | null = null;
      try {
        report = JSON.parse(fs.readFileSync(out, 'utf8')) as R;
      } catch {
        report = null;
      }
      fs.rmSync(tmp, { recursive: true, force: true });
      resolve({ code, report, output });
    });
  });
}
