import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const EXAMPLE_APP = path.join(ROOT, 'examples', 'bonfire-app');
const CASES = path.join(ROOT, 'test', 'conformance', 'cases');

export interface FuzzWorkspace {
  root: string;
  /** Route files (the example app's, then the conformance cases installed as module route files). */
  routeFiles: string[];
  /** A controller of the example app: a PHP file that is not a route file. */
  controller: string;
  dispose(): void;
}

/**
 * A throw-away copy of the example app, with every conformance case installed as the route file of
 * a module of its own (`application/modules/case-01-verbs/config/routes.php`), so the server
 * indexes and analyses them like any route file.
 */
export function makeFuzzWorkspace(): FuzzWorkspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-fuzz-'));
  fs.cpSync(EXAMPLE_APP, root, { recursive: true });
  const app = path.join(root, 'application');
  const routeFiles = [path.join(app, 'config', 'routes.php'), path.join(app, 'modules', 'blog', 'config', 'routes.php')];
  for (const name of fs.readdirSync(CASES).filter((n) => n.endsWith('.php')).sort()) {
    const dir = path.join(app, 'modules', `case-${path.basename(name, '.php')}`, 'config');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(CASES, name), path.join(dir, 'routes.php'));
    routeFiles.push(path.join(dir, 'routes.php'));
  }
  return {
    root,
    routeFiles,
    controller: path.join(app, 'modules', 'blog', 'controllers', 'Posts.php'),
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
