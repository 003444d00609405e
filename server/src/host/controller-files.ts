import * as fs from 'node:fs';
import * as path from 'node:path';
import { mayRead } from './read-fence';
import { readRegularFile } from './safe-read';

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
  const seen = new Set<string>();
  const walk = (rel: string, depth: number): void => {
    if (out.size >= MAX_FILES || depth > 4) return;
    const abs = path.join(appDir, rel);
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return; // missing, dangling or a loop
    }
    if (seen.has(real) || !mayRead(abs)) return;
    seen.add(real);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory() || (e.isSymbolicLink() && !e.name.endsWith('.php'))) walk(child, depth + 1);
      else if (e.name.endsWith('.php')) {
        try {
          out.set(child, readRegularFile(path.join(appDir, child), MAX_CONTROLLER_BYTES));
        } catch {
          // outside the workspace, not a regular file, too large, or vanished while listing
        }
      }
    }
  };
  for (const r of roots) walk(r, 0);
  return out;
}
