import { evaluateRouteFile, type EvaluateOptions, type FileEvaluation } from '../../evaluate/evaluate-file';
import { carriedLibrary } from '../../library/library-carry';
import type { LibrarySnapshot } from '../../library/library-snapshot';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import type { ModuleRoutesFile } from './module-routes';

/** Module route files evaluated per request, in the order the router includes them. */
export interface ModuleRouteFiles {
  /**
   * The loader for one request (give it to routeRequest as `moduleRoutes`). `onLoad` hears of
   * each file loaded, with its evaluation (null when unreadable), for hosts that show where a
   * module route is declared.
   */
  forRequest(method: RequestMethod, onLoad?: (path: string, evaluation: FileEvaluation | null) => void): (path: string) => ModuleRoutesFile;
}

export interface ModuleRouteFilesOptions {
  /** The evaluation of `application/config/routes.php`: module files start from the constants (and, shared, the Route state) it left. */
  main: FileEvaluation;
  /** A file's text, by path from the application root; undefined when it cannot be read. */
  read(path: string): string | undefined;
  /**
   * Bonfire: the static Route library is loaded before the main routes file, and every file of
   * the request adds to the same tables; a module file's `Route::map()` then returns the main
   * file's routes (and earlier module files') too. MX has no Route library of its own: false.
   */
  shareRouteLibrary: boolean;
  /** The rest of the evaluation's options (dialect, step budget, the includes reader…). */
  evaluate?: Omit<EvaluateOptions, 'libraryStart' | 'constants' | 'file'>;
  /** The name a file is evaluated under (its __FILE__, the folder its includes are relative to); its path from the root when not given. */
  fileName?: (path: string) => string;
}

/**
 * Module route files evaluated by the engine. Within a request each file starts from what the
 * files before it left: the main file's constants and, with `shareRouteLibrary`, the Route
 * library's tables (a copy: see library/library-carry.ts). The evaluations are kept per sequence
 * of files, so requests that include the same files in the same order share them.
 */
export function evaluatedModuleRouteFiles(options: ModuleRouteFilesOptions): ModuleRouteFiles {
  const evaluations = new Map<string, FileEvaluation | null>();
  const startOf = (previous: FileEvaluation): { constants: FileEvaluation['constants']; library?: LibrarySnapshot } => ({
    constants: previous.constants,
    library: options.shareRouteLibrary ? carriedLibrary(previous.methods.map((m) => m.library)) : undefined,
  });
  return {
    forRequest(method, onLoad) {
      const m = REQUEST_METHODS.indexOf(method);
      let sequence = '';
      let previous = options.main;
      return (path) => {
        sequence += `${path}\n`;
        let evaluation = evaluations.get(sequence);
        if (evaluation === undefined) {
          const text = options.read(path);
          const start = startOf(previous);
          evaluation =
            text === undefined
              ? null
              : evaluateRouteFile(text, { ...options.evaluate, file: options.fileName?.(path) ?? path, constants: start.constants, libraryStart: start.library });
          evaluations.set(sequence, evaluation);
        }
        onLoad?.(path, evaluation);
        if (!evaluation) return { routes: undefined, unknown: `${path} could not be read` };
        previous = evaluation;
        const result = evaluation.methods[m];
        const limit = evaluation.problems.find((p) => p.code === 'evaluation-limit' && p.stops);
        if (limit) return { routes: undefined, unknown: `${path}: ${limit.message}` };
        return { routes: result.routes, error: result.error ?? undefined };
      };
    },
  };
}
