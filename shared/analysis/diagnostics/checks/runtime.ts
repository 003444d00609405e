import { ROUTE_API, routeApi } from '../../../library/route-api';
import { maskNames, methodsIn, REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../../runtime/methods';
import type { PhpError } from '../../../evaluate/evaluate-file';
import type { Span } from '../../../php/ast';
import type { Check } from '../core/context';
import { CallGroups, methodsAtSite } from '../core/call-groups';
import { MethodGroups } from '../../model/origins';
import { closestName } from '../../model/names';
import { finding, type Finding } from '../core/types';

const SUGGESTIONS: ReadonlyMap<string, string> = new Map([
  ['resource', 'resources'],
  ['all', 'any'],
]);

export function closestMethod(name: string): string | undefined {
  const lower = name.toLowerCase();
  return SUGGESTIONS.get(lower) ?? closestName(lower, Object.keys(ROUTE_API), 2);
}

/** `Route::resource()`, `Route::all()` and other methods the library does not have. */
export const undefinedMethods: Check = ({ evaluation }) => {
  const seen = new Set<number>();
  const out: Finding[] = [];
  for (const [method, calls] of CallGroups.of(evaluation).methods()) {
    if (routeApi(method)) continue;
    for (const call of calls) {
      const site = evaluation.places.site(call.site);
      if (seen.has(site.span.start)) continue;
      seen.add(site.span.start);
      const suggestion = closestMethod(site.written);
      const fatal = site.method === 'createroute' ? `Call to private method Route::createRoute() from global scope` : `Call to undefined method Route::${site.written}()`;
      out.push(
        finding(
          'undefined-route-method',
          site.nameSpan,
          `Route::${site.written}() does not exist: PHP stops here.${suggestion ? ` Did you mean Route::${suggestion}()?` : ''}`,
          {
            details: `Error: ${fatal}: no route of this file is loaded`,
            methods: maskNames(methodsAtSite(evaluation, call)),
            fixes: suggestion ? [{ title: `Change to Route::${suggestion}()`, edits: [{ span: site.nameSpan, newText: suggestion }], preferred: true }] : [],
          },
        ),
      );
    }
  }
  return out;
};

/**
 * Other uncaught PHP errors that stop the file (each explained once, with the methods it hits).
 * `php` (`php 8.2 (default)`) says which PHP's rules they are under: some errors are another
 * version's warnings (implode()'s old argument order is a TypeError from PHP 8 on).
 */
export function runtimeErrors(php?: string): Check {
  return function runtimeErrors({ evaluation }) {
    const groups = new MethodGroups<{ span: Span; text: string }>();
    const add = (e: PhpError, m: MethodIndex) => {
      if (e.class === 'ParseError' || !e.span) return;
      if (/^Call to (undefined|private) method Route::/.test(e.message)) return;
      groups.add(`${e.span.file?.path ?? ''}:${e.span.start}:${e.class}:${e.message}`, REQUEST_METHODS[m], () => ({ span: e.span!, text: `${e.class}: ${e.message}` }));
    };
    evaluation.methods.forEach((result, m) => {
      if (result.error) add(result.error, m);
    });
    // Those the evaluation went on past (an editor's): each is reported, not only the first.
    for (const fatal of evaluation.fatals) for (const m of methodsIn(fatal.mask)) add(fatal, m);
    const under = php === undefined ? '' : `; evaluated as ${php}: ciRoutes.phpVersion (--php-version) sets another`;
    return groups.entries().map(({ value, methods }) =>
      finding('runtime-error', value.span, `PHP stops here${methods.length === REQUEST_METHODS.length ? '' : ` under ${describe(methods)}`}: ${value.text}`, {
        methods,
        details: `no route of this file reaches CodeIgniter's router under ${describe(methods)}${under}`,
      }),
    );
  };
}

function describe(methods: RequestMethod[]): string {
  return methods.length === REQUEST_METHODS.length ? 'every request method' : methods.join(', ');
}
