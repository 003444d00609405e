import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileListTree } from '../../shared/router/app-tree';
import { createControllerCatalog, type ControllerCatalog } from '../../shared/workspace/controller-catalog';

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

/** A fixture `x.php` may come with an application folder `x.app/` (its controllers). */
export function catalogFor(phpFile: string): ControllerCatalog | undefined {
  const appDir = phpFile.replace(/\.php$/, '.app');
  if (!fs.existsSync(appDir)) return undefined;
  const tree = new FileListTree(listFiles(appDir));
  return createControllerCatalog(tree, (f) => fs.readFileSync(path.join(appDir, f), 'utf8'));
}
