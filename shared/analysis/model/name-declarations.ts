import type { Span } from '../../php/ast';
import { analysisLimits, type FileEvaluation, type RecoveredError } from '../../evaluate/evaluate-file';
import { LineIndex } from '../../php/line-index';
import { PhpArray, keyToString, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import type { CallSite, LiteralOrigin, RouteRecord } from '../../library/records';
import { closestNames } from './names';
import { describeTarget } from './route-table';
import type { Places } from '../../evaluate/places';

/**
 * The route names a file declares, as hovers, completion, the workspace's names and the named()
 * check all read them.
 */

/** Where a route name is declared in a file: the `'as'` value when literal, else the call; the route's pattern, target and methods. */
export interface NameDeclaration {
  span: Span;
  site: CallSite;
  /** The URI pattern Route::named() returns. */
  from: string;
  /** The route's target, as the tables show it. */
  target: string;
  /** The target is a string the router dispatches (not a closure or a verb array). */
  dispatches: boolean;
  methods: RequestMethod[];
}

const declarationCache = new WeakMap<FileEvaluation, Map<string, NameDeclaration>>();

export function nameDeclarations(evaluation: FileEvaluation): Map<string, NameDeclaration> {
  const cached = declarationCache.get(evaluation);
  if (cached) return cached;
  const out = new Map<string, NameDeclaration>();
  const places = evaluation.places;
  // A record holds the site of the call that made it.
  const calls = new Map(evaluation.calls.map((c) => [c.site, c] as const));
  evaluation.methods.forEach((result, m) => {
    for (const record of result.library.created) {
      if (record.name === undefined) continue;
      const name = keyToString(record.name);
      const site = places.site(record.site);
      const existing = out.get(name);
      if (existing) {
        if (!existing.methods.includes(REQUEST_METHODS[m])) existing.methods.push(REQUEST_METHODS[m]);
        // A reused name takes the last declaration.
        if (site.span.start > existing.site.span.start) Object.assign(existing, { site, span: asSpan(site, calls.get(record.site)?.args, places), from: keyToString(record.key), target: describeTarget(record.to), dispatches: typeof record.to === 'string' });
        continue;
      }
      out.set(name, { span: asSpan(site, calls.get(record.site)?.args, places), site, from: keyToString(record.key), target: describeTarget(record.to), dispatches: typeof record.to === 'string', methods: [REQUEST_METHODS[m]] });
    }
  });
  declarationCache.set(evaluation, out);
  return out;
}

function asSpan(site: CallSite, args: Value[] | undefined, places: Places): Span {
  const options = args?.[2];
  if (options instanceof PhpArray) {
    const literal = options.originOf('as') as LiteralOrigin | undefined;
    if (literal?.kind === 'literal') return places.literal(literal).valueSpan;
  }
  return site.nameSpan;
}

/** Every route name the file defines under any request method. */
export function namesOf(evaluation: FileEvaluation): Set<string> {
  return namesOfRecords(namedRecordsOf(evaluation));
}

/**
 * Whether the evaluation declared every name the file declares: an analysis limit (the step
 * budget, nesting beyond the analysable, routes per method) stops it or skips a statement, and
 * the names it did not reach are unknown to the analysis though PHP would declare them. A name
 * missing from the workspace's is then no evidence of a mistake.
 */
export function namesAreComplete(evaluation: FileEvaluation): boolean {
  // A write of the router's state leaves what the file declares known.
  return analysisLimits(evaluation).every((p) => p.routingOnly);
}

/** The records that name a route, every method's in order: the same objects while an edit leaves the names alone. */
export function namedRecordsOf(evaluation: FileEvaluation): RouteRecord[] {
  const records: RouteRecord[] = [];
  for (const m of evaluation.methods) m.library.named.forEachNamed((r) => records.push(r));
  return records;
}

export function namesOfRecords(records: readonly RouteRecord[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < records.length; i++) names.add(keyToString(records[i].name!));
  return names;
}

/** A route name whose every declaration comes after an error where PHP stops (see namesPastErrors). */
export interface NamePastError {
  /** Where it is declared first, and the error before it. */
  declaredAt: Span;
  stop: RecoveredError;
}

/**
 * The names an editor's evaluation (which goes on past fatal errors: see EvaluateOptions.recover)
 * knows only from declarations PHP never reaches: each comes after an error that stops every
 * method it is declared under. Empty when the file has no such error.
 */
export function namesPastErrors(evaluation: FileEvaluation): Map<string, NamePastError> {
  const out = new Map<string, NamePastError>();
  const fatals = evaluation.fatals;
  if (fatals.length === 0) return out;
  const reached = new Set<string>();
  evaluation.methods.forEach((result, m) => {
    result.library.named.forEachNamed((r) => {
      const name = keyToString(r.name!);
      const span = evaluation.places.site(r.site).span;
      const stop = span.file ? undefined : fatals.find((f) => (f.mask & (1 << m)) !== 0 && f.statement.end <= span.start);
      if (!stop) reached.add(name);
      else if (!out.has(name) || out.get(name)!.declaredAt.start > span.start) out.set(name, { declaredAt: span, stop });
    });
  });
  for (const name of reached) out.delete(name);
  return out;
}

/** The message for a name used elsewhere that its route file declares only past an error (`where`: that file, shown). */
export function namePastErrorMessage(name: string, where: string, lines: { declared: number; stop: number }, stop: RecoveredError): string {
  return `'${name}' is declared in ${where} at line ${lines.declared}, after line ${lines.stop} where PHP stops (${stop.class}: ${stop.message}): no route has this name until that is fixed.`;
}

/**
 * Over route files (`names`: every name each declares, past errors or not): the message for each
 * name that every file declaring it declares only past an error (see namesPastErrors).
 */
export function pastErrorMessages(files: readonly { names: ReadonlySet<string>; pastErrors: ReadonlyMap<string, string> }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) {
    for (const [name, message] of f.pastErrors) {
      if (out.has(name)) continue;
      if (files.every((g) => !g.names.has(name) || g.pastErrors.has(name))) out.set(name, message);
    }
  }
  return out;
}

/** namesPastErrors() of one file as messages, its lines read from `text`, the file shown as `where`. */
export function pastErrorMessagesOf(evaluation: FileEvaluation, text: string, where: string): Map<string, string> {
  const late = namesPastErrors(evaluation);
  const out = new Map<string, string>();
  if (late.size === 0) return out;
  const lines = LineIndex.of(text);
  for (const [name, { declaredAt, stop }] of late) {
    out.set(name, namePastErrorMessage(name, where, { declared: lines.lineOf(declaredAt.start) + 1, stop: lines.lineOf(stop.statement.start) + 1 }, stop));
  }
  return out;
}

/** A message and suggestions for a name no route has. */
export function unknownNameMessage(name: string, known: Iterable<string>): { message: string; suggestions: string[] } {
  const suggestions = closestNames(name, known, Math.max(2, Math.floor(name.length / 3)), 3);
  const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : '';
  return { message: `No route is named '${name}' under any request method: Route::named('${name}') returns null here.${hint}`, suggestions };
}
