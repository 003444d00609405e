import { PhpArray, type Value } from '../../../evaluate/values';
import { REQUEST_METHODS } from '../../../library/methods';
import { resolveStaticTarget, varies } from '../../target-dispatch';
import type { ControllerCatalog } from '../../../workspace/controller-catalog';
import { targetScope, type RouteFileRouting, type TargetScope } from '../../target-scope';
import { steppedCheck, type Check } from '../context';
import { MethodGroups, toSpan } from '../../origins';
import { finding, type Finding } from '../types';
import { EntryResults, tableView } from '../table-view';

interface Missing {
  span: { start: number; end: number };
  message: string;
}

function targetsOf(value: Value): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof PhpArray) return [...value.values()].filter((v): v is string => typeof v === 'string');
  return [];
}

type Verdict = { kind: 'no-controller'; reason: string } | { kind: 'no-method'; file: string; method: string } | undefined;

/** Verdicts per target text, for as long as the scope (the controllers on disk, the router, the module) stays the same. */
const verdicts = new WeakMap<TargetScope, Map<string, Verdict>>();

/** What is missing for a target, if anything; decided once per target and scope. */
function verdictOf(scope: TargetScope, target: string): Verdict {
  let known = verdicts.get(scope);
  if (!known) verdicts.set(scope, (known = new Map()));
  if (known.has(target)) return known.get(target);
  const verdict = decide(scope, target);
  if (known.size > 200_000) known.clear();
  known.set(target, verdict);
  return verdict;
}

function decide({ catalog, routing }: TargetScope, target: string): Verdict {
  const segments = target.split('/').filter((s) => s !== '');
  if (segments.length === 0) return undefined;
  // A back-reference among the segments that choose the controller, or what the look-up cannot know: not judged.
  const r = resolveStaticTarget(segments, routing);
  if (!('resolution' in r)) return undefined;
  const resolved = r.resolution;
  if (!resolved.found) return { kind: 'no-controller', reason: resolved.reason };
  const t = resolved.target;
  if (varies(t.method)) return undefined;
  const methods = catalog.methods(t.file);
  if (!methods || methods.hasRemap || methods.names.has(t.method.toLowerCase())) return undefined;
  return { kind: 'no-method', file: t.file, method: t.method };
}

/** The targets of one entry that dispatch nowhere, with why. */
type EntryVerdicts = { target: string; verdict: NonNullable<Verdict> }[];

/** Per document and scope: an edit judges only the entries it changed. */
const JUDGED = new EntryResults<EntryVerdicts, TargetScope>((view, i, scope) => {
  const key = view.keys[i];
  if (key === 'translate_uri_dashes') return undefined;
  const origin = view.origins[i];
  if (!origin || (origin.kind === 'route' && origin.dynamic)) return undefined;
  let found: EntryVerdicts | undefined;
  for (const target of targetsOf(view.values[i])) {
    const verdict = verdictOf(scope, target);
    if (verdict) (found ??= []).push({ target, verdict });
  }
  return found;
});

/**
 * `missing-controller`: a target whose controller file or public method does not exist, located
 * as the application's router locates it (`routing`: the flavour, and module-relative in a
 * module's routes file). Segments that are back-references are not judged; `_remap()` accepts
 * any method. Information only when the application has no controllers at all (e.g. a routes file alone).
 */
export function missingControllers(catalog: ControllerCatalog | undefined, routing?: RouteFileRouting): Check {
  return steppedCheck('missingControllers', function* ({ evaluation }) {
    if (!catalog) return [];
    const scope = targetScope(catalog, routing);
    const tree = catalog.tree;
    const noControllers = !tree.isDir('controllers');
    const groups = new MethodGroups<Missing>();
    for (const [m, result] of evaluation.methods.entries()) {
      // After an error, the table as it was when the file stopped (or, for a syntax error, without the broken statement).
      if (!result.routes) continue;
      const method = REQUEST_METHODS[m];
      const view = tableView(result.routes);
      for (const [i, found] of yield* JUDGED.ofSteps(view, evaluation.lineage, m, scope)) {
        const key = view.keys[i];
        const origin = view.origins[i]!;
        for (const { target, verdict } of found) {
          const span = key === 'default_controller' ? toSpan(origin) : origin.kind === 'route' && origin.row ? origin.site.span : toSpan(origin);
          const what = key === 'default_controller' ? 'the home page' : `'${key}'`;
          groups.add(`${span.start}:${target}`, method, () => ({
            span,
            message:
              verdict.kind === 'no-controller'
                ? `'${target}' dispatches to no controller: ${verdict.reason}. CodeIgniter answers 404 for ${what}.`
                : `'${target}' dispatches to ${verdict.file}, which has no public method '${verdict.method}()': CodeIgniter answers 404 for ${what}.`,
          }));
        }
      }
    }
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) {
      out.push(finding('missing-controller', value.span, value.message, { methods, ...(noControllers ? { severity: 'information' as const } : {}) }));
    }
    return out;
  });
}
