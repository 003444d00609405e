import type { StaticClassModel } from '../runtime/class-model';
import type { RecordedSite } from '../runtime/call-site';
import type { MethodMask } from '../runtime/methods';
import type { Value } from '../runtime/values';
import { routeApi, STORING_METHODS } from './route-api';
import type { RouteLibrary } from './route-library';

/** The calls the interpreter records in the main list: those storing routes (block() aside, whose calls the checks read with the others). */
const IN_MAIN_CALLS: ReadonlySet<string> = new Set([...STORING_METHODS].filter((m) => m !== 'block'));

/** The Route library as the interpreter sees a class: its API table and its calls. */
export class RouteClassModel implements StaticClassModel {
  readonly name = 'Route';

  constructor(private readonly library: RouteLibrary) {}

  hasMethod(method: string): boolean {
    return routeApi(method) !== undefined;
  }

  parameterNames(method: string): readonly string[] | undefined {
    return routeApi(method)?.params;
  }

  callbackParameter(method: string): number | undefined {
    return routeApi(method)?.nestedAt;
  }

  isMainCall(method: string): boolean {
    return IN_MAIN_CALLS.has(method);
  }

  callStatic(method: string, args: Value[], site: RecordedSite, mask: MethodMask): Value {
    return this.library.call(method, args, site, mask);
  }
}
