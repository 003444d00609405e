import { terminalText } from '../../../shared/util/escape';
import { run } from './main';

/**
 * A reader that stops early (`ci-routes list … | head -1`) closes the pipe: what is left to print
 * is dropped and the run ends with its own exit code, without a stack trace.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    throw e;
  });
}

quietOnClosedPipe(process.stdout);
quietOnClosedPipe(process.stderr);

try {
  process.exitCode = run(process.argv.slice(2), {
    out: (t) => void (process.stdout.destroyed || process.stdout.write(t)),
    err: (t) => void (process.stderr.destroyed || process.stderr.write(t)),
    isTTY: Boolean(process.stdout.isTTY),
  });
} catch (e) {
  // A stack's messages may quote the route file: each line is made safe for the terminal.
  const trace = ((e as Error).stack ?? String(e)).split('\n').map(terminalText).join('\n');
  if (!process.stderr.destroyed) process.stderr.write(`ci-routes: internal error: ${trace}\n`);
  process.exitCode = 70;
}
