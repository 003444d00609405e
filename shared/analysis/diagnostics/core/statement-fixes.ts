import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import type { ParsedStatement } from '../../../php/parse';
import { spanInEvaluatedFile, type PhpNode, type Span } from '../../../php/ast';
import { LineIndex } from '../../../php/line-index';
import { keyToString } from '../../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import type { EntryOriginInfo, RecordedSite, RouteRecord } from '../../../library/records';
import { recordsBySite } from '../../model/records-by-site';
import { uniqueCalls } from '../../model/declarations';
import type { QuickFix, TextEdit } from './types';

/**
 * Quick fixes that move or delete whole top-level statements of a route file: "Move above line N"
 * for a route whose every URI earlier routes take, "Remove the earlier duplicate" for a route
 * declared twice. Each is offered only when the edit is known to change nothing else the file
 * does (see moveAbove() and removeEarlier()); otherwise there is no fix. One instance per
 * analysis; each finding costs about the statements and keys it touches, not the whole file.
 */

/** A top-level statement on lines of its own: what a fix moves or deletes. */
export interface WholeStatement {
  statement: ParsedStatement;
  /** From the start of its first line to past the newline ending its last (or to the end of the text). */
  lines: Span;
  /** Its first line, 1-based. */
  line: number;
}

/** Statements a removed duplicate's route may move past at most (it moves to the later declaration's place). */
const MAX_BETWEEN = 500;

export class StatementFixes {
  private lineIndex: LineIndex | undefined;
  private barriers: { library: number[]; assignments: number[] } | undefined;
  private replaced: Map<string, RouteRecord[]> | undefined;

  constructor(
    private readonly text: string,
    private readonly evaluation: FileEvaluation,
  ) {}

  private get lines(): LineIndex {
    return (this.lineIndex ??= LineIndex.of(this.text));
  }

