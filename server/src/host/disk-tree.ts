import * as path from 'node:path';
import { normalizeAppPath, type AppTree } from '../../../shared/router/app-tree';
import { kindOf } from './safe-read';

/**
 * An application folder on disk, answering the router's file questions. Never leaves the folder
 * (paths with `..` are refused) nor the workspace (symlinks are resolved against the read fence),
 * tolerates symlink loops and files that vanish, and caches answers: create a new one to see
 * later changes.
 */
export class DiskTree implements AppTree {
  private readonly stats = new Map<string, 'file' | 'dir' | 'none'>();

  constructor(readonly root: string) {}

  private kind(rel: string): 'file' | 'dir' | 'none' {
    const p = normalizeAppPath(rel);
    let k = this.stats.get(p);
    if (k) return k;
    k = 'none';
    if (!p.split('/').includes('..')) {
      k = kindOf(path.join(this.root, p));
    }
    this.stats.set(p, k);
    return k;
  }

  isFile(rel: string): boolean {
    return this.kind(rel) === 'file';
  }

  isDir(rel: string): boolean {
    return this.kind(rel) === 'dir';
  }
}
