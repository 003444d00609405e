/** The controller file a route target lands on. */
export interface ControllerTarget {
  /** Path relative to the application folder, e.g. `modules/gallery/controllers/Photos.php` (`../bonfire/…` outside it). */
  file: string;
  /** The HMVC module, when the controller lives in one. */
  module?: string;
  /** The class as CodeIgniter names it (the segment, lower case as written). */
  class: string;
  method: string;
  /** The remaining segments, passed to the method as arguments. */
  args: string[];
}

export type ControllerResolution =
  | { found: true; target: ControllerTarget }
  | { found: false; reason: string; tried: string[] };

/** A controller path from the application root (`application/modules/…`) as a path from the application folder. */
export function fromApplicationFolder(rootPath: string): string {
  return rootPath.startsWith('application/') ? rootPath.slice('application/'.length) : `../${rootPath}`;
}

/** The module of a controller path (`…/modules/<m>/controllers/…`), if it lies in one. */
export function moduleOfControllerPath(path: string): string | undefined {
  return /(?:^|\/)modules\/([^/]+)\/controllers\//.exec(path)?.[1];
}
