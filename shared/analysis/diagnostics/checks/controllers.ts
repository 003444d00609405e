import { PhpArray, keyToString, type Key, type Value } from '../../../evaluate/values';
import { REQUEST_METHODS } from '../../../library/methods';
import type { EntryOriginInfo } from '../../../library/records';
import { resolveStaticTarget, varies } from '../../target-dispatch';
import type { ControllerCatalog } from '../../../workspace/controller-catalog';
import type { Check } from '../context';
import { MethodGroups, toSpan } from '../../origins';
import { finding, type Finding } from '../types';

interface Missing {
  span: { start: number; end: number };
  message: string;
}

function targetsOf(value: Value): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof PhpArray) return [...value.values()].filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * `missing-controller`: a target whose controller file (HMVC aware) or public method does not
 * exist. Segments that are back-references are not judged; `_remap()` accepts any method.
 * Information only when the application has no controllers at all (e.g. a routes file alone).
 */
export function missingControllers(catalog: ControllerCatalog | undefined): Check {
  return ({ evaluation }) => {
    if (!catalog) return [];
    const tree = catalog.tree;
    const noControllers = !tree.isDir('controllers');
    const groups = new MethodGroups<Missing>();
    evaluation.methods.forEach((result, m) => {
      if (!result.routes || result.error) return;
      const method = REQUEST_METHODS[m];
      for (const [k, value] of result.routes.entries()) {
        const key = keyToString(k as Key);
        if (key === 'translate_uri_dashes') continue;
        const origin = result.routes.originOf(k) as EntryOriginInfo | undefined;
        if (!origin || (origin.kind === 'route' && origin.dynamic)) continue;
        for (const target of targetsOf(value)) {
          const segments = target.split('/').filter((s) => s !== '');
          if (segments.length === 0) continue;
          // A back-reference among the segments that choose the controller: decided per request.
          const r = resolveStaticTarget(segments, tree);
          if (!('resolution' in r)) continue;
          const resolved = r.resolution;
          const span = key === 'default_controller' ? toSpan(origin) : origin.kind === 'route' && origin.row ? origin.site.span : toSpan(origin);
          if (!resolved.found) {
            groups.add(`${span.start}:${target}`, method, () => ({
              span,
              message: `'${target}' dispatches to no controller: ${resolved.reason}. CodeIgniter answers 404 for ${key === 'default_controller' ? 'the home page' : `'${key}'`}.`,
            }));
            continue;
          }
          const t = resolved.target;
          if (varies(t.method)) continue;
          const methods = catalog.methods(t.file);
          if (!methods || methods.hasRemap || methods.names.has(t.method.toLowerCase())) continue;
          groups.add(`${span.start}:${target}`, method, () => ({
            span,
            message: `'${target}' dispatches to ${t.file}, which has no public method '${t.method}()': CodeIgniter answers 404 for ${key === 'default_controller' ? 'the home page' : `'${key}'`}.`,
          }));
        }
      }
    });
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) {
      out.push(finding('missing-controller', value.span, value.message, { methods, ...(noControllers ? { severity: 'information' as const } : {}) }));
    }
    return out;
  };
}
