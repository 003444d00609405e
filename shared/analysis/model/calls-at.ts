import type { RouteCall } from '../../evaluate/interpreter';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { IntervalIndex } from '../../util/interval-index';
import type { Steps } from '../../util/steps';

/** The calls written in the document itself (not in the files it included). */
function ownCalls(evaluation: FileEvaluation): readonly RouteCall[] {
  const calls = evaluation.calls ?? [];
  return evaluation.included?.length ? calls.filter((c) => !c.site.placed.span.file) : calls;
}

const bySite = new WeakMap<FileEvaluation, IntervalIndex<RouteCall>>();
const byTarget = new WeakMap<FileEvaluation, IntervalIndex<RouteCall>>();

function bySiteOf(evaluation: FileEvaluation): IntervalIndex<RouteCall> {
  let index = bySite.get(evaluation);
  if (!index) bySite.set(evaluation, (index = new IntervalIndex(ownCalls(evaluation), (c) => evaluation.places.span(c.site))));
  return index;
}

function byTargetOf(evaluation: FileEvaluation): IntervalIndex<RouteCall> {
  let index = byTarget.get(evaluation);
  if (!index) byTarget.set(evaluation, (index = new IntervalIndex(ownCalls(evaluation), (c) => evaluation.places.argSpan(c.site, 1))));
  return index;
}

/** Builds the indexes ahead of the first request (when idle), so that it does not pay for them. */
export function* callIndexesSteps(evaluation: FileEvaluation): Steps<void> {
  bySiteOf(evaluation);
  yield;
  byTargetOf(evaluation);
}

/** The Route calls whose whole expression holds `offset` (its end included), in evaluation order. */
export function callsAround(evaluation: FileEvaluation, offset: number): RouteCall[] {
  return bySiteOf(evaluation).containing(offset, true);
}

/** The Route calls whose second argument (a verb route's target) holds `offset` (end excluded), in evaluation order. */
export function callsWithTargetAt(evaluation: FileEvaluation, offset: number): RouteCall[] {
  return byTargetOf(evaluation).containing(offset);
}
