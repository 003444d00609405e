/**
 * Exits once everything written to stdout and stderr has been handed to them. Node writes to a
 * pipe asynchronously on Linux, and `process.exit()` right after a large write cuts it at the
 * pipe's 64 KB: `npm run bench -- --json | jq` read a truncated object.
 */
export function exitWhenFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
