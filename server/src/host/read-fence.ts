import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folders the language server may read under, as real paths (symlinks resolved). Every read of
 * host/ asks `mayRead` first, so a symlink in an untrusted workspace cannot make the server read
 * (and show in hovers or diagnostics) a file outside it. Unset, as in the CLI, everything given
 * may be read: the user named the files.
 */
let roots: string[] | undefined;

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Allows reading only under these folders (the workspace folders, and nothing else: a document
 * opened from elsewhere never widens them); an empty list allows nothing, undefined lifts the fence.
 */
export function setReadRoots(folders: string[] | undefined): void {
  roots = folders?.map(realOrResolved);
}

/** Whether a real path lies under a real folder (or is it). */
export function inside(root: string, real: string): boolean {
  const rel = path.relative(root, real);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** May this existing path be read: does its real path lie under an allowed folder? False when it cannot be resolved. */
export function mayRead(p: string): boolean {
  if (!roots) return true;
  let real: string;
  try {
    real = fs.realpathSync.native(p);
  } catch {
    return false; // missing, dangling, a loop (ELOOP) or unreadable
  }
  return roots.some((r) => inside(r, real));
}
