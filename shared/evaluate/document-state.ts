import { RecentOverlaps } from '../library/mapped-routes';
import { RecentTables } from '../library/record-table';

/**
 * A part of a document's state that a layer above the evaluator declares (its fields named in its
 * own class): made the first time an analysis of the document asks for it, kept with the document.
 */
export interface DocumentPart<T> {
  /** What it is, for the list of derived queries (shared/analysis/derived-queries.ts) and for logs. */
  readonly name: string;
  make(): T;
}

/**
 * What one document keeps between the successive versions of its evaluation: results an edit
 * leaves mostly as they were, which the next version's evaluation and analyses start from. Every
 * evaluation has one (`FileEvaluation.lineage`): a DocumentEvaluator hands the same one to each
 * version it makes (a new one when its options change), an evaluation made alone has one of its
 * own. Nothing derived from a document is kept anywhere else (see test/architecture/module-state.test.ts).
 *
 * Not part of the evaluation's value: it is not frozen with it, and an analysis may write to it.
 * Whatever it holds must be a cache (an evaluation and its analyses are the same with a new one:
 * test/engine/warm-equals-fresh.test.ts).
 */
export class DocumentState {
  /** Route::map()'s overlaps of input and table in the last evaluations (see MappedRoutes). */
  readonly mapOverlaps = new RecentOverlaps();
  /** The route tables of the last evaluations, by what they hold (see RecordTable.settle). */
  readonly recentTables = new RecentTables();
  private readonly parts = new Map<DocumentPart<unknown>, unknown>();

  /** The part `part` of this document's state, made when first asked for. */
  part<T>(part: DocumentPart<T>): T {
    if (this.parts.has(part)) return this.parts.get(part) as T;
    const made = part.make();
    this.parts.set(part, made);
    return made;
  }

  /** The parts made so far, by name (for tests). */
  partNames(): string[] {
    return [...this.parts.keys()].map((p) => p.name);
  }
}
