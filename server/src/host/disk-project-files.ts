import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectFiles } from '../../../shared/app/project-files';
import { DiskTree } from './disk-tree';
import { includeFilesOnDisk } from './include-files';
import { mayRead } from './read-fence';
import { kindOf, readRegularFile } from './safe-read';
import { walkFiles } from './walk-files';

/**
 * The application model's files on disk, through the read fence (read-fence.ts) and the safe
 * reader (safe-read.ts): what the fence keeps out, what is not a regular file and what is over
 * its size cap are not there.
 */
export function diskProjectFiles(options: { shown?: (file: string) => string } = {}): ProjectFiles {
  return {
    read(file, maxBytes) {
      try {
        return readRegularFile(file, maxBytes);
      } catch {
        return undefined;
      }
    },
    kind(file) {
      const k = kindOf(file);
      return k === 'none' ? undefined : k;
    },
    list(dir) {
      try {
        if (!mayRead(dir)) return [];
        return fs.readdirSync(dir).sort();
      } catch {
        return [];
      }
    },
    tree: (dir) => new DiskTree(dir),
    includes: (projectDir, workingDir) => includeFilesOnDisk(projectDir, undefined, workingDir),
    walk: (dir, options) => walkFiles(dir, options),
    // The CLI's messages are read where it runs: relative to the working folder.
    shown: options.shown ?? ((file) => path.relative(process.cwd(), file) || file),
  };
}
