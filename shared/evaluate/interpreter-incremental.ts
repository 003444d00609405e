import { BelowLookups } from '../library/record-table';
import type { IncludedFile, PhpNode } from '../php/ast';
import type { ParsedFile, ParsedStatement } from '../php/parse';
import { declaresAnyConstant, isReplayableStatement, type ReplayCache } from './replay';
import { replayRouteWrite } from './assignments';
import { ALL_METHODS, REQUEST_METHODS } from '../runtime/methods';
import { restoreLibrary, snapshotLibrary } from '../library/library-snapshot';
import { shareValue, type Value } from '../runtime/values';
import type { RecordedWrite, StatementEffect } from './statement-effect';
import { topLevelFunctions, type Checkpoint } from './checkpoint';
import type { EvalProblem, InterpreterSnapshot } from './interpreter-state';
import { MAX_WARNINGS, type InterpreterCore } from './interpreter-core';

/*
 * The incremental machinery: the state between two top-level statements copied into a checkpoint
 * and put back, and a statement's effect recorded and replayed instead of evaluated again.
 */

/**
 * What a recorded effect holds for a list to which the statement added nothing: shared, since an
 * editor keeps an effect per declaration and most of their per-method lists are empty.
 */
const NONE: readonly never[] = Object.freeze([]);

const NO_WARNINGS: readonly (readonly string[])[] = Object.freeze(REQUEST_METHODS.map(() => NONE));

function tail<T>(list: readonly T[], from: number): readonly T[] {
  return list.length === from ? NONE : list.slice(from);
}

/**
 * The lists, each replaced by the one before it when they hold the same records: a statement
 * declaring under every method (any(), context(), block()) made as many equal lists, and an
 * editor keeps an effect per declaration.
 */
function sameAsBefore<T>(lists: (readonly T[])[]): (readonly T[])[] {
  for (let m = 1; m < lists.length; m++) {
    const before = lists[m - 1], list = lists[m];
    if (list !== before && list.length === before.length && list.every((x, i) => x === before[i])) lists[m] = before;
  }
  return lists;
}

/** A top-level statement the replay may serve, whose node's occurrences are therefore counted (the run and countRepeatedBefore alike). */
export function countsOccurrence(st: ParsedStatement): boolean {
  return st.chunk.kind === 'php' && !st.tooDeep && st.nodes.length === 1 && st.problems.length === 0;
}

function appendAll<T>(to: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) to.push(items[i]);
}

/**
 * Counts, among the statements before a resumed checkpoint, the nodes repeated now that the
 * checkpoint's run did not count (`counted`, its repeated ones): a statement repeated only since
 * (the edit made a copy of one above it) was then met once and not counted.
 */
function countRepeatedBefore(it: InterpreterCore, at: number, counted: ReadonlySet<PhpNode>): void {
  const repeated = it.parsed.repeated;
  let missing = false;
  for (const node of repeated) {
    if (counted.has(node)) continue;
    missing = true;
    break;
  }
  if (!missing) return;
  const statements = it.parsed.statements;
  for (let i = 0; i < at; i++) {
    const st = statements[i];
    if (!countsOccurrence(st)) continue;
    const node = st.nodes[0];
    if (repeated.has(node) && !counted.has(node)) it.occurrences.set(node, (it.occurrences.get(node) ?? 0) + 1);
  }
}

export function takeCheckpoint(it: InterpreterCore, at: number): void {
  const state = snapshot(it);
  if (!state) return;
  it.options.onCheckpoint?.({ at, statements: it.parsed.statements.slice(0, at), functions: topLevelFunctions(it.parsed), calledFunction: it.calledFunction, broken: it.parsed.problems.length > 0, state });
}

/** The state between two top-level statements; undefined where it cannot be copied (inside a prefix, a by-reference capture, a view of a table). */
function snapshot(it: InterpreterCore): InterpreterSnapshot | undefined {
  // Past an include the state depends on another file's text, which an edit of this one does not show.
  if (!isClean(it) || it.capturedByReference || it.globals.refs.size > 0 || it.includes.ran) return undefined;
  const library = snapshotLibrary(it.library);
  if (!library) return undefined;
  const vars = new Map<string, Value>();
  for (const [name, v] of it.globals.vars) vars.set(name, shareValue(v));
  const problemsAt = new Map<number, readonly EvalProblem[]>();
  for (const [at, list] of it.problemsAt) problemsAt.set(at, list.slice());
  return {
    library,
    vars,
    globalNames: [...it.globals.globalNames],
    constants: new Map(it.constants),
    functions: new Map(it.functions),
    warnings: it.warnings.map((w) => w.slice()),
    problems: it.problems.slice(),
    problemsAt,
    calls: it.calls.slice(),
    otherCalls: it.otherCalls.slice(),
    nestedClosure: it.nestedClosure,
    recovered: it.recovered.slice(),
    orderVaries: new Map([...it.orderVaries].map(([id, g]) => [id, { keys: new Set(g.keys), onlySome: new Set(g.onlySome), condition: g.condition, mask: g.mask }])),
    occurrences: new Map(it.occurrences),
    moved: it.shareMoved(),
    repeated: it.parsed.repeated,
    steps: it.steps,
  };
}

