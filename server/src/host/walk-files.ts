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
  /**
   * Only what lies inside the root once symlinks are resolved: a symlinked folder or file leading
   * elsewhere is passed over (`ci-routes check` on an untrusted checkout must not walk the disk).
   */
  confined?: boolean;
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
  const within = options.confined ? confinement(root) : () => true;
  while (stack.length) {
    const { dir, rel, depth } = stack.pop()!;
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      continue; // missing, dangling or a loop
    }
    if (seen.has(real) || !mayRead(dir) || !within(real)) continue;
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
      } else if (!e.isSymbolicLink() || within(realOrNone(full))) {
        yield { kind: 'file', path: full, rel: childRel, name: e.name };
      }
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i]);
  }
}

/** Whether a real path lies inside the root's real path (nothing does when the root cannot be resolved). */
function confinement(root: string): (real: string | undefined) => boolean {
  const top = realOrNone(root);
  return (real) => {
    if (top === undefined || real === undefined) return false;
    const rel = path.relative(top, real);
    return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
  };
}

function realOrNone(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
