/**
 * What the router needs to know about an application folder: which files and folders exist.
 * Paths are relative to the application folder, `/`-separated (`controllers/Home.php`).
 * The engine does no I/O; hosts pass an implementation (a file list, the workspace index, disk).
 */
export interface AppTree {
  isFile(path: string): boolean;
  isDir(path: string): boolean;
}

/** PHP's file functions ignore repeated slashes (`controllers//Home.php`). */
export function normalizeAppPath(path: string): string {
  return path.replace(/\/{2,}/g, '/').replace(/^\.\//, '').replace(/\/$/, '');
}

/** An application tree given as the list of its files. */
export class FileListTree implements AppTree {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>(['']);

  /**
   * @param files paths relative to the application folder
   * @param dirs folders that exist even when empty (e.g. `controllers`)
   */
  constructor(files: Iterable<string>, dirs: Iterable<string> = []) {
    for (const f of files) this.addFile(f);
    for (const d of dirs) this.addDir(d);
  }

  addFile(path: string): void {
    const p = normalizeAppPath(path);
    this.files.add(p);
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  addDir(path: string): void {
    const p = normalizeAppPath(path);
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  isFile(path: string): boolean {
    return this.files.has(normalizeAppPath(path));
  }

  isDir(path: string): boolean {
    return this.dirs.has(normalizeAppPath(path));
  }

  /** Every file, for listings. */
  allFiles(): string[] {
    return [...this.files].sort();
  }
}

/** A tree with no files at all (not even a controllers folder). */
export const EMPTY_TREE: AppTree = { isFile: () => false, isDir: (p) => normalizeAppPath(p) === '' };
