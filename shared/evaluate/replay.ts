import { STORING_METHODS } from '../library/route-api';
import type { IncludedFile, PhpNode } from '../php/ast';
import type { ParsedFile } from '../php/parse';
import { assignmentOrigin, type AssignmentOrigin, type EntryOriginInfo } from '../library/records';
import type { StatementEffect } from './statement-effect';
import type { RecordedSite } from '../runtime/call-site';
import type { PlacedSite } from './places';
import { PositionMemo } from '../util/position-memo';
import { sameItems } from '../util/same-items';

/**
 * Top-level statements whose whole effect is a function of their own text: `Route::` declarations
 * with literal arguments, and `Route::prefix('literal', function () { ... })` holding only such
 * declarations. Run from the library's clean top-level state, such a statement only adds route
 * records, so an editor's next evaluation can replay those records instead of evaluating it.
 * Constants count as literals when their value is fixed for the whole evaluation (given by
 * config/constants.php or the settings, and not declared by the file with `const`: define()
 * cannot change a defined constant).
 */
/** The calls a replayable statement may make: those storing routes (see route-api.ts). */
const DECLARING = STORING_METHODS;

export function isReplayableStatement(node: PhpNode, fixed: ReadonlySet<string> = NO_CONSTANTS): boolean {
  return node.kind === 'expressionstatement' && (isReplayableCall(node.expression, 0, fixed) || isLiteralRouteWrite(node.expression, fixed));
}

/**
 * `$route[literal] = literal;`: from a clean top-level state, one entry written into `$route`,
 * which a replay writes again (see replayRouteWrite) while `$route` is an array where the key has
 * no entry of another declaration. Plain CodeIgniter files are thousands of these, and they were
 * evaluated again on every edit.
 */
export function isLiteralRouteWrite(e: PhpNode | null | undefined, fixed: ReadonlySet<string> = NO_CONSTANTS): boolean {
  if (e?.kind !== 'assign' || e.operator !== '=') return false;
  const left = e.left;
  return left?.kind === 'offsetlookup' && left.what?.kind === 'variable' && left.what.name === 'route' && !!left.offset && isLiteral(left.offset, 0, fixed) && isLiteral(e.right, 0, fixed);
}

const NO_CONSTANTS: ReadonlySet<string> = new Set();

/** Whether any statement of a parsed file holds a `const X = ...;` (the parser counts them). */
export function declaresAnyConstant(parsed: ParsedFile): boolean {
  return parsed.constantStatements > 0;
}

const MAX_NESTING = 8;

function isReplayableCall(e: PhpNode | null | undefined, depth: number, fixed: ReadonlySet<string>): boolean {
  if (!e || e.kind !== 'call' || depth > MAX_NESTING) return false;
  const what = e.what;
  if (what?.kind !== 'staticlookup' || what.offset?.kind !== 'identifier') return false;
  if (String(what.what?.name ?? '').replace(/^\\/, '').toLowerCase() !== 'route') return false;
  const method = String(what.offset.name).toLowerCase();
  const args: (PhpNode | null)[] = e.arguments ?? [];
  if (method === 'prefix') {
    return args.length === 2 && isLiteral(args[0], 0, fixed) && isPlainClosure(args[1], depth, fixed);
  }
  return DECLARING.has(method) && args.every((a) => isLiteral(a, 0, fixed));
}

/** `function () { Route::...; ... }`: no parameters, no captured variables, only declarations. */
function isPlainClosure(node: PhpNode | null, depth: number, fixed: ReadonlySet<string>): boolean {
  if (!node || node.kind !== 'closure' || node.byref) return false;
  if ((node.arguments ?? []).length || (node.uses ?? []).length) return false;
  const body: PhpNode[] | undefined = node.body?.children;
  return Array.isArray(body) && body.every((s) => s?.kind === 'expressionstatement' && isReplayableCall(s.expression, depth + 1, fixed));
}

function isLiteral(node: PhpNode | null | undefined, depth: number, fixed: ReadonlySet<string>): boolean {
  if (!node || depth > MAX_NESTING) return false;
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'nullkeyword':
      return true;
    case 'name':
      return typeof node.name === 'string' && fixed.has(node.name.startsWith('\\') ? node.name.slice(1) : node.name);
    case 'unary':
      return (node.type === '-' || node.type === '+') && node.what?.kind === 'number';
    case 'bin':
      return node.type === '.' && isLiteral(node.left, depth + 1, fixed) && isLiteral(node.right, depth + 1, fixed);
    case 'array':
      return (node.items ?? []).every(
        (item: PhpNode | null) =>
          item?.kind === 'entry' && !item.unpack && !item.byRef && (!item.key || isLiteral(item.key, depth + 1, fixed)) && isLiteral(item.value, depth + 1, fixed),
      );
    default:
      return false;
  }
}

/**
 * Effects of replayable statements from earlier evaluations of one document, keyed by the parsed
 * statement (the parser hands out the same node for the same text) and its occurrence: identical
 * statements in one file each have their own records.
 */
