import * as path from 'node:path';
import { normalizeAppPath, type AppTree } from '../router/app-tree';
import type { ProjectFiles } from './project-files';

/** Largest file read through the root (a module's routes file, a controller). */
export const MAX_ROOT_FILE_BYTES = 4 * 1024 * 1024;

/**
 * An application's root as the HMVC routers see it (`application/…`, Bonfire's `bonfire/…`), on
 * disk. `application/` is the application folder whatever its name (CodeIgniter lets index.php
 * rename it); the rest lies in the folder above it. Reads go through the safe reader (the read
 * fence, size caps); answers are cached, as the project's trees are.
 */
export class AppRoot {
  readonly tree: AppTree;
  private readonly app: { tree: AppTree; root: string };
  private readonly above: { tree: AppTree; root: string };

  constructor(
    readonly appDir: string,
    private readonly files: ProjectFiles,
  ) {
    this.app = { tree: files.tree(appDir), root: appDir };
    this.above = { tree: files.tree(path.dirname(appDir)), root: path.dirname(appDir) };
    this.tree = {
      isFile: (p) => {
        const { tree, rel } = this.place(p);
        return tree.tree.isFile(rel);
      },
      isDir: (p) => {
        const { tree, rel } = this.place(p);
        return tree.tree.isDir(rel);
      },
      fileInOtherCase: (p) => {
        const { tree, rel } = this.place(p);
        const found = tree.tree.fileInOtherCase?.(rel);
        if (found === undefined) return undefined;
        return tree === this.app ? `application/${found}` : found;
      },
    };
  }

  private place(p: string): { tree: { tree: AppTree; root: string }; rel: string } {
    const n = normalizeAppPath(p);
    if (n === 'application') return { tree: this.app, rel: '' };
    if (n.startsWith('application/')) return { tree: this.app, rel: n.slice('application/'.length) };
    return { tree: this.above, rel: n };
  }

  /** The file a root path names on disk. */
  absolute(p: string): string {
    const { tree, rel } = this.place(p);
    return path.join(tree.root, rel);
  }

  /** A file's text by root path (a route file open in an editor first, as `openText` has it); undefined when it cannot be read. */
  read(p: string, openText?: (file: string) => string | undefined): string | undefined {
    const file = this.absolute(p);
    const open = openText?.(file);
    if (open !== undefined) return open;
    if (!this.tree.isFile(p)) return undefined;
    return this.files.read(file, MAX_ROOT_FILE_BYTES);
  }
}
