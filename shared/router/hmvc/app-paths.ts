import { normalizeAppPath, type AppTree } from '../app-tree';

/**
 * A path as the operating system resolves it, relative to the application root: repeated and
 * trailing slashes ignored, `.` skipped, and `..` allowed only after a folder that exists (as on
 * Linux: `application/controllers/../modules` needs `application/controllers`). Undefined when it
 * cannot resolve or leaves the root.
 */
export function resolveAppPath(tree: AppTree, path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0 || !tree.isDir(parts.join('/'))) return undefined;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.join('/');
}

/** PHP's is_file() on a path relative to the application root. */
export function isFileAt(tree: AppTree, path: string): boolean {
  const resolved = resolveAppPath(tree, path);
  return resolved !== undefined && resolved !== '' && tree.isFile(resolved);
}

/** PHP's is_dir() on a path relative to the application root. */
export function isDirAt(tree: AppTree, path: string): boolean {
  const resolved = resolveAppPath(tree, path);
  return resolved !== undefined && tree.isDir(resolved);
}

/**
 * The application folder (`application/`) of a root tree, for CodeIgniter's own look-ups (paths
 * such as `controllers/../modules/blog/controllers/Blog.php`, which the HMVC routers' directories make).
 */
export function applicationFolder(root: AppTree): AppTree {
  return {
    isFile: (path) => isFileAt(root, `application/${path}`),
    isDir: (path) => isDirAt(root, `application/${path}`),
  };
}

/** The application root around an application folder alone (nothing beside `application/`): the inverse of applicationFolder. */
export function rootAroundApplication(folder: AppTree): AppTree {
  const inside = (path: string): string | undefined => {
    const n = normalizeAppPath(path);
    if (n === 'application') return '';
    return n.startsWith('application/') ? n.slice('application/'.length) : undefined;
  };
  return {
    isFile: (path) => {
      const p = inside(path);
      return p !== undefined && p !== '' && folder.isFile(p);
    },
    isDir: (path) => {
      const p = inside(path);
      return normalizeAppPath(path) === '' || (p !== undefined && folder.isDir(p));
    },
  };
}
