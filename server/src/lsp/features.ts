import { pathToFileURL } from 'node:url';
import { MarkupKind, type CompletionItem, type CompletionList, type Connection, type Hover, type Location } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { ErrorCodes, ResponseError, type SignatureHelp, type WorkspaceEdit } from 'vscode-languageserver';
import { markdownText, messageText } from '../../../shared/util/escape';

import { callsAround } from '../../../shared/analysis/model/calls-at';
import { completeNamed, completeRouteMethods } from '../../../shared/analysis/features/completion/completion';
import { completeMore, type MoreCompletionEntry } from '../../../shared/analysis/features/completion/completion-more';
import type { CompletionItems } from './completion-items';
import { hoverAt, namedRouteHover, type ControllerLink } from '../../../shared/analysis/features/hover';
import { nameReferences, prepareRename, renameName } from '../../../shared/analysis/features/rename';
import { signatureAt } from '../../../shared/analysis/features/signature-help';
import { controllerPlaceOf, targetDefinition, targetHover } from '../../../shared/analysis/features/targets';
import { translatesDashes } from '../../../shared/analysis/model/target-dispatch';
import type { TargetRouting } from '../../../shared/router/hmvc/locate-target';
import { targetRoutingFor } from './target-routing';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import { LineIndex } from '../../../shared/php/line-index';
import type { Span } from '../../../shared/php/ast';
import { readRegularFile } from '../host/safe-read';
import { nameDeclarations } from '../../../shared/analysis/model/name-declarations';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import { spanToRange } from './convert';
import { filterCompletions, MAX_COMPLETION_ITEMS } from './completion-filter';
import { referenceInputs, type FeatureDeps } from './feature-deps';
import type { RouteFileInput } from './workspace-index';
import type { NameChoicesCache } from './name-choices-cache';

/** Longest a rename's refusal may run (it quotes names and files, each whole). */
const REFUSAL_MAX = 2_000;


/** Largest file read from disk to place a location. */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/** A file's text: the open document's, else the disk's. */
function textOf(deps: Deps, file: string): string | undefined {
  const open = deps.documents.get(pathToFileURL(file).toString());
  if (open) return open.getText();
  try {
    return readRegularFile(file, MAX_TEXT_BYTES);
  } catch {
    return undefined;
  }
}

function locationIn(deps: Deps, file: string, span: Span, lines?: LineIndex): Location | undefined {
  const uri = pathToFileURL(file).toString();
  const open = deps.documents.get(uri);
  if (open) return { uri, range: spanToRange(open, span) };
  const text = lines ? undefined : textOf(deps, file);
  const index = lines ?? (text === undefined ? undefined : LineIndex.of(text));
  if (!index) return undefined;
  return { uri, range: { start: index.position(span.start), end: index.position(span.end) } };
}

type Deps = FeatureDeps;

/**
 * The lines of the route files open at another version than their evaluation's (one over
 * ciRoutes.maxFileSize keeps its last evaluation, of an older text): their places are given in
 * the text they were found in, not in a text they never came from.
 */
function olderTexts(deps: Deps, inputs: readonly RouteFileInput[]): (file: string) => LineIndex | undefined {
  const lines = new Map<string, LineIndex | undefined>();
  const byFile = new Map(inputs.map((r) => [r.file, r] as const));
  return (file) => {
    if (!lines.has(file)) {
      const open = deps.documents.get(pathToFileURL(file).toString());
      const input = open && byFile.get(file);
      lines.set(file, input && input.text !== open.getText() ? LineIndex.of(input.text) : undefined);
    }
    return lines.get(file);
  };
}

/** Where a target dispatches, as a hover's link: the controller method's file and line, or why none is known. */
function controllerLink(deps: Deps, appDir: string, routing: TargetRouting, target: string, translate: boolean): ControllerLink {
  const place = controllerPlaceOf(target, routing, (f) => textOf(deps, path.join(appDir, f)), translate);
  if ('none' in place) return place;
  const uri = pathToFileURL(path.join(appDir, place.file)).toString();
  return { label: place.label, file: place.file, uri: place.line === undefined ? uri : `${uri}#L${place.line + 1}`, ...(place.missing ? { missing: true } : {}) };
}

/** controllerLink() for a target declared in a route file of the workspace (read as that file's router reads it). */
function declaredTargetLink(deps: Deps, routeFile: string, target: string): ControllerLink | undefined {
  const appDir = deps.service.applications.applicationDirOf(routeFile);
  if (!appDir) return undefined;
  return controllerLink(deps, appDir, targetRoutingFor(deps, appDir, deps.service.routerOf(appDir, deps.settingsFor(routeFile)).flavour, routeFile), target, false);
}

const ROUTER_LABELS = { ci: "CodeIgniter's router", bonfire: "Bonfire's router (BF_Router)", mx: "Modular Extensions' router (MX_Router)" } as const;

