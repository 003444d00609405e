import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { RouteCall } from '../../evaluate/interpreter';

const NONE: readonly RouteCall[] = [];

/**
 * An evaluation's `Route::` calls by method name (as written, lower case), each list in call
 * order. Built in one pass and shared: most checks look at a few methods' calls (prefix(),
 * block(), named(), map(), unknown ones), and a large file makes thousands of calls, which each
 * check would otherwise walk on every edit.
 */
export class CallGroups {
  private static readonly memo = new WeakMap<FileEvaluation, CallGroups>();
  private readonly byMethod = new Map<string, RouteCall[]>();

  static of(evaluation: FileEvaluation): CallGroups {
    let groups = CallGroups.memo.get(evaluation);
    // A closure run later (the URL tester) may add calls to the evaluation: grouped again then.
    if (!groups || groups.size !== evaluation.calls.length) CallGroups.memo.set(evaluation, (groups = new CallGroups(evaluation.calls)));
    return groups;
  }

  private readonly size: number;

  private constructor(calls: readonly RouteCall[]) {
    this.size = calls.length;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      const method = call.site.method;
      const list = this.byMethod.get(method);
      if (list) list.push(call);
      else this.byMethod.set(method, [call]);
    }
  }

  /** The calls of one method, in call order. */
  of(method: string): readonly RouteCall[] {
    return this.byMethod.get(method) ?? NONE;
  }

  /** Every method called, with its calls. */
  methods(): IterableIterator<[string, readonly RouteCall[]]> {
    return this.byMethod.entries();
  }
}