/** Puts this (new) interpreter into a snapshot's state; the snapshot stays as it is. */
function restore(it: InterpreterCore, s: InterpreterSnapshot): void {
  restoreLibrary(it.library, s.library);
  for (const [name, v] of s.vars) it.globals.vars.set(name, shareValue(v));
  for (const name of s.globalNames) it.globals.globalNames.add(name);
  it.constants.clear();
  for (const [name, v] of s.constants) it.constants.set(name, v);
  // Top-level declarations are the same where they were (see canResume); conditional ones ran above.
  it.functions = new Map(s.functions);
  s.warnings.forEach((w, m) => appendAll(it.warnings[m], w));
  appendAll(it.problems, s.problems);
  for (const [at, list] of s.problemsAt) it.problemsAt.set(at, list.slice());
  appendAll(it.calls, s.calls);
  appendAll(it.otherCalls, s.otherCalls);
  it.nestedClosure = s.nestedClosure;
  it.recovered.length = 0;
  it.recovered.push(...s.recovered);
  it.orderVaries.clear();
  for (const [id, g] of s.orderVaries) it.orderVaries.set(id, { keys: new Set(g.keys), onlySome: new Set(g.onlySome), condition: g.condition, mask: g.mask });
  it.occurrences = new Map(s.occurrences);
  it.adoptMoved(s.moved);
  it.steps = s.steps;
}

/** At the top level, outside any condition or callback, with the library's prefixes unset. */
export function isClean(it: InterpreterCore): boolean {
  // Static variables live outside the checkpointed state: once one exists, nothing is recorded.
  // A namespace or an import changes what `Route::` names: nothing recorded outside them applies.
  return it.mask === ALL_METHODS && it.conditionalDepth === 0 && it.callDepth === 0 && it.via.length === 0 && it.statics.size === 0 && it.namespace === '' && it.classAliases.size === 0 && !it.serverWritten && it.library.isClean();
}

/** Evaluates a replayable statement, noting everything it adds so it can be replayed later. */
export function recordStatement(it: InterpreterCore, node: PhpNode, start: number): StatementEffect | undefined {
  const states = it.library.states;
  const created = states.map((s) => s.created.length);
  const warnings = it.warnings.map((w) => w.length);
  const calls = it.calls.length;
  const otherCalls = it.otherCalls.length;
  const problems = it.problems.length;
  const steps = it.steps;
  const anchor = { start };
  // The replayable assignments are `$route[literal] = literal;` (see isLiteralRouteWrite): each is recorded with what it wrote.
  const writes: RecordedWrite[] | undefined = node.expression?.kind === 'assign' ? [] : undefined;
  it.recording = anchor;
  it.recordedWrites = writes;
  it.replayStats.evaluated++;
  try {
    it.execStatement(node, false);
  } finally {
    it.recording = undefined;
    it.recordedWrites = undefined;
  }
  const write = writes && replayableWrite(writes);
  if (writes && !write) return undefined;
  // Only an effect that left the library as it found it can be replayed anywhere; one that
  // reached the warnings' cap depends on how many came before it. Problems hold spans placed in
  // this version only: a statement that reports one is evaluated every time.
  if (!isClean(it) || it.warnings.some((w) => w.length > MAX_WARNINGS) || it.problems.length > problems) return undefined;
  const newWarnings = it.warnings.some((w, m) => w.length > warnings[m]);
  const records = sameAsBefore(states.map((s, m) => tail(s.created, created[m])));
  return {
    anchor,
    records,
    lookups: records.map((list) => (list.length ? new BelowLookups() : undefined)),
    calls: tail(it.calls, calls),
    otherCalls: tail(it.otherCalls, otherCalls),
    warnings: newWarnings ? it.warnings.map((w, m) => tail(w, warnings[m])) : NO_WARNINGS,
    steps: it.steps - steps,
    statement: it.statementSpan,
    ...(write ? { write } : {}),
  };
}

/**
 * What a `$route[literal] = literal;` wrote, as one entry of its own: not one that chained what it
 * replaced. Into `$route` holding one array per method (after map()), it wrote under every method
 * (recorded only with all of them) the same entry: replayed into each method's array (an
 * application's environment routes file runs after its main file's map()).
 */
