import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import type { Describer } from '../../model/origins';
import type { Finding } from './types';
import { runSteps, type Steps } from '../../../util/steps';

/** What a check may read: the evaluation of one route file, and workspace knowledge when known. */
export interface CheckContext {
  text: string;
  evaluation: FileEvaluation;
  describe: Describer;
}

/**
 * A check. Those with a lot to do on a large file also offer `steps`: the same work, pausing
 * between units of it (see util/steps.ts); the check itself runs them to the end.
 */
export type Check = ((ctx: CheckContext) => Finding[]) & { steps?: (ctx: CheckContext) => Steps<Finding[]> };

/** A check made of its steps. */
export function steppedCheck(name: string, steps: (ctx: CheckContext) => Steps<Finding[]>): Check {
  const check: Check = (ctx) => runSteps(steps(ctx));
  check.steps = steps;
  // Named: profiles and logs tell the checks apart.
  return Object.defineProperty(check, 'name', { value: name });
}
