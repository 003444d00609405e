import { ROUTE_API } from '../../library/route-api';
import { PhpArray, type Value } from '../../runtime/values';

/** The option keys each method reads (see route-api.ts). */
export const OPTIONS_BY_METHOD: Readonly<Record<string, readonly string[]>> = Object.fromEntries(Object.entries(ROUTE_API).flatMap(([name, m]) => (m.options ? [[name, m.options]] : [])));

/** The index of the options argument of a call, given its evaluated arguments. */
export function optionsArgIndex(method: string, args: readonly Value[]): number | undefined {
  if (method === 'resources') return 1;
  if (method === 'context') return args[1] instanceof PhpArray ? 1 : 2;
  return OPTIONS_BY_METHOD[method] ? 2 : undefined;
}
