import { PhpArray, type Value } from '../../../evaluate/values';
import { maskNames } from '../../../library/methods';
import type { LiteralOrigin } from '../../../library/records';
import type { Check } from '../context';
import { closestName } from '../../names';
import { finding, type Finding } from '../types';

const ROUTE_OPTIONS = ['as'];
export const OPTIONS_BY_METHOD: Record<string, readonly string[]> = {
  any: ROUTE_OPTIONS,
  get: ROUTE_OPTIONS,
  post: ROUTE_OPTIONS,
  put: ROUTE_OPTIONS,
  delete: ROUTE_OPTIONS,
  head: ROUTE_OPTIONS,
  patch: ROUTE_OPTIONS,
  options: ROUTE_OPTIONS,
  resources: ['controller', 'module', 'constraint', 'offset'],
  context: ['offset', 'home'],
};

/** The index of the options argument of a call, given its evaluated arguments. */
export function optionsArgIndex(method: string, args: readonly Value[]): number | undefined {
  if (method === 'resources') return 1;
  if (method === 'context') return args[1] instanceof PhpArray ? 1 : 2;
  return OPTIONS_BY_METHOD[method] ? 2 : undefined;
}

/** An option key the method never reads is silently ignored. */
export const unknownOptions: Check = ({ evaluation }) => {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const call of evaluation.calls) {
    const allowed = OPTIONS_BY_METHOD[call.site.method];
    const idx = optionsArgIndex(call.site.method, call.args);
    if (!allowed || idx === undefined) continue;
    const options = call.args[idx];
    if (!(options instanceof PhpArray)) continue;
    for (const key of options.keys()) {
      if (typeof key !== 'string' || allowed.includes(key)) continue;
      const literal = options.originOf(key) as LiteralOrigin | undefined;
      const span = literal?.keySpan ?? call.site.argSpans[idx];
      if (!span || seen.has(`${span.start}:${key}`)) continue;
      seen.add(`${span.start}:${key}`);
      const suggestion = closestName(key, allowed, 2);
      const naming = key === 'as' ? ` Route::${call.site.written}() cannot name its routes.` : '';
      out.push(
        finding(
          'unknown-option',
          span,
          `'${key}' is not an option of Route::${call.site.written}(), which reads only ${allowed.map((a) => `'${a}'`).join(', ')}: it is ignored.${naming}${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
          {
            methods: maskNames(call.mask),
            fixes: suggestion && literal?.keySpan ? [{ title: `Change to '${suggestion}'`, edits: [{ span: innerString(literal.keySpan), newText: suggestion }] }] : [],
          },
        ),
      );
    }
  }
  return out;
};

/** The content of a quoted key's span (without its quotes). */
function innerString(span: { start: number; end: number }): { start: number; end: number } {
  return { start: span.start + 1, end: span.end - 1 };
}
