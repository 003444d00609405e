import * as path from 'node:path';
import * as fs from 'node:fs';
import { fileInOtherCaseBy, normalizeAppPath, type AppTree } from '../../../shared/router/app-tree';
import { mayRead } from './read-fence';
import { kindOf } from './safe-read';

/**
 * An application folder on disk, answering the router's file questions. Never leaves the folder
 * (paths with `..` are refused) nor the workspace (symlinks are resolved against the read fence),
 * tolerates symlink loops and files that vanish, and caches answers: create a new one to see
 * later changes.
 */
export class DiskTree implements AppTree {
  private readonly stats = new Map<string, 'file' | 'dir' | 'none'>();
  private readonly listings = new Map<string, readonly string[]>();

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

  fileInOtherCase(rel: string): string | undefined {
    if (normalizeAppPath(rel).split('/').includes('..')) return undefined;
    return fileInOtherCaseBy(rel, (dir) => this.names(dir), (p) => this.isFile(p));
  }

  /** A folder's names (none when it cannot be read or lies outside the workspace), cached. */
  private names(rel: string): readonly string[] {
    let names = this.listings.get(rel);
    if (names) return names;
    names = [];
    const dir = path.join(this.root, rel);
    try {
      if (this.isDir(rel) || rel === '') names = mayRead(dir) ? fs.readdirSync(dir) : [];
    } catch {
      names = [];
    }
    this.listings.set(rel, names);
    return names;
  }
}
