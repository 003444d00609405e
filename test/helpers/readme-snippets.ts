import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './paths';

/** A fenced block of README.md named by the `<!-- snippet: NAME -->` line just above it. */
export interface ReadmeSnippet {
  name: string;
  /** The fence's info string: `lua`, `toml`, `elisp`, `json`… */
  lang: string;
  /** The block's text as a reader copies it, ending with a newline. */
  text: string;
  /** 1-based line of the block's first line in README.md. */
  line: number;
}

/** Every named snippet of README.md, in order; a marker not followed by a fence throws. */
export function readmeSnippets(readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')): ReadmeSnippet[] {
  const lines = readme.split('\n');
  const found: ReadmeSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- snippet: ([\w.-]+) -->$/.exec(lines[i].trim());
    if (!marker) continue;
    const fence = /^(`{3,})(\S*)\s*$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`README.md:${i + 1}: snippet '${marker[1]}' is not followed by a fenced block`);
    const end = lines.findIndex((l, j) => j > i + 1 && l.trim() === fence[1]);
    if (end < 0) throw new Error(`README.md:${i + 2}: snippet '${marker[1]}' has no closing fence`);
    found.push({ name: marker[1], lang: fence[2], text: lines.slice(i + 2, end).join('\n') + '\n', line: i + 3 });
  }
  return found;
}

/** The README's snippet NAME; throws when it is missing or named twice. */
export function readmeSnippet(name: string): ReadmeSnippet {
  const all = readmeSnippets().filter((s) => s.name === name);
  if (all.length !== 1) throw new Error(`README.md has ${all.length} snippets named '${name}'`);
  return all[0];
}

/** The command every snippet starts the server with; tests put a stand-in for it on the PATH. */
export const SERVER_COMMAND = 'ci-routes-language-server';

/**
 * A PATH on which `ci-routes-language-server` is this checkout's server (a script in `dir` running
 * bin/ci-routes-language-server.js with the `node` running the tests), so that snippets run
 * exactly as README.md writes them.
 */
export function pathWithServer(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(dir, SERVER_COMMAND);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(script, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(path.join(ROOT, 'bin', 'ci-routes-language-server.js'))} "$@"\n`, { mode: 0o755 });
  return [dir, process.env.PATH ?? ''].join(path.delimiter);
}
