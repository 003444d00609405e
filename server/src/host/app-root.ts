import * as path from 'node:path';
import { normalizeAppPath, type AppTree } from '../../../shared/router/app-tree';
import { DiskTree } from './disk-tree';
import { MAX_FILE_BYTES } from './route-file';
import { readRegularFile } from './safe-read';

/**
 * An application's root as the HMVC routers see it (`application/…`, Bonfire's `bonfire/…`), on
 * disk. `application/` is the application folder whatever its name (CodeIgniter lets index.php
 * rename it); the rest lies in the folder above it. Reads go through the safe reader (the read
 * fence, size caps); answers are cached, as DiskTree's.
 */
export class AppRoot {
  readonly tree: AppTree;
  private readonly app: DiskTree;
  private readonly above: DiskTree;

  constructor(readonly appDir: string) {
    this.app = new DiskTree(appDir);
    this.above = new DiskTree(path.dirname(appDir));
    this.tree = {
      isFile: (p) => this.place(p).tree.isFile(this.place(p).rel),
      isDir: (p) => this.place(p).tree.isDir(this.place(p).rel),
    };
  }

  private place(p: string): { tree: DiskTree; rel: string } {
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
    try {
      return readRegularFile(file, MAX_FILE_BYTES);
    } catch {
      return undefined;
    }
  }
}
