import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IncludeFiles, IncludeRead } from '../../../shared/evaluate/includes';
import { inside, mayRead } from './read-fence';
import { UnreadableFile, readRegularFile } from './safe-read';
import { withThousands } from '../../../shared/util/without-icu';

/** Largest file an include reads (a route file's include is a few kilobytes). */
export const MAX_INCLUDED_FILE_BYTES = 1024 * 1024;
/** Most paths one glob() returns. */
const MAX_GLOB_MATCHES = 1000;

/**
 * include/require, glob(), scandir() and the file tests on disk, for route files of one project: only files under `project`
 * (the folder above the application, where index.php and system/ lie; symlinks resolved), through
 * the read fence, at most MAX_INCLUDED_FILE_BYTES each. A relative path is taken from the
 * including file's folder; `workingDir` is PHP's working directory (see IncludeFiles.workingDir).
 */
export function includeFilesOnDisk(project: string, maxBytes = MAX_INCLUDED_FILE_BYTES, workingDir?: string): IncludeFiles {
  const root = realOrUndefined(project) ?? path.resolve(project);
  const outside = (p: string): string | undefined => {
    const real = realOrUndefined(p);
    if (real === undefined) return undefined;
    return inside(root, real) ? undefined : `it lies outside the project folder ${project} (symlinks resolved)`;
  };
  return {
    ...(workingDir === undefined ? {} : { workingDir }),
    read(p: string, fromFile: string): IncludeRead {
      if (p === '' || p.includes('\0')) return { unreadable: 'the path is empty or not a file name' };
      const file = path.resolve(path.dirname(fromFile), p);
      const refused = outside(file);
      if (refused) return { unreadable: refused };
      try {
        return { file, text: readRegularFile(file, maxBytes) };
      } catch (e) {
        if (!(e instanceof UnreadableFile)) throw e;
        return e.code === 'ENOENT' ? { unreadable: reason(e, maxBytes), missing: true } : { unreadable: reason(e, maxBytes) };
      }
    },
    glob(pattern: string, baseDir: string, options: { onlyDirs?: boolean } = {}) {
      // Component by component: a literal one is appended, one with wildcards lists the folders
      // reached so far. PHP answers the paths as the pattern spells them.
      const parts = pattern.split('/');
      let reached: { written: string; real: string }[] = [{ written: '', real: baseDir }];
      for (let k = 0; k < parts.length; k++) {
        const part = parts[k]!;
        const sep = k === 0 ? '' : '/';
        if (k === 0 && part === '') {
          reached = [{ written: '', real: '/' }];
          continue;
        }
        if (!/[*?[]/.test(part)) {
          reached = reached.map((r) => ({ written: `${r.written}${sep}${part}`, real: path.resolve(r.real, part || '.') }));
          continue;
        }
        const matches = globRegExp(part);
        const next: { written: string; real: string }[] = [];
        for (const r of reached) {
          const refused = outside(r.real);
          if (refused) return { unreadable: refused };
          let names: string[];
          try {
            if (!mayRead(r.real)) continue;
            names = fs.readdirSync(r.real);
          } catch {
            continue; // PHP's glob() finds nothing in a missing folder
          }
          for (const n of names) if (matches.test(n)) next.push({ written: `${r.written}${sep}${n}`, real: path.join(r.real, n) });
          if (next.length > MAX_GLOB_MATCHES) return { unreadable: `it matches more than ${MAX_GLOB_MATCHES} files` };
        }
        reached = next;
      }
      const found: string[] = [];
      for (const r of reached) {
        const refused = outside(r.real);
        if (refused) return { unreadable: refused };
        let stat: fs.Stats;
        try {
          stat = fs.statSync(r.real);
        } catch {
          continue;
        }
        if (!mayRead(r.real) || (options.onlyDirs && !stat.isDirectory())) continue;
        found.push(r.written);
      }
      return found.sort(byBytes);
    },
    list(dir: string) {
      const refused = outside(dir);
      if (refused) return { unreadable: refused };
      let names: string[];
      try {
        if (!fs.statSync(dir).isDirectory()) return { missing: true };
        if (!mayRead(dir)) return { unreadable: 'it lies outside the workspace folders' };
        names = fs.readdirSync(dir);
      } catch {
        return { missing: true };
      }
      if (names.length > MAX_GLOB_MATCHES) return { unreadable: `it holds more than ${MAX_GLOB_MATCHES} entries` };
      return ['.', '..', ...names];
    },
    kind(file: string) {
      const refused = outside(file);
      if (refused) return { unreadable: refused };
      let stat: fs.Stats;
      try {
        stat = fs.statSync(file);
      } catch {
        return 'none';
      }
      // What is there is told only inside the workspace folders (the read fence).
      if (!mayRead(file)) return { unreadable: 'it lies outside the workspace folders' };
      return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'none';
    },
  };
}

/** A glob(3) name pattern as a regular expression: `*`, `?`, `[...]`; a leading dot is matched only by a dot. */
export function globRegExp(pattern: string): RegExp {
  let out = pattern.startsWith('.') ? '' : '(?!\\.)';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '\\' && i + 1 < pattern.length) out += escapeRegExp(pattern[++i]);
    else out += escapeRegExp(c);
  }
  return new RegExp(`^${out}$`, 's');
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** PHP's glob() sorts as strcmp() does (the C locale): by bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function reason(e: UnreadableFile, maxBytes: number): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder';
    case 'EFBIG':
      return `it is larger than ${withThousands(maxBytes)} bytes`;
    case 'EOUTSIDE':
      return 'it lies outside the workspace folders (symlinks resolved)';
    default:
      return e.message;
  }
}
