import type { ParsedFile, ParsedStatement } from '../php/parse';
import type { FunctionDeclaration, InterpreterSnapshot } from './interpreter-state';
export type { FunctionDeclaration } from './interpreter-state';
import { sameItems } from '../util/same-items';

/**
 * The evaluation's state before one top-level statement of one version of a document. A later
 * version whose statements above that one are the same resumes there: an edit in the middle of
 * a large file runs only what follows it.
 */
export interface Checkpoint {
  /** Index, in the parsed file's statements, of the statement the state is before. */
  readonly at: number;
  /** The statements above it, as parsed then. */
  readonly statements: readonly ParsedStatement[];
  /** PHP declares top-level functions before the file runs: statements above may have used any of them. */
  readonly functions: readonly FunctionDeclaration[];
  /** Whether statements above called one (the state then holds spans inside its body, which must not have moved). */
  readonly calledFunction: boolean;
  /** Whether the file had a syntax error (the evaluator then skips statements php-parser only partly recovered). */
  readonly broken: boolean;
  readonly state: InterpreterSnapshot;
}

/**
 * Whether `parsed` starts with the checkpoint's statements, unmoved, and declares the same
 * functions at the same places. `knownSame`: how many leading statements the caller already
 * knows to be the checkpoint's (an editor compares each version with the previous one anyway).
 */
export function canResume(checkpoint: Checkpoint, parsed: ParsedFile, knownSame = 0): boolean {
  const now = parsed.statements;
  if (now.length < checkpoint.at || checkpoint.broken !== parsed.problems.length > 0) return false;
  for (let i = knownSame; i < checkpoint.at; i++) if (!sameStatement(checkpoint.statements[i], now[i])) return false;
  return sameFunctions(checkpoint.functions, topLevelFunctions(parsed), checkpoint.calledFunction);
}

/** The index of the first statement that differs between two parses of a document (the shorter length when one extends the other). */
export function firstDifference(before: readonly ParsedStatement[], now: readonly ParsedStatement[]): number {
  const n = Math.min(before.length, now.length);
  let i = 0;
  while (i < n && sameStatement(before[i], now[i])) i++;
  return i;
}

const functionsOf = new WeakMap<ParsedFile, readonly FunctionDeclaration[]>();
const NO_FUNCTIONS: readonly FunctionDeclaration[] = [];

/** Top-level function declarations, in order: PHP declares them before the file runs, wherever they are (once per parse: several steps of an evaluation ask). */
export function topLevelFunctions(parsed: ParsedFile): readonly FunctionDeclaration[] {
  if (parsed.functionStatements === 0) return NO_FUNCTIONS;
  let out = functionsOf.get(parsed);
  if (!out) {
    const found: FunctionDeclaration[] = [];
    for (const st of parsed.statements) for (const node of st.nodes) if (node.kind === 'function') found.push({ node, base: st.base });
    functionsOf.set(parsed, (out = found));
  }
  return out;
}

/** The same declarations (nodes are shared per statement text), and with `samePlaces` at the same places: spans made by calls to them are then unchanged. */
export function sameFunctions(a: readonly FunctionDeclaration[], b: readonly FunctionDeclaration[], samePlaces: boolean): boolean {
  return a.length === b.length && a.every((f, i) => f.node === b[i].node && (!samePlaces || f.base === b[i].base));
}

/** The same text parsed at the same place, with the same problems. */
export function sameStatement(a: ParsedStatement, b: ParsedStatement): boolean {
  // The parser hands back the same object for a statement an edit did not touch.
  if (a === b) return true;
  return (
    a.base === b.base &&
    a.chunk.kind === b.chunk.kind &&
    a.chunk.start === b.chunk.start &&
    a.chunk.end === b.chunk.end &&
    a.problems.length === b.problems.length &&
    a.tooDeep === b.tooDeep &&
    sameItems(a.nodes, b.nodes)
  );
}