/** The literal name of the `Route::named()` call under the cursor, in any PHP file. */
function namedAt(deps: Deps, doc: TextDocument, offset: number): string | undefined {
  const file = deps.uriToPath(doc.uri);
  if (!file) return undefined;
  if (deps.index.isRouteFile(file)) {
    const a = deps.service.last(doc.uri);
    const call = a && callsAround(a.evaluation, offset).find((c) => c.site.method === 'named');
    return typeof call?.args[0] === 'string' ? call.args[0] : undefined;
  }
  const usages: NamedUsage[] = deps.index.updatePhpFile(file, doc.getText());
  return usages.find((u) => offset >= u.callSpan.start && offset <= u.callSpan.end)?.name;
}

function declarationLocations(deps: Deps, name: string): Location[] {
  return deps.index.declarationsOf(name).map((d) => ({
    uri: pathToFileURL(d.file).toString(),
    range: { start: { line: d.line, character: d.character }, end: { line: d.endLine, character: d.endCharacter } },
  }));
}

/** The application folder of a document's file (of a controller, a view…), when it lies in a readable one. */
function appDirOf(deps: Deps, doc: TextDocument): string | undefined {
  const file = deps.uriToPath(doc.uri);
  const m = file ? /^(.*[\\/]application)[\\/]/.exec(file) : null;
  return m ? deps.service.application(m[1])?.appDir : undefined;
}

