/**
 * Route targets under the cursor (`Route::get('x', 'blog/posts/show/$1')`, `$route['x'] = '...'`):
 * which controller file and method they dispatch to, for hover and go-to-definition.
 */

import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { ControllerResolution } from '../../router/controller-target';
import type { AppTree } from '../../router/app-tree';
import { ucfirst } from '../../router/ci-router';
import type { TargetRouting } from '../../router/hmvc/locate-target';
import { inheritsNoMethods, type ControllerCatalog } from '../../workspace/controller-catalog';
import { indexPhpFile } from '../../workspace/php-index';
import { LineIndex } from '../../php/line-index';
import { callsAround, callsWithTargetAt } from '../model/calls-at';
import { cursorContext } from '../model/cursor-context';
import { cursorPosition } from '../model/cursor-position';
import { isRouteMethod } from '../model/origins';
import { emptySegmentIn, resolveStaticTarget, translatesDashes, varies } from '../model/target-dispatch';
import { targetScope, type RouteFileRouting } from '../model/target-scope';
import { markdownCode as code, markdownText } from '../../util/escape';

export interface TargetAtCursor {
  /** The target expression (quotes included). */
  span: Span;
  target: string;
  segments: string[];
  /** The router's look-up; undefined when a segment decided per request picks the controller, or it is not known. */
  resolution?: ControllerResolution;
  /** When `resolution` is undefined: the segment (`$1`, `{default_controller}`) that picks the controller. */
  decidedBy?: string;
  /** When `resolution` is undefined and no segment decides it: why the look-up cannot tell. */
  undecided?: string;
}

/**
 * Resolves segments whose controller-choosing part is static. A varying segment there (`$1/show`,
 * `blog/$1` when `$1` may name a controller of blog) leaves it undecided; in the method or the
 * arguments it does not matter.
 */
export function resolveTargetSegments(segments: string[], routing: TargetRouting | AppTree, translateDashes = false): Pick<TargetAtCursor, 'resolution' | 'decidedBy' | 'undecided'> {
  return resolveStaticTarget(segments, routing, translateDashes);
}

/** The target string at the cursor: from the evaluation for Route calls, from the text for `$route[...] =`. */
function targetLiteralAt(text: string, evaluation: FileEvaluation, offset: number): { span: Span; target: string } | undefined {
  let found: { span: Span; targets: Set<unknown> } | undefined;
  const insideCall = callsAround(evaluation, offset).some((call) => offset < evaluation.places.site(call.site).span.end);
  for (const call of callsWithTargetAt(evaluation, offset)) {
    const span = evaluation.places.site(call.site).argSpans[1];
    if (!isRouteMethod(call.site.method) || !span) continue;
    found ??= { span, targets: new Set() };
    found.targets.add(call.args[1]);
  }
  if (found) {
    // A call run several times (a loop, a nested callable) must have one target to speak of.
    const [only] = found.targets;
    return found.targets.size === 1 && typeof only === 'string' ? { span: found.span, target: only } : undefined;
  }
  // The textual reading serves `$route[...] = '...'` lines; inside an evaluated call it has nothing to add
  // (and lexing a large file for every hover would be slow).
  if (insideCall) return undefined;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  if (!/\$route\b|Route\s*::/i.test(text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd))) return undefined;
  const ctx = cursorContext(text, offset, { openingQuote: true });
  const pos = ctx && cursorPosition(ctx);
  const s = ctx?.string;
  if (!ctx || !pos || !s || !s.terminated || !s.token.literal) return undefined;
  const textual = pos.kind === 'route-value' || (pos.kind === 'route-argument' && isRouteMethod(pos.method) && pos.argIndex === 1);
  const after = ctx.tokens[s.index + 1]?.text;
  if (!textual || (after !== undefined && ![',', ')', ';', '?>'].includes(after))) return undefined;
  return { span: { start: s.token.start, end: s.token.end }, target: s.token.text };
}

/** The target under the cursor with where it dispatches, or undefined off a target. */
export function targetAt(text: string, evaluation: FileEvaluation, offset: number, routing: TargetRouting | AppTree): TargetAtCursor | undefined {
  try {
    const literal = targetLiteralAt(text, evaluation, offset);
    if (!literal) return undefined;
    const segments = literal.target.split('/').filter((s) => s !== '');
    if (segments.length === 0) return { ...literal, segments, decidedBy: undefined, resolution: { found: false, reason: 'the target is empty', tried: [] } };
    const empty = emptySegmentIn(literal.target);
    if (empty !== undefined) return { ...literal, segments, undecided: empty };
    return { ...literal, segments, ...resolveTargetSegments(segments, routing, translatesDashes(evaluation)) };
  } catch {
    return undefined;
  }
}

/**
 * Markdown saying where the target under the cursor dispatches, or why nowhere. `routing`: the
 * host's router and the file's module (guessed from the controllers' folder without it).
 */
