import * as path from 'node:path';

/**
 * The module whose routes file this is, when it is one: `<…>/modules/<module>/config/routes.php`
 * (under `application/` or Bonfire's `bonfire/`). Modules::parse_routes() reads its targets
 * relative to that module.
 */
export function moduleOfRouteFile(file: string): string | undefined {
  const configDir = path.dirname(path.resolve(file));
  if (path.basename(configDir) !== 'config' || path.basename(file) !== 'routes.php') return undefined;
  const moduleDir = path.dirname(configDir);
  return path.basename(path.dirname(moduleDir)) === 'modules' ? path.basename(moduleDir) : undefined;
}