function replayableWrite(writes: readonly RecordedWrite[]): RecordedWrite | undefined {
  const first = writes[0];
  if (first === undefined || first.origin.replaced !== undefined) return undefined;
  if (writes.length === 1) return first;
  if (writes.length !== REQUEST_METHODS.length) return undefined;
  for (const w of writes) if (w.key !== first.key || w.value !== first.value || w.origin !== first.origin) return undefined;
  return { key: first.key, value: first.value, origin: first.origin, eachMethod: true };
}

/** Redoes a recorded statement; false when it must be evaluated instead (state or budget). */
export function replayEffect(it: InterpreterCore, effect: StatementEffect, start: number): boolean {
  // A replayed statement leaves the state clean: the next one need not look again.
  if (!(it.cleanAfterReplay || isClean(it)) || it.steps + effect.steps > it.options.maxSteps) return false;
  if (effect.warnings !== NO_WARNINGS && it.warnings.some((w, m) => w.length + effect.warnings[m].length > MAX_WARNINGS)) return false;
  if (!it.library.replay(effect.records, effect.lookups)) return false;
  // A write adds no records: nothing was replayed above when it must be evaluated instead.
  if (effect.write && !replayRouteWrite(it, effect.write)) return false;
  const delta = start - effect.anchor.start;
  // Moved since recorded: its records and calls stay as they are, placed here by `moved`.
  if (delta !== 0) it.noteMoved(effect.anchor, start);
  it.placeStatement(effect.statement, delta);
  it.steps += effect.steps;
  // Indexed loops: this runs for every statement of a large file on every edit.
  appendAll(it.calls, effect.calls);
  if (effect.otherCalls.length) appendAll(it.otherCalls, effect.otherCalls);
  if (effect.warnings !== NO_WARNINGS) for (let m = 0; m < effect.warnings.length; m++) appendAll(it.warnings[m], effect.warnings[m]);
  it.replayStats.replayed++;
  it.cleanAfterReplay = true;
  return true;
}

/** Starts from a checkpoint's state instead of running the statements above it; returns the statement to go on from. */
export function resumeFrom(it: InterpreterCore, resume: Checkpoint, counting: boolean): number {
  restore(it, resume.state);
  it.replayStats.resumed = resume.at;
  if (counting) countRepeatedBefore(it, resume.at, resume.state.repeated);
  return resume.at;
}

/** The occurrence of a repeated statement node met now (its first is 0), counted. */
export function nextOccurrence(it: InterpreterCore, node: PhpNode): number {
  const occurrence = it.occurrences.get(node) ?? 0;
  it.occurrences.set(node, occurrence + 1);
  return occurrence;
}

/**
 * The replay of an included file's statements, when they may be replayed: the file runs at the top
 * level, for every method at once, for the first time in this evaluation (a file included twice
 * makes its records twice), and declares no constant. An application's main file includes files
 * of routes (its environment's after it): their statements were evaluated afresh on every edit
 * of the main file, and every record they made was new to the checks.
 */
export function includedReplay(it: InterpreterCore, parsed: ParsedFile, source: IncludedFile): ReplayCache | undefined {
  const replay = it.options.replay;
  if (!replay || it.options.mask !== ALL_METHODS || !isClean(it) || declaresAnyConstant(parsed)) return undefined;
  let runs = 0;
  for (const read of it.includes.read) if (read.path === source.path) runs++;
  return runs === 1 ? replay.forIncluded(source) : undefined;
}

/**
 * Replays, or runs and records, the `index`-th statement of an included file as the main loop does
 * a top-level one; false when it must simply run. Served only where its effect was recorded at
 * the same place in the file (an included file's places are not moved), and only for a statement
 * the file holds once.
 */
export function replayIncluded(it: InterpreterCore, replay: ReplayCache, parsed: ParsedFile, index: number, fixed: ReadonlySet<string>): boolean {
  const st = parsed.statements[index];
  const node = countsOccurrence(st) && !parsed.repeated.has(st.nodes[0]) ? st.nodes[0] : undefined;
  // Limits inside an included file are reported at its include: a replayed statement leaves that place as it is.
  const span = it.statementSpan;
  const effect = node && replay.get(node, 0, index);
  if (effect && effect.anchor.start === st.chunk.start && replayEffect(it, effect, st.chunk.start)) {
    it.statementSpan = span;
    return true;
  }
  // As in the main loop: what runs now may leave the state otherwise than a replay does.
  it.cleanAfterReplay = false;
  if (!node || !isClean(it) || !isReplayableStatement(node, fixed)) return false;
  const recorded = recordStatement(it, node, st.chunk.start);
  if (recorded) replay.set(node, 0, recorded, index);
  return true;
}
