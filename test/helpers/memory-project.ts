import * as path from 'node:path';
import type { FileKind, ProjectFiles, WalkedEntry } from '../../shared/app/project-files';
import type { AppTree } from '../../shared/router/app-tree';

/**
 * A project held in memory (absolute path → text), as the application model reads one through
 * its host: for tests of the model without a disk. `reads` counts the files read, by path.
 */
export class MemoryProject implements ProjectFiles {
  readonly reads = new Map<string, number>();

  constructor(private readonly files: Map<string, string>) {}

  static at(root: string, files: Record<string, string>): MemoryProject {
    return new MemoryProject(new Map(Object.entries(files).map(([rel, text]) => [path.join(root, rel), text])));
  }

  read(file: string, maxBytes: number): string | undefined {
    const text = this.files.get(path.resolve(file));
    if (text === undefined || text.length > maxBytes) return undefined;
    this.reads.set(file, (this.reads.get(file) ?? 0) + 1);
    return text;
  }

  kind(file: string): FileKind | undefined {
    const p = path.resolve(file);
    if (this.files.has(p)) return 'file';
    for (const f of this.files.keys()) if (f.startsWith(`${p}${path.sep}`)) return 'dir';
    return undefined;
  }

  list(dir: string): readonly string[] {
    const prefix = `${path.resolve(dir)}${path.sep}`;
    const names = new Set<string>();
    for (const f of this.files.keys()) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split(path.sep)[0]);
    return [...names].sort();
  }

  tree(dir: string): AppTree {
    return { isFile: (p) => this.kind(path.join(dir, p)) === 'file', isDir: (p) => this.kind(path.join(dir, p)) === 'dir' };
  }

  includes() {
    return {
      read: (p: string, fromFile: string) => {
        const file = path.resolve(path.dirname(fromFile), p);
        const text = this.files.get(file);
        return text === undefined ? { unreadable: 'no such file', missing: true } : { file, text };
      },
      glob: () => ({ unreadable: 'glob() is not supported here' }),
    };
  }

  *walk(dir: string): Iterable<WalkedEntry> {
    const prefix = `${path.resolve(dir)}${path.sep}`;
    for (const f of [...this.files.keys()].sort()) {
      if (f.startsWith(prefix)) yield { kind: 'file', path: f, rel: f.slice(prefix.length).split(path.sep).join('/'), name: path.basename(f) };
    }
  }

  shown(file: string): string {
    return file;
  }
}