export function registerFeatures(connection: Connection, deps: Deps, nameChoices: NameChoicesCache, completionItems: CompletionItems): void {
  connection.onHover((params, token): Hover | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    const file = deps.uriToPath(doc.uri);
    // `ciRoutes.hover.enabled`, the document's folder's.
    if (file && !deps.settingsFor(file).hover) return null;
    deps.ensureAnalysed(doc);
    const offset = doc.offsetAt(params.position);
    const analysed = deps.service.last(doc.uri);
    if (file && deps.index.isRouteFile(file) && analysed) {
      const catalog = deps.service.controllersOf(analysed.appDir);
      const t = catalog && analysed.appDir && targetHover(analysed.text, analysed.evaluation, offset, catalog, targetRoutingFor(deps, analysed.appDir, analysed.router.flavour, file));
      // Which router looked the target up, and how it was chosen: the answer depends on it.
      const router = `\n\n---\n*Router: ${markdownText(`${ROUTER_LABELS[analysed.router.flavour]} (${analysed.router.source})`)}*`;
      if (t) return { contents: { kind: MarkupKind.Markdown, value: `${t.markdown}${router}` }, range: spanToRange(doc, t.span) };
      const routing = analysed.appDir ? targetRoutingFor(deps, analysed.appDir, analysed.router.flavour, file) : undefined;
      const appDir = analysed.appDir;
      const translate = translatesDashes(analysed.evaluation);
      const h = hoverAt(analysed.text, analysed.evaluation, offset, doc.uri, (target) => (appDir && routing ? controllerLink(deps, appDir, routing, target, translate) : undefined));
      if (h) return { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: spanToRange(doc, h.span) };
      return null;
    }
    const name = namedAt(deps, doc, offset);
    if (name === undefined) return null;
    return { contents: { kind: MarkupKind.Markdown, value: namedRouteHover(name, deps.index.declarationsOf(name), (d) => declaredTargetLink(deps, d.file, d.target)) } };
  });

  connection.onCompletion((params, token): CompletionItem[] | CompletionList | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    const file = deps.uriToPath(doc.uri);
    // `ciRoutes.completion.enabled`, the document's folder's.
    if (file && !deps.settingsFor(file).completion) return null;
    const text = doc.getText();
    const offset = doc.offsetAt(params.position);
    const analysed = deps.service.last(doc.uri);
    const entries: MoreCompletionEntry[] | undefined =
      completeNamed(text, offset, nameChoices.for(deps.index, analysed?.evaluation), MAX_COMPLETION_ITEMS + 1) ?? completeRouteMethods(text, offset) ?? completeMore(text, offset, deps.service.listing(analysed?.appDir ?? appDirOf(deps, doc)), file === undefined ? undefined : moduleOfRouteFile(file));
    if (!entries) return null;
    // Thousands of route names are filtered here, not shipped: the editor asks again as the user types.
    const { items: kept, complete } = filterCompletions(entries, (e) => text.slice(e.replace.start, Math.max(e.replace.start, offset)));
    const ranges = new Map<string, ReturnType<typeof spanToRange>>();
    const rangeOf = (span: Span) => {
      const key = `${span.start}:${span.end}`;
      let r = ranges.get(key);
      if (!r) ranges.set(key, (r = spanToRange(doc, span)));
      return r;
    };
    return completionItems.answer(kept, rangeOf, complete);
  });

  connection.onCompletionResolve((item) => completionItems.resolve(item));

  connection.onSignatureHelp((params): SignatureHelp | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc) return null;
    const sig = signatureAt(doc.getText(), doc.offsetAt(params.position));
    if (!sig) return null;
    return {
      signatures: [{ label: sig.label, documentation: { kind: MarkupKind.Markdown, value: sig.doc }, parameters: sig.parameters.map((p) => ({ label: p.labelOffsets, documentation: p.doc })) }],
      activeSignature: 0,
      activeParameter: sig.activeParameter ?? null,
    } as SignatureHelp;
  });

  connection.onReferences((params) => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc) return null;
    deps.ensureAnalysed(doc);
    const offset = doc.offsetAt(params.position);
    const name = prepareRename(doc.getText(), offset)?.name ?? namedAt(deps, doc, offset);
    if (name === undefined) return null;
    const inputs = referenceInputs(deps, [name]);
    const refs = nameReferences(name, inputs.routeFiles, inputs.usages);
    const spans = [...(params.context.includeDeclaration ? refs.declarations : []), ...refs.uses];
    const olderText = olderTexts(deps, inputs.routeFiles);
    return spans.flatMap((r) => {
      const lines = olderText(r.file);
      return (lines ? { uri: pathToFileURL(r.file).toString(), range: { start: lines.position(r.span.start), end: lines.position(r.span.end) } } : locationIn(deps, r.file, r.span)) ?? [];
    });
  });

  connection.onPrepareRename((params) => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc) return null;
    const at = prepareRename(doc.getText(), doc.offsetAt(params.position));
    return at ? { range: spanToRange(doc, at.span), placeholder: at.name } : null;
  });

  connection.onRenameRequest((params): WorkspaceEdit | ResponseError<void> | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc) return null;
    deps.ensureAnalysed(doc);
    const at = prepareRename(doc.getText(), doc.offsetAt(params.position));
    if (!at) return new ResponseError(ErrorCodes.InvalidRequest, 'Place the cursor on a route name (in an \'as\' option or in Route::named()) to rename it.');
    const inputs = referenceInputs(deps, [at.name, params.newName]);
    const result = renameName(at.name, params.newName, inputs.routeFiles, inputs.usages);
    // The editor shows the refusal as a message: the names and files it quotes cannot form a link.
    if ('error' in result) return new ResponseError(ErrorCodes.InvalidRequest, messageText(result.error, REFUSAL_MAX));
    const changes: Record<string, { range: ReturnType<typeof spanToRange>; newText: string }[]> = {};
    const olderText = olderTexts(deps, inputs.routeFiles);
    for (const e of result.edits) {
      // Its places are in a text the editor no longer has: edits there would land elsewhere.
      if (olderText(e.file)) return new ResponseError(ErrorCodes.InvalidRequest, messageText(`${e.file} is not analysed at its current text (over ciRoutes.maxFileSize): '${at.name}' cannot be renamed there.`, REFUSAL_MAX));
      const loc = locationIn(deps, e.file, e.span);
      if (!loc) return new ResponseError(ErrorCodes.InvalidRequest, messageText(`Cannot read ${e.file} to rename '${at.name}' there.`, REFUSAL_MAX));
      (changes[loc.uri] ??= []).push({ range: loc.range, newText: e.newText });
    }
    return { changes };
  });

  connection.onDefinition((params, token): Location[] | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    deps.ensureAnalysed(doc);
    const offset = doc.offsetAt(params.position);
    const name = namedAt(deps, doc, offset);
    if (name === undefined) {
      const analysed = deps.service.last(doc.uri);
      if (!analysed?.appDir) return null;
      const appDir = analysed.appDir;
      const routing = targetRoutingFor(deps, appDir, analysed.router.flavour, deps.uriToPath(doc.uri));
      const target = targetDefinition(analysed.text, analysed.evaluation, offset, routing, (f) => textOf(deps, path.join(appDir, f)));
      if (!target) return null;
      const file = path.join(appDir, target.file);
      const loc = locationIn(deps, file, target.span ?? { start: 0, end: 0 });
      return loc ? [loc] : null;
    }
    const locations = declarationLocations(deps, name);
    // The open route document's own declarations are the freshest.
    const analysed = deps.service.last(doc.uri);
    const own = analysed && nameDeclarations(analysed.evaluation).get(name);
    if (own) {
      // A declaration the document's includes ran lies in the included file.
      const included = own.span.file;
      const lines = included && LineIndex.of(included.text);
      const mine = included && lines ? { uri: pathToFileURL(included.path).toString(), range: { start: lines.position(own.span.start), end: lines.position(own.span.end) } } : { uri: doc.uri, range: spanToRange(doc, own.span) };
      return [mine, ...locations.filter((l) => l.uri !== mine.uri)];
    }
    return locations.length ? locations : null;
  });
}
