import type { DocumentPart } from '../../../evaluate/document-state';
import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import type { RouteCall } from '../../../evaluate/interpreter';
import type { LiteralOrigin } from '../../../library/records';
import { PositionMemo } from '../../../util/position-memo';
import { EntryResults, type TableView } from '../../model/table-view';
import type { TargetScope } from '../../model/target-scope';
import type { InclusionChecker } from '../../regular/inclusion';
import { DecisionMemo } from './coverage-walk';
import type { MethodDecisions } from './reachability-decisions';

/**
 * What the checks keep for one document between its versions: its part of the document's state
 * (`evaluation.lineage`), one named field per check. Every field is a cache of what the check
 * found for an earlier version: the check finds the same with a new CheckDocumentState
 * (test/engine/warm-equals-fresh.test.ts). The check objects themselves hold nothing of a document.
 */
export class CheckDocumentState {
  /** unknownOptions: the calls of the last analysis by position, with the options each passes that are ignored. */
  readonly ignoredOptionsAt = new PositionMemo<RouteCall, readonly IgnoredOption[]>();
  /** patternChecks: each table entry's pattern issue, moved with the entries an edit left. */
  readonly patternIssues = new EntryResults<PatternIssue>();
  /** missingControllers: each table entry's targets that dispatch nowhere, for one target scope. */
  readonly missingTargets = new EntryResults<EntryVerdicts, TargetScope>();
  /** unknownRouteFindings: the views of the last analysis, by method (an edit counts the unknown routes only where it changed the table). */
  unknownViews: readonly (TableView | undefined)[] = [];
  /** reachability: the decisions of the last analysis, by method, with the checker that made them and its memo. */
  reachability: ReachabilityState | undefined = undefined;
}

/** The checks' part of a document's state. */
export const CHECK_STATE: DocumentPart<CheckDocumentState> = { name: 'checks', make: () => new CheckDocumentState() };

/** The checks' state of the document `evaluation` is a version of. */
export function checkState(evaluation: FileEvaluation): CheckDocumentState {
  return evaluation.lineage.part(CHECK_STATE);
}

/** An option key one call passes that its method never reads (see unknownOptions). */
export interface IgnoredOption {
  key: string;
  /** The option's element in an array literal, when written as one. */
  literal: LiteralOrigin | undefined;
  /** Which argument holds the options. */
  idx: number;
}

/** What is wrong with one entry's pattern or target, without its span (read from its origin when reported; see patternChecks). */
export type PatternIssue = { kind: 'invalid'; why: string } | { kind: 'nogroup'; example: string } | { kind: 'beyond'; example: string };

/** Why a target dispatches nowhere (see missingControllers); undefined when it dispatches or cannot be judged. */
export type Verdict = { kind: 'no-controller'; reason: string } | { kind: 'no-method'; file: string; class: string; method: string; args: number } | { kind: 'php-class'; file: string; class: string; since: string } | { kind: 'php-class-named'; class: string; since: string; method: string } | undefined;

/** The targets of one entry that dispatch nowhere, with why. */
export type EntryVerdicts = { target: string; verdict: NonNullable<Verdict> }[];

/** What was decided about one method's table, the view it was read from, and each candidate's index in that view (see reachability). */
export interface TableDecisions {
  decisions: MethodDecisions;
  view: TableView;
  at: readonly number[];
  /** Whether the candidates stop at a route whose key is unknown. */
  cut: boolean;
}

/** Decisions about a document's previous version, by method (see decideTable). */
export type DocumentDecisions = (TableDecisions | undefined)[];

/** What reachability keeps for a document: decisions made with one checker (another one decides everything again). */
export interface ReachabilityState {
  readonly checker: InclusionChecker;
  /** Decisions by key and candidates, for this document's analyses (rotated when it decides everything again). */
  readonly memo: DecisionMemo;
  previous: DocumentDecisions | undefined;
}

/** The reachability state of a document for `checker`: a new one when the last was made with another. */
export function reachabilityState(state: CheckDocumentState, checker: InclusionChecker): ReachabilityState {
  if (state.reachability?.checker !== checker) state.reachability = { checker, memo: new DecisionMemo(), previous: undefined };
  return state.reachability;
}
