import * as path from 'node:path';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { indexPhpFile, mayNeedIndexing } from '../../../shared/workspace/php-index';
import { DEFAULT_SETTINGS } from '../../../shared/workspace/settings';
import type { Application, Applications } from '../../../shared/app/application';
import { readRegularFile } from '../host/safe-read';
import { isNotApplicationCode, walkFiles } from '../host/walk-files';
import type { CheckedFile, CheckInput, PhpFileUsages } from './check';

/** Entries looked at, at most, per application folder (the language server's workspace bound). */
const MAX_ENTRIES = 50_000;

export interface ApplicationFiles {
  /** The application's route files: config/routes.php and every module's (Bonfire's own included). */
  routeFiles: string[];
  /** Its other PHP files that call Route::named(), with their text and those calls. */
  phpFiles: PhpFileUsages[];
  /** How many other PHP files were looked at. */
  phpFilesSeen: number;
}

/**
 * What the language server reads of an application folder besides the route file being edited:
 * the other route files (they name routes too) and the PHP files that may use those names.
 * Unreadable files are passed over, and so are symlinks leading out of the folder unless
 * `followSymlinks`.
 */
export function applicationFiles(app: Application, followSymlinks = false): ApplicationFiles {
  // An environment's route file runs within its main file's evaluation (see shared/app/environment.ts).
  const routeFiles = app.routeFilesInRouterOrder().map((f) => f.file);
  const out: ApplicationFiles = { routeFiles, phpFiles: [], phpFilesSeen: 0 };
  const isRouteFile = new Set(routeFiles);
  let entries = 0;
  for (const entry of walkFiles(app.appDir, { skipFolder: isNotApplicationCode, confined: !followSymlinks })) {
    if (++entries > MAX_ENTRIES) break;
    if (entry.kind !== 'file' || !entry.name.endsWith('.php')) continue;
    if (isRouteFile.has(entry.path) || (entry.name === 'routes.php' && app.owns(entry.path))) continue;
    out.phpFilesSeen++;
    let text: string;
    try {
      // As large as the language server reads by default (ciRoutes.maxFileSize).
      text = readRegularFile(entry.path, DEFAULT_SETTINGS.maxFileSize);
    } catch {
      continue;
    }
    // Only the files that use route names are kept: most do not, and a large application's
    // texts would otherwise all be held at once.
    const usages = mayNeedIndexing(text) ? indexPhpFile(text, { parser: false }).namedUsages : [];
    if (usages.length) out.phpFiles.push({ file: entry.path, text, usages });
  }
  return out;
}

/**
 * The route files given, with what the language server would also read of their applications:
 * the other route files (for their route names) and the PHP files that may call Route::named().
 */
export function withApplications(applications: Applications, routeFiles: readonly CheckedFile[], evaluateFile: (file: string) => FileEvaluation, followSymlinks = false): CheckInput {
  const given = new Set(routeFiles.map((f) => path.resolve(f.ctx.file)));
  const namesFrom: { file: string; evaluation: FileEvaluation }[] = [];
  const phpFiles: PhpFileUsages[] = [];
  let phpFilesSeen = 0;
  const apps = new Set(routeFiles.map((f) => applications.of(f.ctx.file)).filter((a): a is Application => a !== undefined));
  for (const app of apps) {
    const files = applicationFiles(app, followSymlinks);
    for (const file of files.routeFiles) {
      if (given.has(file)) continue;
      try {
        namesFrom.push({ file, evaluation: evaluateFile(file) });
      } catch {
        // unreadable: its names stay unknown, as in the language server
      }
    }
    for (const f of files.phpFiles) phpFiles.push(f);
    phpFilesSeen += files.phpFilesSeen;
  }
  return { routeFiles, namesFrom, phpFiles, phpFilesSeen };
}