export class ReplayCache {
  private effects = new WeakMap<PhpNode, StatementEffect[]>();
  /** Each statement's list of effects as last found, by its position in the file (most statements stay where they were). */
  private readonly listAt = new PositionMemo<PhpNode, StatementEffect[] | undefined>();
  private readonly listOf = (node: PhpNode) => this.effects.get(node);
  /** Each assignment's last origin, anchored where it was made. */
  private origins = new WeakMap<PhpNode, AssignmentOrigin>();
  private replacements = new WeakMap<AssignmentOrigin, AssignmentOrigin>();
  /** The document's placed sites, shared by its evaluations (see Places). */
  readonly placed = new WeakMap<RecordedSite, PlacedSite>();
  /** The effects of the statements of the files the document includes, by path (each its own statements and positions), with the include they were made under. */
  private included = new Map<string, { source: IncludedFile; cache: ReplayCache }>();
  /** The constants taken as literals when the effects were recorded. */
  private fixed = '';
  /** The last set given, whose signature is `fixed` (an editor passes the same names every time). */
  private lastFixed: readonly string[] = [];

  /** Effects recorded with other constants taken as literals may hold other values: forgotten. */
  useConstants(fixed: ReadonlySet<string>): void {
    if (fixed.size === this.lastFixed.length && this.lastFixed.every((name) => fixed.has(name))) return;
    this.lastFixed = [...fixed];
    const signature = [...fixed].sort().join('\u0000');
    if (signature !== this.fixed) this.clear();
    this.fixed = signature;
  }

  /**
   * The origin an assignment made in an earlier evaluation, when it is the same assignment: same
   * condition, and the same node, whose spans are its own offsets from its statement's start
   * (nodeSpan), so the kept spans moved by what its statement moved. `$route[...] = ...`
   * statements are evaluated again on every edit, and the checks compare the routes of two
   * versions entry by entry, quickly when they are the same objects. A kept origin is anchored
   * where it was made and never changes: when `movable` (a top-level statement whose text the
   * file holds once) and its statement moved, it is kept all the same and the evaluation places
   * it (see places.ts); otherwise a keystroke gave every assignment below it a new origin, and
   * the checks judged everything below the keystroke again. Undefined when there is none: the
   * caller makes the origin and keeps it (keep()).
   */
  keptOrigin(node: PhpNode, base: number, movable: boolean, conditional: boolean, branches: readonly string[]): AssignmentOrigin | undefined {
    const kept = this.origins.get(node);
    if (!kept || (!movable && base !== kept.anchor!.start)) return undefined;
    return kept.conditional === conditional && sameItems(kept.branches, branches) ? kept : undefined;
  }

  /** The assignment's origin made of `parts`, anchored at `base`, kept for the next evaluation (see keptOrigin). */
  keep(node: PhpNode, parts: Omit<AssignmentOrigin, 'kind' | 'anchor'>, base: number): AssignmentOrigin {
    const anchored = assignmentOrigin({ ...parts, anchor: { start: base } });
    this.origins.set(node, anchored);
    return anchored;
  }

  /** `origin` replacing `replaced`: the object made last time for the same two, if any. */
  replacing(origin: AssignmentOrigin, replaced: EntryOriginInfo): AssignmentOrigin {
    const kept = this.replacements.get(origin);
    if (kept?.replaced === replaced) return kept;
    const made = assignmentOrigin({ ...origin, replaced });
    this.replacements.set(origin, made);
    return made;
  }

  /** The effect of `node`'s `occurrence`-th evaluation, the statement being the `position`-th of the file. */
  get(node: PhpNode, occurrence: number, position: number): StatementEffect | undefined {
    return this.listAt.get(position, node, this.listOf)?.[occurrence];
  }

  set(node: PhpNode, occurrence: number, effect: StatementEffect, position: number): void {
    let list = this.effects.get(node);
    if (!list) this.effects.set(node, (list = []));
    list[occurrence] = effect;
    this.listAt.set(position, node, list);
  }

  /**
   * The effects of the statements of an included file (see Interpreter.runIncluded). They hold
   * spans in that file, which name it as it was included (its text, and the include's place in
   * this document): kept while it is included the same way, forgotten otherwise.
   */
  forIncluded(source: IncludedFile): ReplayCache {
    const known = this.included.get(source.path);
    if (known && sameInclude(known.source, source)) return known.cache;
    if (!known && this.included.size >= MAX_INCLUDED_CACHES) this.included.delete(this.included.keys().next().value!);
    const cache = new ReplayCache();
    this.included.set(source.path, { source, cache });
    return cache;
  }

  /** The file has `length` statements now: what was found past them is forgotten. */
  endsAt(length: number): void {
    this.listAt.truncate(length);
  }

  clear(): void {
    this.listAt.clear();
    this.effects = new WeakMap();
    this.origins = new WeakMap();
    this.replacements = new WeakMap();
    this.included = new Map();
  }
}

/** Included files whose statements' effects a document keeps (an application's main file includes a few). */
const MAX_INCLUDED_CACHES = 16;

/** The same file (itself included, or this document) the include was in. */
function sameIncluder(a: IncludedFile | undefined, b: IncludedFile | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && sameInclude(a, b));
}

/** The same file included at the same place in the same way. */
function sameInclude(a: IncludedFile, b: IncludedFile): boolean {
  return a.path === b.path && a.text === b.text && a.environment === b.environment && a.includedAt.start === b.includedAt.start && a.includedAt.end === b.includedAt.end && sameIncluder(a.includedAt.file, b.includedAt.file);
}
