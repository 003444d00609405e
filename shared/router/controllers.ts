import type { AppTree } from './app-tree';

/** The controller file a list of routed segments lands on. */
export interface ControllerTarget {
  /** Path relative to the application folder, e.g. `modules/gallery/controllers/Photos.php`. */
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

const ucfirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Finds the controller for routed segments (`module/controller/method/args...` or
 * `controller/method/...`). With modules present this follows Modular Extensions' locate():
 * module controllers first (`modules/<m>/controllers/[<sub>/]<C>.php`, then the module's own
 * controller named like the module), then the application's controllers folder and its
 * sub-folders; without modules, CodeIgniter 3's own directory walk.
 */
export function resolveController(segments: string[], tree: AppTree, translateDashes = false): ControllerResolution {
  const segs = segments.filter((s) => s !== '');
  if (segs.length === 0) return { found: false, reason: 'the target is empty', tried: [] };
  if (translateDashes) for (let i = 0; i < Math.min(3, segs.length); i++) segs[i] = segs[i].replace(/-/g, '_');
  const tried: string[] = [];
  const isFile = (p: string): boolean => {
    tried.push(p);
    return tree.isFile(p);
  };
  const done = (file: string, rest: string[], module?: string): ControllerResolution => ({
    found: true,
    target: { file, module, class: rest[0], method: rest[1] ?? 'index', args: rest.slice(2) },
  });

  const [module, directory, controller] = segs;
  if (tree.isDir('modules')) {
    const source = `modules/${module}/controllers/`;
    if (tree.isDir(source)) {
      if (directory !== undefined) {
        if (tree.isDir(`${source}${directory}`)) {
          if (controller !== undefined && isFile(`${source}${directory}/${ucfirst(controller)}.php`)) {
            return done(`${source}${directory}/${ucfirst(controller)}.php`, segs.slice(2), module);
          }
        } else if (isFile(`${source}${ucfirst(directory)}.php`)) {
          return done(`${source}${ucfirst(directory)}.php`, segs.slice(1), module);
        }
      }
      if (isFile(`${source}${ucfirst(module)}.php`)) return done(`${source}${ucfirst(module)}.php`, segs, module);
      return { found: false, reason: `module "${module}" has no controller for "${segs.slice(0, 3).join('/')}"`, tried };
    }
    if (directory !== undefined) {
      if (isFile(`controllers/${module}/${ucfirst(directory)}.php`)) return done(`controllers/${module}/${ucfirst(directory)}.php`, segs.slice(1));
      if (controller !== undefined && isFile(`controllers/${module}/${directory}/${ucfirst(controller)}.php`)) {
        return done(`controllers/${module}/${directory}/${ucfirst(controller)}.php`, segs.slice(2));
      }
    }
    if (isFile(`controllers/${ucfirst(module)}.php`)) return done(`controllers/${ucfirst(module)}.php`, segs);
    return { found: false, reason: `no controller "${ucfirst(module)}" in controllers/ nor a module "${module}"`, tried };
  }

  // Stock CodeIgniter 3: walk sub-folders while the segment is a folder and not a controller.
  let dir = '';
  let rest = segs;
  while (rest.length > 0) {
    const file = `controllers/${dir}${ucfirst(rest[0])}.php`;
    if (isFile(file)) return done(file, rest);
    if (tree.isDir(`controllers/${dir}${rest[0]}`)) {
      dir += `${rest[0]}/`;
      rest = rest.slice(1);
      continue;
    }
    break;
  }
  return { found: false, reason: `no controller file controllers/${dir}${ucfirst(rest[0] ?? '')}.php`, tried };
}
