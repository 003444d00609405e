import * as path from 'node:path';
import { RE2JS } from 're2js';
import type { ProjectFiles } from './project-files';

/** The CodeIgniter an application runs on, as its system folder says, and where that was read. */
export interface CodeIgniterVersion {
  /** `2.1.4`, `3.1.13`. */
  readonly version: string;
  readonly major: number;
  /** `system/core/CodeIgniter.php`, for messages. */
  readonly source: string;
}

/** The largest CodeIgniter.php read (CodeIgniter's is about 20 KB). */
const MAX_BYTES = 256 * 1024;

/** Where a project keeps CodeIgniter's system folder: index.php's default, Composer's, Bonfire's (0.8 and 0.7). */
const SYSTEM_FOLDERS = ['system', 'vendor/codeigniter/framework/system', 'bonfire/ci3', 'bonfire/codeigniter'];

// RE2: linear in the file's length (the file is the workspace's). CodeIgniter 2 defines the
// constant, CodeIgniter 3 declares it; either starts its line (a commented-out one does not).
const VERSION = RE2JS.compile(`^[ \\t]*(?:define\\(\\s*['"]CI_VERSION['"]\\s*,\\s*|const\\s+CI_VERSION\\s*=\\s*)['"]((\\d+)\\.[0-9A-Za-z.+-]*)['"]`, RE2JS.MULTILINE);

/**
 * The CodeIgniter version of the project at `projectDir` (the folder holding `application/`),
 * read from the first system folder found; undefined when none is there or none says.
 */
export function detectCodeIgniterVersion(projectDir: string, files: ProjectFiles, named?: string): CodeIgniterVersion | undefined {
  // The folder the front controller names first (`$system_path = 'framework/codeigniter-2.2.6'`).
  for (const folder of [...(named === undefined ? [] : [named]), ...SYSTEM_FOLDERS.map((f) => path.join(projectDir, f))]) {
    const file = path.join(folder, 'core', 'CodeIgniter.php');
    const text = files.read(file, MAX_BYTES);
    if (text === undefined) continue;
    const m = VERSION.matcher(text);
    if (m.find()) return { version: m.group(1)!, major: Number(m.group(2)), source: files.shown(file) };
  }
  return undefined;
}
