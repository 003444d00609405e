import type { RouteCall } from '../evaluate/interpreter';
import type { FileEvaluation } from '../evaluate/evaluate-file';
import { IntervalIndex } from '../util/interval-index';

interface CallIndexes {
  bySite: IntervalIndex<RouteCall>;
  byTarget: IntervalIndex<RouteCall>;
}

const indexes = new WeakMap<FileEvaluation, CallIndexes>();

function indexesOf(evaluation: FileEvaluation): CallIndexes {
  let found = indexes.get(evaluation);
  if (!found) {
    const calls = evaluation.calls ?? [];
    found = { bySite: new IntervalIndex(calls, (c) => c.site.span), byTarget: new IntervalIndex(calls, (c) => c.site.argSpans[1]) };
    indexes.set(evaluation, found);
  }
  return found;
}

/** Builds the indexes ahead of the first request (when idle), so that it does not pay for them. */
export function primeCallIndexes(evaluation: FileEvaluation): void {
  indexesOf(evaluation);
}

/** The Route calls whose whole expression holds `offset` (its end included), in evaluation order. */
export function callsAround(evaluation: FileEvaluation, offset: number): RouteCall[] {
  return indexesOf(evaluation).bySite.containing(offset, true);
}

/** The Route calls whose second argument (a verb route's target) holds `offset` (end excluded), in evaluation order. */
export function callsWithTargetAt(evaluation: FileEvaluation, offset: number): RouteCall[] {
  return indexesOf(evaluation).byTarget.containing(offset);
}