  /** The top-level statement that holds an offset of this document. */
  statementAt(offset: number): ParsedStatement | undefined {
    // Searched in place: a list of the starts would be made again with every analysis, for a few look-ups.
    const statements = this.evaluation.parsed.statements;
    let lo = 0;
    let hi = statements.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (statements[mid].chunk.start <= offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const s = found >= 0 ? statements[found] : undefined;
    return s && offset < Math.max(this.endOf(s), s.chunk.start + 1) ? s : undefined;
  }

  /** Past the statement's `;` (the scanner's chunk may stop before it). */
  private endOf(statement: ParsedStatement): number {
    const semicolon = /^[ \t]*;/.exec(this.text.slice(statement.chunk.end, statement.chunk.end + 64));
    return statement.chunk.end + (semicolon ? semicolon[0].length : 0);
  }

  /** The statement starting at an offset, on lines of its own: only blanks before it on its first line, only blanks or a line comment after it on its last. */
  wholeStatementAt(offset: number): WholeStatement | undefined {
    const statement = this.statementAt(offset);
    if (!statement || statement.chunk.kind !== 'php' || statement.chunk.recovered !== undefined || statement.problems.length > 0) return undefined;
    const text = this.text;
    const start = statement.chunk.start;
    const end = this.endOf(statement);
    // Read outwards from the statement to the first thing that is not a blank: a step or two, however long the line.
    let before = start - 1;
    while (before >= 0 && (text[before] === ' ' || text[before] === '\t')) before--;
    if (before >= 0 && text[before] !== '\n') return undefined;
    let after = end;
    while (after < text.length && (text[after] === ' ' || text[after] === '\t' || text[after] === '\r')) after++;
    let newline = after < text.length && text[after] !== '\n' ? -1 : after;
    if (newline < 0) {
      // A trailing `// note` goes with its statement; a `?>` in it would end PHP there, a block comment may run on.
      if (!(text.startsWith('//', after) || (text[after] === '#' && text[after + 1] !== '['))) return undefined;
      const eol = text.indexOf('\n', after);
      const comment = text.slice(after, eol < 0 ? text.length : eol);
      if (comment.includes('?>')) return undefined;
      newline = eol < 0 ? text.length : eol;
    }
    const lines = { start: before + 1, end: newline < text.length ? newline + 1 : text.length };
    return { statement, lines, line: this.lines.lineOf(start) + 1 };
  }

  /**
   * The statement that is exactly one declaration: a `Route::` call on its own (`Route::get(…);`)
   * or an assignment of one `$route` entry (`$route['a'] = 'b';`), at the top level of this
   * document (not in an included file, a prefix() closure, a `$nested` callable or a condition),
   * whose arguments are literals: moved or deleted, it reads nothing another place could change
   * and does nothing else.
   */
  declarationStatement(origin: EntryOriginInfo): WholeStatement | undefined {
    let span: Span;
    if (origin.kind === 'route') {
      if (origin.conditional || origin.dynamic || origin.via.length > 0 || origin.nested) return undefined;
      span = this.evaluation.places.span(origin.site);
    } else if (origin.kind === 'assignment') {
      if (origin.conditional) return undefined;
      span = this.evaluation.places.entry(origin).span;
    } else return undefined;
    if (span.file) return undefined;
    const whole = this.wholeStatementAt(span.start);
    if (!whole) return undefined;
    const { chunk, nodes } = whole.statement;
    // The declaration is the statement: nothing but its `;` after it (which the call's span may hold already).
    const end = this.endOf(whole.statement);
    if (chunk.start !== span.start || !/^\s*;?$/.test(this.text.slice(span.end, end)) || this.text[end - 1] !== ';' || nodes.length !== 1) return undefined;
    const expression = nodes[0]?.kind === 'expressionstatement' ? (nodes[0].expression as PhpNode | undefined) : undefined;
    if (!expression) return undefined;
    if (origin.kind === 'route' ? !isLiteralRouteCall(expression) : !isLiteralRouteAssignment(expression)) return undefined;
    return whole;
  }

  /**
   * Offsets no declaration may move across: map() and reset() for the library's routes; also any
   * whole write of `$route` for its entries; an include, which may do either, for both.
   */
  private barriersOf(): { library: number[]; assignments: number[] } {
    if (this.barriers) return this.barriers;
    const library: number[] = [];
    for (const call of this.evaluation.otherCalls ?? []) {
      if (call.site.method === 'map' || call.site.method === 'reset') library.push(spanInEvaluatedFile(this.evaluation.places.span(call.site)).start);
    }
    for (const file of this.evaluation.included ?? []) library.push(spanInEvaluatedFile(file.includedAt).start);
    const assignments = [...library];
    // `$route = …`, `$route += …`, `$route[] = …`, `unset($route…)`, `array_…($route…)`: the order of the entries around it may change.
    for (const m of this.text.matchAll(/\$route\s*(?:\[\s*\]\s*)?(?:[.+]?=(?!=)|\?\?=)|unset\s*\(\s*\$route\b|array_\w+\s*\(\s*\$route\b/g)) assignments.push(m.index ?? 0);
    return (this.barriers = { library, assignments });
  }

  /** Whether a barrier of the declaration's kind lies in [from, to). */
  private crossesBarrier(kind: 'route' | 'assignment', from: number, to: number): boolean {
    for (const at of kind === 'route' ? this.barriersOf().library : this.barriersOf().assignments) if (at >= from && at < to) return true;
    return false;
  }

  /** Where a declaration is, in this document's offsets. */
  private offsetOf(origin: EntryOriginInfo): number {
    const places = this.evaluation.places;
    if (origin.kind === 'route') return origin.site.placed.span.file ? spanInEvaluatedFile(places.span(origin.site)).start : places.start(origin.site);
    return spanInEvaluatedFile(places.entry(origin).span).start;
  }

  /** The records the library replaced, by key (every method's; usually few). */
  private replacedByKey(): Map<string, RouteRecord[]> {
    if (this.replaced) return this.replaced;
    const byKey = new Map<string, RouteRecord[]>();
    for (const result of this.evaluation.methods) {
      for (const record of result?.library?.replaced ?? []) {
        const key = keyToString(record.key);
        const list = byKey.get(key);
        if (list) list.push(record);
        else byKey.set(key, [record]);
      }
    }
    return (this.replaced = byKey);
  }

  /**
   * Whether a declaration other than the one at `at` makes an entry of one of these keys under
   * some method: in the library's table (now, or replaced since), in `$route` (an entry, those it
   * replaced, one map() overwrote). Asked key by key: no pass over the whole file.
   */
  private declaredElsewhere(at: number, keys: Iterable<string>): boolean {
    const other = (e: EntryOriginInfo | undefined) => e !== undefined && (e.kind === 'literal' || this.offsetOf(e) !== at);
    for (const key of keys) {
      for (const record of this.replacedByKey().get(key) ?? []) if (other(record)) return true;
      for (const result of this.evaluation.methods) {
        const library = result?.library;
        const current = library?.routes.originOf(key);
        if (other(current) || (current && library.marks.anyOverwrote && other(library.marks.overwrote(current)))) return true;
        for (let e = result?.routes?.originOf(key) as EntryOriginInfo | undefined; e; e = e.kind === 'assignment' ? e.replaced : undefined) {
          if (other(e)) return true;
          if (e.kind === 'route' && library?.marks.anyOverwrote && other(library.marks.overwrote(e))) return true;
        }
      }
    }
    return false;
  }

  /**
   * The keys declared by the statements that start in (from, to), or undefined when they cannot
   * all be told: more than MAX_BETWEEN statements, or a statement that writes `$route` otherwise
   * than as a literal entry.
   */
  private keysBetween(from: number, to: number): string[] | undefined {
    const statements = this.evaluation.parsed.statements;
    const first = this.statementIndexAfter(from);
    let last = first;
    while (last < statements.length && statements[last].chunk.start < to) last++;
    if (last - first > MAX_BETWEEN) return undefined;
    const keys: string[] = [];
    // The library's routes: the records of each call in the window (inside prefix() closures too).
    const calls = uniqueCalls(this.evaluation);
    const sites = recordsBySite(this.evaluation);
    let lo = 0;
    let hi = calls.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.evaluation.places.start(calls[mid].site) <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < calls.length; i++) {
      const start = this.evaluation.places.start(calls[i].site);
      if (start >= to) break;
      for (const i of sites.own.get(start) ?? []) keys.push(keyToString(sites.recordAt(i).key));
    }
    // `$route` entries: literal assignments only.
    for (let i = first; i < last; i++) {
      const statement = statements[i];
      if (!/\$route\b/.test(this.text.slice(statement.chunk.start, this.endOf(statement)))) continue;
      const expression = statement.nodes.length === 1 && statement.nodes[0]?.kind === 'expressionstatement' ? (statement.nodes[0].expression as PhpNode) : undefined;
      if (!expression || !isLiteralRouteAssignment(expression)) return undefined;
      const offset = (expression.left as PhpNode).offset as PhpNode;
      if (offset.kind !== 'string' && offset.kind !== 'number') return undefined;
      keys.push(String(offset.value));
    }
    return keys;
  }

  /** The index of the first statement starting after an offset. */
  private statementIndexAfter(offset: number): number {
    const statements = this.evaluation.parsed.statements;
    let lo = 0;
    let hi = statements.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (statements[mid].chunk.start <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The methods a call made routes under. */
  private methodsOfCall(site: RecordedSite): Set<RequestMethod> {
    const sites = recordsBySite(this.evaluation);
    return new Set((sites.own.get(this.evaluation.places.start(site)) ?? []).map((i) => REQUEST_METHODS[sites.methodAt(i)]));
  }

  /** The keys a declaration makes under any method: an assignment's one (`key`), a call's every route's (one for any()/verbs, several for resources()). */
  private keysOf(origin: EntryOriginInfo, key: string): Set<string> {
    const keys = new Set<string>();
    if (origin.kind === 'assignment') return keys.add(key);
    if (origin.kind !== 'route') return keys;
    const sites = recordsBySite(this.evaluation);
    for (const i of sites.own.get(this.evaluation.places.start(origin.site)) ?? []) keys.add(keyToString(sites.recordAt(i).key));
    return keys;
  }

  /**
   * "Move above line N": the declaration `moved`, every route of which (`keys`) the routes
   * `takers` take first, moved above the top-level statement of the first of them. Offered when
   * the moved declaration is a statement of its own with literal arguments (declarationStatement),
   * every route it declares is one the finding is about, the takers are of its kind (library
   * routes, or `$route` entries) in this document, the move crosses no map()/reset() (nor a whole
   * write of `$route` for an entry), and nothing else in the file declares its keys: then the file
   * declares the same routes, the moved ones before those that took their URIs.
   */
  /**
   * Where the top-level statement of the first of `takers` in this document starts: a route they
   * take first is reached when declared above it. Cheap (no pass over the file's records), for
   * messages; moveAbove() decides whether a fix can move it there.
   */
  firstTakerStatement(moved: EntryOriginInfo, takers: readonly EntryOriginInfo[]): number | undefined {
    let first: number | undefined;
    for (const t of takers) {
      // Of another kind, map() decides the order, not the lines; in another file, no line here says it.
      if (t.kind !== moved.kind || t.kind === 'literal') return undefined;
      const span = t.kind === 'route' ? this.evaluation.places.span(t.site) : this.evaluation.places.entry(t).span;
      if (span.file) return undefined;
      const statement = this.statementAt(span.start);
      if (!statement) return undefined;
      if (first === undefined || statement.chunk.start < first) first = statement.chunk.start;
    }
    return first;
  }

  moveAbove(moved: EntryOriginInfo, keys: ReadonlySet<string>, takers: readonly EntryOriginInfo[]): QuickFix | undefined {
    if (takers.length === 0 || moved.kind === 'literal') return undefined;
    const whole = this.declarationStatement(moved);
    if (!whole) return undefined;
    const declared = this.keysOf(moved, moved.kind === 'route' ? keyToString(moved.key) : ([...keys][0] ?? ''));
    if (declared.size === 0 || [...declared].some((k) => !keys.has(k))) return undefined;
    let first: number | undefined;
    for (const t of takers) {
      // Of the same kind: map() decides where the library's routes go among `$route`'s entries.
      if (t.kind !== moved.kind) return undefined;
      const span = t.kind === 'route' ? this.evaluation.places.span(t.site) : this.evaluation.places.entry(t).span;
      if (span.file) return undefined;
      const statement = this.statementAt(span.start);
      if (!statement) return undefined;
      if (first === undefined || statement.chunk.start < first) first = statement.chunk.start;
    }
    if (first === undefined || first >= whole.statement.chunk.start) return undefined;
    const target = this.wholeStatementAt(first);
    if (!target || target.statement.chunk.start !== first) return undefined;
    if (this.crossesBarrier(moved.kind, first, whole.statement.chunk.start)) return undefined;
    if (this.declaredElsewhere(this.offsetOf(moved), declared)) return undefined;
    let removed = whole.lines;
    let inserted = this.text.slice(whole.lines.start, whole.lines.end);
    if (!inserted.endsWith('\n')) {
      // The file's last line: the newline before it goes with it.
      inserted += '\n';
      if (removed.start > 0) removed = { start: removed.start - 1, end: removed.end };
    }
    const edits: TextEdit[] = [
      { span: { start: target.lines.start, end: target.lines.start }, newText: inserted },
      { span: removed, newText: '' },
    ];
    return { title: `Move above line ${target.line}`, edits };
  }

  /**
   * "Remove the earlier duplicate": deletes the statement of `earlier`, which `later` replaces.
   * Offered when the earlier one is a statement of its own declaring that one route with literal
   * arguments (declarationStatement), `later` replaces it under every method it has, it names no
   * route `later` does not name too, no map()/reset() (or whole write of `$route`) lies between
   * them, and no route declared between them (at most MAX_BETWEEN statements) can match a URI
   * the route matches (`overlaps`): its place in the table then moves past none that could take
   * its URIs.
   */
  removeEarlier(earlier: EntryOriginInfo, later: EntryOriginInfo, key: string, replacedUnder: ReadonlySet<string>, overlaps: (a: string, b: string) => boolean): QuickFix | undefined {
    if (earlier.kind === 'literal' || later.kind !== earlier.kind) return undefined;
    const whole = this.declarationStatement(earlier);
    if (!whole) return undefined;
    const declared = this.keysOf(earlier, key);
    if (declared.size !== 1 || !declared.has(key)) return undefined;
    const methods =
      earlier.kind === 'route'
        ? this.methodsOfCall(earlier.site)
        : new Set(REQUEST_METHODS.filter((_, m) => this.evaluation.methods[m]));
    for (const m of methods) if (!replacedUnder.has(m)) return undefined;
    if (earlier.kind === 'route' && earlier.name !== undefined && (later.kind !== 'route' || later.name === undefined || keyToString(later.name) !== keyToString(earlier.name))) return undefined;
    const from = this.offsetOf(earlier);
    const to = this.offsetOf(later);
    if (to <= from || this.crossesBarrier(earlier.kind, from, to)) return undefined;
    const between = this.keysBetween(from, to);
    if (!between || between.some((k) => overlaps(k, key))) return undefined;
    return { title: 'Remove the earlier duplicate', edits: [{ span: whole.lines, newText: '' }] };
  }
}

/** A node made of literals only: strings without interpolation, numbers, booleans, null, arrays of them, `.` and unary signs. */
function isLiteral(node: PhpNode | null | undefined): boolean {
  if (!node || typeof node !== 'object') return false;
  switch (node.kind) {
    case 'string':
    case 'nowdoc':
    case 'number':
    case 'boolean':
    case 'nullkeyword':
      return true;
    case 'unary':
      return (node.type === '-' || node.type === '+') && isLiteral(node.what as PhpNode);
    case 'bin':
      return node.type === '.' && isLiteral(node.left as PhpNode) && isLiteral(node.right as PhpNode);
    case 'array':
      return Array.isArray(node.items) && (node.items as (PhpNode | null)[]).every((item) => item !== null && item.kind === 'entry' && !item.byRef && !item.unpack && (item.key == null || isLiteral(item.key as PhpNode)) && isLiteral(item.value as PhpNode));
    default:
      return false;
  }
}

/** `Route::x(literal, …)` (named arguments too). */
function isLiteralRouteCall(node: PhpNode): boolean {
  if (node.kind !== 'call') return false;
  const what = node.what as PhpNode | undefined;
  if (!what || what.kind !== 'staticlookup' || (what.what as PhpNode | undefined)?.kind !== 'name' || (what.offset as PhpNode | undefined)?.kind !== 'identifier') return false;
  const args = Array.isArray(node.arguments) ? (node.arguments as PhpNode[]) : [];
  return args.every((a) => (a?.kind === 'namedargument' ? isLiteral(a.value as PhpNode) : isLiteral(a)));
}

/** `$route[literal] = literal;`. */
function isLiteralRouteAssignment(node: PhpNode): boolean {
  if (node.kind !== 'assign' || node.operator !== '=') return false;
  const left = node.left as PhpNode | undefined;
  if (!left || left.kind !== 'offsetlookup' || !left.offset) return false;
  const variable = left.what as PhpNode | undefined;
  return variable?.kind === 'variable' && variable.name === 'route' && isLiteral(left.offset as PhpNode) && isLiteral(node.right as PhpNode);
}
