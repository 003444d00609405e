/**
 * Whether a file is a CodeIgniter route file by its own path, whatever folder is open: an
 * application's `config/routes.php` (a module's too: `modules/<m>/config/routes.php`) or an
 * environment's `config/<environment>/routes.php`. Cheap (no I/O): the extension asks it of every
 * PHP document opened, to start the language server once it sees one.
 */
export function isRouteFilePath(fsPath: string): boolean {
  const p = fsPath.replace(/\\/g, '/');
  return /(?:^|\/)config\/(?:[^/]+\/)?routes\.php$/.test(p);
}

/** Globs of the route files a workspace may hold, for the search made at start-up. */
export const ROUTE_FILE_GLOBS = ['**/config/routes.php', '**/config/*/routes.php'];
