import type { MainRoutes } from '../../../shared/analysis/model/main-routes';
import { mainRoutingFingerprint, mainTablesOf } from '../../../shared/analysis/model/main-tables';
import type { AnalysedRouteFile } from './route-service';
import { translatesDashesUnder } from '../../../shared/analysis/model/target-dispatch';

/**
 * Whether a module's routes file must be analysed again after its application's main route file
 * changed: only when what its checks read of the main routes changed (their keys that may take
 * one of the module's URIs, the targets that lead into it), or when its findings point at places
 * in the main routes, which an edit may have moved. One instance per pass over the open files:
 * each module's reading of the new main routes is worked out once.
 */
/** Under which request methods the main routes set translate_uri_dashes to TRUE. */
function dashesTranslated(main: MainRoutes): string {
  return main.evaluation.methods.map((_, m) => (translatesDashesUnder(main.evaluation, m) ? '1' : '0')).join('');
}

export class ModuleMainReads {
  private readonly fingerprints = new Map<string, string>();

  constructor(private readonly current: MainRoutes) {}

  /** Whether the last analysis (of the document's current version) still holds against the current main routes. */
  holds(last: AnalysedRouteFile | undefined, module: string): boolean {
    const read = last?.mainRoutes;
    if (!read) return false;
    if (read.evaluation === this.current.evaluation) return true;
    if (last.findings.some((f) => f.finding.related.some((r) => r.text !== undefined || r.span.file !== undefined))) return false;
    // Its dashed keys are judged by the main routes' translate_uri_dashes (see moduleKeyReach).
    if (dashesTranslated(read) !== dashesTranslated(this.current)) return false;
    return mainRoutingFingerprint(mainTablesOf(read, module)) === this.fingerprintOf(module);
  }

  private fingerprintOf(module: string): string {
    let fingerprint = this.fingerprints.get(module);
    if (fingerprint === undefined) this.fingerprints.set(module, (fingerprint = mainRoutingFingerprint(mainTablesOf(this.current, module))));
    return fingerprint;
  }
}
