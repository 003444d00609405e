import { callIndexesSteps } from '../../../shared/analysis/model/calls-at';
import { nameDeclarations } from '../../../shared/analysis/model/name-declarations';
import { recordsBySiteSteps } from '../../../shared/analysis/model/records-by-site';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { Steps } from '../../../shared/util/steps';
import type { OutlineCache } from './outline-cache';

/**
 * Builds what the first requests after an analysis read, so that none of them pays for it: the
 * records of each call (hover, lenses, outline), the call indexes (hover, definition), the route
 * names' declarations (definition, completion) and, when the editor shows outlines, the outline.
 */
export function* warmUpSteps(text: string, evaluation: FileEvaluation, outlines: OutlineCache, outlineLimit: number | undefined): Steps<void> {
  yield* recordsBySiteSteps(evaluation);
  yield;
  yield* callIndexesSteps(evaluation);
  yield;
  nameDeclarations(evaluation);
  yield;
  if (outlineLimit !== undefined) yield* outlines.steps(text, evaluation, outlineLimit);
}
