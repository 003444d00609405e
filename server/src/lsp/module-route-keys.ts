import * as path from 'node:path';
import { routeKeysOf } from '../../../shared/analysis/model/route-file-keys';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { sameItems } from '../../../shared/util/same-items';
import { moduleOfRouteFile } from '../../../shared/app/layout';

/**
 * The route keys of the workspace's module routes files as the index last recorded them: plain
 * data, kept when an evaluation is let go. A main file's targets into a module are decided with
 * them (see TargetRouting.moduleRouteKeys); `version` changes whenever one of them does.
 */
export class ModuleRouteKeys {
  private readonly byFile = new Map<string, readonly string[] | undefined>();
  version = 0;
  /** Called when a module file's keys changed (its application's main files' analyses are then out of date). */
  onChange: (file: string) => void = () => undefined;

  record(file: string, evaluation: FileEvaluation): void {
    if (moduleOfRouteFile(file) === undefined) return;
    const keys = routeKeysOf(evaluation);
    const before = this.byFile.get(file);
    if (this.byFile.has(file) && (before === keys || (before !== undefined && keys !== undefined && sameItems(before, keys)))) return;
    this.byFile.set(file, keys);
    this.changed(file);
  }

  remove(file: string): void {
    if (this.byFile.delete(file)) this.changed(file);
  }

  /** The keys of `<appDir>/modules/<module>/config/routes.php`; undefined when it is not indexed or they are not known. */
  of(appDir: string, module: string): readonly string[] | undefined {
    return this.byFile.get(path.join(appDir, 'modules', module, 'config', 'routes.php'));
  }

  private changed(file: string): void {
    this.version++;
    this.onChange(file);
  }
}
