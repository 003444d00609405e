import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileListTree } from '../../shared/router/app-tree';
import { createControllerCatalog, type ControllerCatalog } from '../../shared/workspace/controller-catalog';
import { detectCodeIgniterVersion, type CodeIgniterVersion } from '../../shared/app/codeigniter-version';
import { uriCharsBeyondOf } from '../../shared/app/uri-chars';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';

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

/** A fixture `x.php` whose `x.app/config/config.php` permits URI characters beyond the default: why (see uriCharsBeyondOf). */
export function uriCharsFor(phpFile: string): string | undefined {
  const appDir = phpFile.replace(/\.php$/, '.app');
  return fs.existsSync(path.join(appDir, 'config', 'config.php')) ? uriCharsBeyondOf(appDir, undefined, diskProjectFiles()) : undefined;
}

/** A fixture `x.php` may come with a project folder `x.project/` (its `system/`): the CodeIgniter version it tells. */
export function codeIgniterFor(phpFile: string): CodeIgniterVersion | undefined {
  const projectDir = phpFile.replace(/\.php$/, '.project');
  return fs.existsSync(projectDir) ? detectCodeIgniterVersion(projectDir, diskProjectFiles()) : undefined;
}
