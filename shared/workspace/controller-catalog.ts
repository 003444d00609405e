import type { AppTree } from '../router/app-tree';
import { rootAroundApplication } from '../router/hmvc/app-paths';
import { indexPhpFile } from './php-index';

/** The controllers of one application: which files exist, and their routable methods. */
export interface ControllerCatalog {
  /** The application folder. */
  readonly tree: AppTree;
  /** The application root, as the HMVC routers see it (`application/` below it, Bonfire's `bonfire/` beside it). */
  readonly root: AppTree;
  /** Routable methods of a controller file (path relative to the application folder). */
  methods(file: string): { names: ReadonlySet<string>; hasRemap: boolean } | undefined;
}

/**
 * A catalog over a tree and a way to read files; each controller file is indexed once (methods
 * compared lower case, as PHP method names are case-insensitive). `root`: the application root,
 * when the host knows what lies beside the application folder.
 */
export function createControllerCatalog(tree: AppTree, read: (file: string) => string | undefined, root: AppTree = rootAroundApplication(tree)): ControllerCatalog {
  const cache = new Map<string, { names: ReadonlySet<string>; hasRemap: boolean } | undefined>();
  return {
    tree,
    root,
    methods(file: string) {
      if (cache.has(file)) return cache.get(file);
      const text = read(file);
      let result: { names: ReadonlySet<string>; hasRemap: boolean } | undefined;
      if (text !== undefined) {
        // The lexical scan: exact on valid files, fast, and immune to php-parser's slow paths.
        // Whatever its opening tag: PHP runs a controller opened with `<?` under short_open_tag.
        const index = indexPhpFile(text, { parser: false, shortTags: true });
        const names = new Set<string>();
        let hasRemap = false;
        for (const c of index.controllers) {
          hasRemap ||= c.hasRemap;
          for (const m of c.methods) names.add(m.name.toLowerCase());
        }
        result = { names, hasRemap };
      }
      cache.set(file, result);
      return result;
    },
  };
}