export function targetHover(text: string, evaluation: FileEvaluation, offset: number, catalog: ControllerCatalog, routing?: RouteFileRouting): { markdown: string; span: Span } | undefined {
  const at = targetAt(text, evaluation, offset, targetScope(catalog, routing).routing);
  if (!at) return undefined;
  const target = code(at.target);
  if (at.undecided !== undefined) return { span: at.span, markdown: `Where ${target} dispatches is not known here: ${markdownText(at.undecided)}.` };
  if (!at.resolution) {
    return { span: at.span, markdown: `The controller of ${target} depends on the request: ${code(at.decidedBy ?? '')} is filled in from the URI.` };
  }
  if (!at.resolution.found) return { span: at.span, markdown: `${target} dispatches to no controller: ${markdownText(at.resolution.reason)}. CodeIgniter answers 404.` };
  const t = at.resolution.target;
  const cls = ucfirst(t.class);
  const module = t.module ? ` (module ${code(t.module)})` : '';
  const call = code(`${cls}::${t.method}(${t.args.join(', ')})`);
  const methods = catalog.methods(t.file);
  let note = '';
  if (varies(t.method)) note = `\n\nThe method comes from the URI (${code(t.method)}).`;
  else if (methods?.hasRemap) note = `\n\n${code(`${cls}::_remap()`)} receives every call.`;
  else if (methods?.open !== undefined && !methods.names.has(t.method.toLowerCase())) note = `\n\nWhether it has ${code(`${t.method}()`)} is not known: ${markdownText(methods.open)}.`;
  else if (methods && !methods.names.has(t.method.toLowerCase())) {
    return { span: at.span, markdown: `${target} dispatches to ${code(t.file)}${module}, which has no public method ${code(`${t.method}()`)}: CodeIgniter answers 404.` };
  }
  return { span: at.span, markdown: `${target} dispatches to ${code(t.file)}${module} → ${call}${note}` };
}

/** Where a target's controller method is written: the controller file (relative to the application folder), its class and method, and the span. */
export interface ControllerPlace {
  file: string;
  /** `Posts::show()`, as CodeIgniter calls it (the method as the target writes it when it comes from the URI). */
  label: string;
  /** The method's name in the file, or the class's when the method is not found or comes from the URI; absent when the file cannot be read. */
  span?: Span;
  /** The line of `span` (zero-based). */
  line?: number;
  /** The file's controller has no such public method (nor `_remap()`): CodeIgniter answers 404. */
  missing?: boolean;
}

/** The place a resolved target dispatches to, its method looked up in the controller file's text (`read`: by path from the application folder). */
function placeOf(t: ControllerResolution & { found: true }, read: (file: string) => string | undefined): ControllerPlace {
  const target = t.target;
  const label = `${ucfirst(target.class)}::${target.method}()`;
  let source: string | undefined;
  try {
    source = read(target.file);
  } catch {
    source = undefined;
  }
  if (typeof source !== 'string') return { file: target.file, label };
  const classes = indexPhpFile(source).controllers;
  const cls = classes.find((c) => c.className.toLowerCase() === target.class.toLowerCase()) ?? classes[0];
  if (!cls) return { file: target.file, label };
  const method = varies(target.method) ? undefined : cls.methods.find((m) => m.name.toLowerCase() === target.method.toLowerCase());
  const span = method ? method.span : cls.classSpan;
  // A method or _remap() it inherits is not in this file: only a class that inherits none is judged.
  const missing = !method && !varies(target.method) && !classes.some((c) => c.hasRemap) && inheritsNoMethods(cls);
  return { file: target.file, label: `${cls.className}::${method?.name ?? target.method}()`, span, line: LineIndex.of(source).lineOf(span.start), ...(missing ? { missing } : {}) };
}

/**
 * Where a target (`blog/posts/show/$1`) dispatches, located as `routing`'s router does: the
 * controller file and method, or why it cannot be told (a segment decided per request chooses
 * the controller, or no controller file exists).
 */
export function controllerPlaceOf(target: string, routing: TargetRouting | AppTree, read: (file: string) => string | undefined, translateDashes = false): ControllerPlace | { none: string } {
  const segments = target.split('/').filter((s) => s !== '');
  if (segments.length === 0) return { none: 'the target is empty' };
  const empty = emptySegmentIn(target);
  if (empty !== undefined) return { none: empty };
  let r: Pick<TargetAtCursor, 'resolution' | 'decidedBy' | 'undecided'>;
  try {
    r = resolveTargetSegments(segments, routing, translateDashes);
  } catch {
    return { none: 'its controller cannot be told' };
  }
  if (r.undecided !== undefined) return { none: r.undecided };
  if (!r.resolution) return { none: `${r.decidedBy ?? 'a segment'} chooses the controller per request` };
  if (!r.resolution.found) return { none: r.resolution.reason };
  return placeOf(r.resolution, read);
}

/**
 * The controller file the target under the cursor dispatches to, with the span of the method's
 * name in it (or of the class name when the method is not found or comes from the URI).
 */
export function targetDefinition(
  text: string,
  evaluation: FileEvaluation,
  offset: number,
  routing: TargetRouting | AppTree,
  read: (file: string) => string | undefined,
): { file: string; span?: Span } | undefined {
  const at = targetAt(text, evaluation, offset, routing);
  if (!at?.resolution?.found) return undefined;
  const { file, span } = placeOf(at.resolution, read);
  return span ? { file, span } : { file };
}
