import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import type { RouteCall } from '../../../evaluate/interpreter';

const NONE: readonly RouteCall[] = [];

/**
 * An evaluation's calls of methods other than the declaring ones (prefix(), block(), named(),
 * map(), methods the library lacks) by method name (as written, lower case), each list in call
 * order. The interpreter sets those calls apart as it records them (`otherCalls`): a large file
 * makes thousands of calls, nearly all declarations, which each check would otherwise walk on
 * every edit.
 */
export class CallGroups {
  private static readonly memo = new WeakMap<FileEvaluation, CallGroups>();
  private readonly byMethod = new Map<string, RouteCall[]>();

  static of(evaluation: FileEvaluation): CallGroups {
    let groups = CallGroups.memo.get(evaluation);
    if (!groups) CallGroups.memo.set(evaluation, (groups = new CallGroups(evaluation.otherCalls)));
    return groups;
  }

  private constructor(calls: readonly RouteCall[]) {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const method = call.site.method;
      const list = this.byMethod.get(method);
      if (list) list.push(call);
      else this.byMethod.set(method, [call]);
    }
  }

  /** The calls of one method other than the declaring ones, in call order. */
  of(method: string): readonly RouteCall[] {
    return this.byMethod.get(method) ?? NONE;
  }

  /** Every method called other than the declaring ones, with its calls. */
  methods(): IterableIterator<[string, readonly RouteCall[]]> {
    return this.byMethod.entries();
  }
}

/**
 * The methods under which a call's site ran: the call's own when all methods were evaluated
 * together; else every method's call at that site (each method evaluated alone records its own).
 */
export function methodsAtSite(evaluation: FileEvaluation, call: RouteCall): number {
  if (evaluation.mode === 'together') return call.mask;
  const { start } = evaluation.places.site(call.site).span;
  const file = call.site.placed.span.file?.path;
  let mask = 0;
  for (const c of evaluation.calls) if (evaluation.places.start(c.site) === start && c.site.placed.span.file?.path === file) mask |= c.mask;
  return mask || call.mask;
}
