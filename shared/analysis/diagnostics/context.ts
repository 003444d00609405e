import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { Describer } from '../origins';
import type { Finding } from './types';

/** What a check may read: the evaluation of one route file, and workspace knowledge when known. */
export interface CheckContext {
  text: string;
  evaluation: FileEvaluation;
  describe: Describer;
}

export type Check = (ctx: CheckContext) => Finding[];
