import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A new folder under the system's temporary one holding the given files (paths from it); the caller removes it. */
export function tempProject(prefix: string, files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}
