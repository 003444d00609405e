/**
 * What the router needs to know about an application folder: which files and folders exist.
 * Paths are relative to the application folder, `/`-separated (`controllers/Home.php`).
 * The engine does no I/O; hosts pass an implementation (a file list, the workspace index, disk).
 */
export interface AppTree {
  isFile(path: string): boolean;
  isDir(path: string): boolean;
  /**
   * The file as it is spelt on disk when `path` names none but one differs from it in letter case
   * only (what a case-insensitive file system, Windows' or macOS's default, would open); undefined
   * otherwise. Optional: a tree that cannot tell leaves it out.
   */
  fileInOtherCase?(path: string): string | undefined;
}

/** The entry of `names` equal to `name` but for letter case (ASCII, as the file systems fold it), if any. */
export function otherCase(names: Iterable<string>, name: string): string | undefined {
  const folded = name.toLowerCase();
  for (const n of names) if (n !== name && n.toLowerCase() === folded) return n;
  return undefined;
}

/** fileInOtherCase() over a tree that lists folders: component by component, the exact name first. */
export function fileInOtherCaseBy(path: string, list: (dir: string) => readonly string[], isFile: (path: string) => boolean): string | undefined {
  const parts = normalizeAppPath(path).split('/');
  if (isFile(parts.join('/'))) return undefined;
  let dir = '';
  let changed = false;
  for (const part of parts) {
    const names = list(dir);
    let found: string | undefined = names.includes(part) ? part : otherCase(names, part);
    if (found === undefined) return undefined;
    if (found !== part) changed = true;
    dir = dir === '' ? found : `${dir}/${found}`;
  }
  return changed && isFile(dir) ? dir : undefined;
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

  fileInOtherCase(path: string): string | undefined {
    return fileInOtherCaseBy(path, (dir) => this.namesIn(dir), (p) => this.isFile(p));
  }

  private namesIn(dir: string): string[] {
    const prefix = dir === '' ? '' : `${dir}/`;
    const names = new Set<string>();
    for (const p of [...this.files, ...this.dirs]) if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0]!);
    return [...names];
  }

  /** Every file, for listings. */
  allFiles(): string[] {
    return [...this.files].sort();
  }
}

/** A tree with no files at all (not even a controllers folder). */
export const EMPTY_TREE: AppTree = { isFile: () => false, isDir: (p) => normalizeAppPath(p) === '' };
