import { keyToString, type Key } from '../../../runtime/values';
import { displacedRoutes } from '../../../library/mapped-routes';
import { REQUEST_METHODS } from '../../../runtime/methods';
import type { RouteRecord } from '../../../library/records';
import { mappedBy } from '../../../library/record-marks';
import type { Check } from '../core/context';
import { CallGroups } from '../core/call-groups';
import { MethodGroups, describeMethods, siteKey } from '../../model/origins';
import { finding, type Finding } from '../core/types';

/**
 * Routes the library holds at the end that never reached the final `$route`: declared after the
 * last map(), no map() at all, or map()'s result not assigned to `$route`.
 */
export const afterMap: Check = ({ evaluation, describe, text }) => {
  // When evaluation stopped early, what happens after the stop is not known.
  if (evaluation.problems.some((p) => p.code === 'evaluation-limit' || p.code === 'exit')) return [];
  const mapCalls = CallGroups.of(evaluation).of('map');
  const after = new MethodGroups<RouteRecord>();
  const neverMapped = new MethodGroups<RouteRecord>();
  const notAssigned = new MethodGroups<{ span: { start: number; end: number } }>();
  let lost = 0;
  // A map() that threw (and was skipped by the recovery) would have taken the routes: not judged.
  let failedMap = 0;
  for (const fatal of evaluation.fatals) {
    if (mapCalls.some((c) => !c.site.placed.span.file && evaluation.places.start(c.site) >= fatal.statement.start && evaluation.places.site(c.site).span.end <= fatal.statement.end)) failedMap |= fatal.mask;
  }
  evaluation.methods.forEach((result, m) => {
    if (result.error || failedMap & (1 << m)) return;
    const method = REQUEST_METHODS[m];
    const visit = (key: Key, record: RouteRecord) => {
      if (record.dynamic) return;
      const inRoutes = result.routes?.originOf(key);
      if (inRoutes === record) return;
      const maps = mappedBy(record, result.library);
      if (maps.length === 0) {
        lost++;
        if (mapCalls.length === 0) neverMapped.add(siteKey(evaluation.places.site(record.site)), method, () => record);
        else after.add(siteKey(evaluation.places.site(record.site)), method, () => record);
        return;
      }
      if (inRoutes) return; // replaced in $route: a duplicate
      const last = evaluation.places.site(maps[maps.length - 1]);
      notAssigned.add(siteKey(last), method, () => ({ span: last.span }));
    };
    const table = result.library.routes;
    // `$route` still map()'s view over the table: only routes written over since can be missing from it.
    const displaced = displacedRoutes(result.routes, table);
    if (displaced) {
      for (const key of displaced) {
        const record = table.originOf(key);
        if (record) visit(key, record);
      }
    } else table.forEachEntry((_to, key, record) => visit(key, record));
  });
  const out: Finding[] = [];
  const lastMap = mapCalls[mapCalls.length - 1];
  for (const { value: record, methods } of after.entries()) {
    out.push(
      finding(
        'routes-after-map',
        evaluation.places.site(record.site).nameSpan,
        `'${keyToString(record.key)}' is declared after the last Route::map() (line ${describe.line(evaluation.places.site(lastMap.site).span)}): it never reaches $route${methods.length === REQUEST_METHODS.length ? '' : ` under ${describeMethods(methods)}`}.`,
        { methods, related: [{ span: evaluation.places.site(lastMap.site).span, message: 'the last Route::map(): move the declaration above it, or call map() again after it' }] },
      ),
    );
  }
  const unmapped = neverMapped.entries();
  if (unmapped.length > 0) {
    const first = unmapped.map((e) => e.value).sort((a, b) => evaluation.places.start(a.site) - evaluation.places.start(b.site))[0];
    const methods = [...new Set(unmapped.flatMap((e) => e.methods))];
    out.push(
      finding(
        'missing-map',
        evaluation.places.site(first.site).nameSpan,
        `Route::map() is never called: the ${lost} route${lost === 1 ? '' : 's'} declared never reach $route.`,
        {
          details: 'CodeIgniter never sees them: add `$route = Route::map($route);` after the last declaration',
          methods: REQUEST_METHODS.filter((m) => methods.includes(m)),
          fixes: [{ title: 'Add $route = Route::map($route); at the end', edits: [{ span: { start: text.length, end: text.length }, newText: `${text.endsWith('\n') ? '' : '\n'}\n$route = Route::map($route);\n` }] }],
        },
      ),
    );
  }
  for (const { value, methods } of notAssigned.entries()) {
    out.push(
      finding('missing-map', value.span, `Route::map()'s result does not end up in $route: the declared routes never reach CodeIgniter${methods.length === REQUEST_METHODS.length ? '' : ` under ${describeMethods(methods)}`}.`, {
        methods,
        details: 'map() returns the merged routes: write `$route = Route::map($route);`',
      }),
    );
  }
  return out;
};
