import * as path from 'node:path';
import { evaluateRouteFile } from '../evaluate/evaluate-file';
import type { Value } from '../runtime/values';
import { frontControllerDirOf, systemFolderOf } from './environment';
import type { ProjectFiles } from './project-files';

/** Largest constants.php read (CodeIgniter's is about 4 KB). */
export const MAX_CONSTANTS_FILE_BYTES = 4 * 1024 * 1024;
/** Step budget of constants.php's static evaluation. */
const CONSTANTS_MAX_STEPS = 200_000;

/**
 * The paths CodeIgniter's index.php defines, where they can be known from the layout: APPPATH
 * (the application folder), FCPATH (the front controller's folder, see frontControllerOf),
 * BASEPATH (the system/ folder beside the application folder, when there) and VIEWPATH
 * (APPPATH's views/, when there), each with a trailing slash as CodeIgniter writes them. A custom
 * index.php may place them elsewhere: constants.php, --define and ciRoutes.constants win over these.
 */
export function frameworkPathsOf(appDir: string | undefined, files: ProjectFiles): Map<string, Value> {
  const out = new Map<string, Value>();
  if (!appDir) return out;
  const app = path.resolve(appDir);
  const front = path.dirname(app);
  out.set('APPPATH', `${app}/`);
  // FCPATH is the front controller's folder: beside application/, or Bonfire's public/.
  const controllerDir = frontControllerDirOf(app, files);
  if (controllerDir) out.set('FCPATH', `${controllerDir}/`);
  const system = systemFolderOf(app, files) ?? path.join(front, 'system');
  if (files.kind(system) === 'dir') out.set('BASEPATH', `${system}/`);
  if (files.kind(path.join(app, 'views')) === 'dir') out.set('VIEWPATH', `${path.join(app, 'views')}/`);
  return out;
}

/**
 * The constants a route file starts with: the framework's paths (see frameworkPathsOf), then those
 * `<app>/config/constants.php` defines, evaluated statically (never run) after them, as CodeIgniter
 * loads it, with the files it includes (read as a route file's are: within the project), whose
 * paths are added to `included`.
 */
export function constantsOfApp(appDir: string | undefined, files: ProjectFiles, included: string[] = []): Map<string, Value> {
  if (!appDir) return new Map();
  const paths = frameworkPathsOf(appDir, files);
  const file = path.join(appDir, 'config', 'constants.php');
  const text = files.read(file, MAX_CONSTANTS_FILE_BYTES);
  if (text === undefined) return paths;
  const includes = files.includes(path.dirname(appDir), frontControllerDirOf(appDir, files));
  const evaluation = evaluateRouteFile(text, { file, maxSteps: CONSTANTS_MAX_STEPS, constants: paths, includes });
  for (const f of evaluation.included) included.push(f.path);
  return new Map(evaluation.constants);
}
