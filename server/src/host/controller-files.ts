import * as fs from 'node:fs';
import * as path from 'node:path';

const MAX_FILES = 5_000;

/**
 * The controller files of an application (controllers/ and modules/<m>/controllers/, sub-folders
 * included), as paths relative to the application folder with their text. Bounded and tolerant of
 * symlink loops and unreadable entries.
 */
export function readControllerFiles(appDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const roots = ['controllers'];
  try {
    for (const m of fs.readdirSync(path.join(appDir, 'modules'), { withFileTypes: true })) {
      if (m.isDirectory()) roots.push(`modules/${m.name}/controllers`);
    }
  } catch {
    // no modules folder
  }
  const seen = new Set<string>();
  const walk = (rel: string, depth: number): void => {
    if (out.size >= MAX_FILES || depth > 4) return;
    const abs = path.join(appDir, rel);
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child, depth + 1);
      else if (e.name.endsWith('.php')) {
        try {
          const st = fs.statSync(path.join(appDir, child));
          if (st.size <= 1024 * 1024) out.set(child, fs.readFileSync(path.join(appDir, child), 'utf8'));
        } catch {
          // vanished while reading
        }
      }
    }
  };
  for (const r of roots) walk(r, 0);
  return out;
}
