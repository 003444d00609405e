import { run } from '../../server/src/cli/main';

/** Runs the CLI in-process and captures what it prints. */
export function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = run(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), isTTY: false });
  return { code, stdout, stderr };
}
