/**
 * Every piece of derived data the engine and the analyses keep, in one list: what it answers, what
 * it is a function of, and where it is kept. Nothing else may be kept between calls:
 * test/architecture/module-state.test.ts holds every memo of a module (and every part and field of
 * a document's state) to this list, and test/engine/warm-equals-fresh.test.ts asks every query on
 * a document edited version after version (caches warm) and on a fresh evaluation of the same text
 * (caches cold), and finds the same answers.
 *
 * What a query may be a function of (`key`):
 * - `string`: text alone (route keys, targets); kept wherever, bounded.
 * - `evaluation`: one evaluation, or a value inside one that never changes once handed out (a
 *   table, a view of it, a call, a record, a parse, an included file); held weakly by it, in a
 *   module's memo.
 * - `document`: a document's successive evaluations (what the previous version found, reused for
 *   the next); kept in the document's state (`evaluation.lineage`, see evaluate/document-state.ts).
 * - `application`: what the application's files say (its controllers, its router); held weakly by
 *   the application's objects (the controller catalog, the target scope made from it).
 *
 * Where it is kept (`stored`):
 * - `module:<file>:<name>`: a module's memo, listed in module-state.test.ts's MODULE_STATE;
 * - `document:<field>`: a field of DocumentState;
 * - `document:<part>.<field>`: a field of a part of the document's state a layer above declares
 *   (a DocumentPart: `tableViews` is RecentViews itself, `checks` is CheckDocumentState);
 * - `evaluator:<field>`: a field of the document's DocumentEvaluator (evaluate/document-evaluator.ts),
 *   which makes its successive evaluations;
 * - `check:<check>.<field>`: what a check object holds for every document (only caches keyed by
 *   text).
 */
export interface DerivedQuery {
  /** The function answering it (or the check whose findings it makes). */
  readonly query: string;
  readonly key: 'string' | 'evaluation' | 'document' | 'application';
  readonly stored: string;
}

export const DERIVED_QUERIES: readonly DerivedQuery[] = [
  // The evaluation (evaluate/, library/).
  { query: 'parse', key: 'string', stored: 'evaluator:parser' },
  { query: 'DocumentEvaluator.update (same text)', key: 'document', stored: 'evaluator:last' },
  { query: 'DocumentEvaluator.update (replayed statements)', key: 'document', stored: 'evaluator:replay' },
  { query: 'DocumentEvaluator.update (resumed from a checkpoint)', key: 'document', stored: 'evaluator:checkpoint' },
  { query: 'reuseStopped', key: 'evaluation', stored: 'module:shared/evaluate/evaluate-file.ts:stops' },
  { query: 'topLevelFunctions', key: 'evaluation', stored: 'module:shared/evaluate/checkpoint.ts:functionsOf' },
  { query: 'unknownPathOf', key: 'evaluation', stored: 'module:shared/library/records.ts:unknownPaths' },
  { query: 'addedAt', key: 'evaluation', stored: 'module:shared/library/record-marks.ts:positions' },
  { query: 'Route::map() overlaps', key: 'document', stored: 'document:mapOverlaps' },
  { query: 'route tables read from an earlier version', key: 'document', stored: 'document:recentTables' },
  // The model (analysis/model/).
  { query: 'tableView', key: 'evaluation', stored: 'module:shared/analysis/model/table-view.ts:views' },
  { query: 'tableView (same map() input)', key: 'evaluation', stored: 'module:shared/analysis/model/table-view.ts:inputsCompared' },
  { query: 'tableView (earlier views)', key: 'document', stored: 'document:tableViews' },
  { query: 'viewChanges', key: 'evaluation', stored: 'module:shared/analysis/model/table-view.ts:changes' },
  { query: 'callsAround', key: 'evaluation', stored: 'module:shared/analysis/model/calls-at.ts:bySite' },
  { query: 'callsWithTargetAt', key: 'evaluation', stored: 'module:shared/analysis/model/calls-at.ts:byTarget' },
  { query: 'includedLines', key: 'evaluation', stored: 'module:shared/analysis/model/included-places.ts:lineIndexes' },
  { query: 'producedBy', key: 'evaluation', stored: 'module:shared/analysis/model/produced.ts:indexes' },
  { query: 'uniqueCalls', key: 'evaluation', stored: 'module:shared/analysis/model/declarations.ts:uniqueCallsCache' },
  { query: 'nameDeclarations', key: 'evaluation', stored: 'module:shared/analysis/model/name-declarations.ts:declarationCache' },
  { query: 'recordsBySite', key: 'evaluation', stored: 'module:shared/analysis/model/records-by-site.ts:memo' },
  { query: 'targetScope', key: 'application', stored: 'module:shared/analysis/model/target-scope.ts:scopes' },
  // The features (analysis/features/).
  { query: 'workspaceSymbols', key: 'evaluation', stored: 'module:shared/analysis/features/symbols.ts:entriesCache' },
  { query: 'documentOutline (calls described before)', key: 'document', stored: 'document:outlineCalls' },
  { query: 'hoverAt (a declaration)', key: 'evaluation', stored: 'module:shared/analysis/features/hover.ts:declarationHovers' },
  // The checks (analysis/diagnostics/).
  { query: 'CallGroups.of', key: 'evaluation', stored: 'module:shared/analysis/diagnostics/core/call-groups.ts:memo' },
  { query: 'duplicates', key: 'evaluation', stored: 'module:shared/analysis/diagnostics/checks/duplicates.ts:overwriting' },
  { query: 'unknownOptions', key: 'evaluation', stored: 'module:shared/analysis/diagnostics/checks/options.ts:ignoredByCall' },
  { query: 'unknownOptions (by position)', key: 'document', stored: 'document:checks.ignoredOptionsAt' },
  { query: 'patternChecks', key: 'document', stored: 'document:checks.patternIssues' },
  { query: 'missingControllers', key: 'application', stored: 'module:shared/analysis/diagnostics/checks/controllers.ts:verdicts' },
  { query: 'missingControllers (by entry)', key: 'document', stored: 'document:checks.missingTargets' },
  { query: 'unknownRouteFindings', key: 'evaluation', stored: 'module:shared/analysis/diagnostics/checks/unknowns.ts:counts' },
  { query: 'unknownRouteFindings (last views)', key: 'document', stored: 'document:checks.unknownViews' },
  { query: 'reachability (conditional views)', key: 'evaluation', stored: 'module:shared/analysis/diagnostics/checks/reachability.ts:conditionalViews' },
  { query: 'reachability', key: 'document', stored: 'document:checks.reachability' },
  { query: 'reachability (automata)', key: 'string', stored: 'check:reachability.checker' },
];
