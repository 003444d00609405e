import * as fs from 'node:fs';
import * as path from 'node:path';
import { mayRead } from './read-fence';

/** Folders never worth scanning for an application's PHP: dependencies, VCS data, the framework's own code, caches, editors' settings. */
const NOT_APPLICATION_CODE = new Set(['node_modules', 'vendor', '.git', '.hg', '.svn', 'system', 'cache', 'logs', '.idea', '.vscode']);

export function isNotApplicationCode(folderName: string): boolean {
  return NOT_APPLICATION_CODE.has(folderName) || folderName.startsWith('.');
}

export interface WalkOptions {
  /** Folders not entered, by name. */
  skipFolder?: (name: string) => boolean;
  /** How many folders deep to enter below the root (files of the root itself are at depth 0). */
  maxDepth?: number;
  /** Real paths of the folders already walked: walks that share it never enter a folder twice. */
  seen?: Set<string>;
}

export interface WalkedEntry {
  /** Folders are given too, when entered (a walk's consumer counts them, to bound its work). */
  kind: 'file' | 'folder';
  /** The path, under the root as given. */
  path: string;
  /** Relative to the root, with `/` separators. */
  rel: string;
  name: string;
}

/**
 * Every file under a folder, and every folder entered: a folder's files first, then its
 * sub-folders, each in directory order. Each real folder is entered once (symlink loops, two
 * links to one place), and only where the read fence allows (`mayRead`): a symlink in a workspace
 * cannot lead outside it. Unreadable or vanished folders are passed over. Symlinks to files are
 * given as files; reading them goes through the fence too (safe-read.ts). Iterative, so a deep
 * tree costs no stack.
 */
export function* walkFiles(root: string, options: WalkOptions = {}): Generator<WalkedEntry> {
  const seen = options.seen ?? new Set<string>();
  const maxDepth = options.maxDepth ?? Infinity;
  const stack: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: '', depth: 0 }];
  while (stack.length) {
    const { dir, rel, depth } = stack.pop()!;
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      continue; // missing, dangling or a loop
    }
    if (seen.has(real) || !mayRead(dir)) continue;
    seen.add(real);
    if (depth > 0) yield { kind: 'folder', path: dir, rel, name: path.basename(dir) };
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const folders: { dir: string; rel: string; depth: number }[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() || (e.isSymbolicLink() && isFolder(full))) {
        if (depth < maxDepth && !options.skipFolder?.(e.name)) folders.push({ dir: full, rel: childRel, depth: depth + 1 });
      } else {
        yield { kind: 'file', path: full, rel: childRel, name: e.name };
      }
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i]);
  }
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
