import * as fs from 'node:fs';
import * as path from 'node:path';
import { mayRead } from './read-fence';
import { readRegularFile } from './safe-read';
import { walkFiles } from './walk-files';

const MAX_FILES = 5_000;
const MAX_CONTROLLER_BYTES = 1024 * 1024;

/**
 * The controller files of an application (controllers/ and modules/<m>/controllers/, sub-folders
 * included), as paths relative to the application folder with their text. Bounded; each real
 * folder is walked once (symlink loops), symlinks leading outside the workspace are not followed,
 * and files that are unreadable, not regular or gone by the time they are read are skipped.
 */
export function readControllerFiles(appDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const roots = ['controllers'];
  try {
    if (!mayRead(path.join(appDir, 'modules'))) throw new Error('no modules folder inside the workspace');
    for (const m of fs.readdirSync(path.join(appDir, 'modules'), { withFileTypes: true })) {
      if (m.isDirectory() || m.isSymbolicLink()) roots.push(`modules/${m.name}/controllers`);
    }
  } catch {
    // no modules folder (or one leading outside the workspace)
  }
  // Shared by the roots: a module linked into another is read once.
  const seen = new Set<string>();
  for (const r of roots) {
    for (const entry of walkFiles(path.join(appDir, r), { maxDepth: 4, seen })) {
      if (out.size >= MAX_FILES) return out;
      if (entry.kind !== 'file' || !entry.name.endsWith('.php')) continue;
      try {
        out.set(`${r}/${entry.rel}`, readRegularFile(entry.path, MAX_CONTROLLER_BYTES));
      } catch {
        // outside the workspace, not a regular file, too large, or vanished while listing
      }
    }
  }
  return out;
}
