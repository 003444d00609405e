import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  InlayHintKind,
  InlayHintRequest,
  SymbolKind,
  type CodeLens,
  type Connection,
  type DocumentLink,
  type DocumentSymbol,
  type InlayHint,
  type SymbolInformation,
} from 'vscode-languageserver';
import { controllerLenses, controllerReach, declarationLenses } from '../../../shared/analysis/features/code-lens';
import { targetLinks } from '../../../shared/analysis/features/document-links';
import { backReferenceHints } from '../../../shared/analysis/features/inlay-hints';
import { workspaceSymbols } from '../../../shared/analysis/features/symbols';
import type { DispatchedMethod } from '../../../shared/analysis/features/route-search';
import { dispatchTarget, translatesDashes } from '../../../shared/analysis/model/target-dispatch';
import type { TargetRouting } from '../../../shared/router/hmvc/locate-target';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import { indexPhpFile } from '../../../shared/workspace/php-index';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import { environmentOf } from '../../../shared/app/environment';
import type { UriFilter } from '../../../shared/router/uri-filter';
import { spanToRange } from './convert';
import { routeInputs, type FeatureDeps } from './feature-deps';
import { targetRoutingFor } from './target-routing';
import type { OutlineCache } from './outline-cache';
import { iconLabelText, visibleControls } from '../../../shared/util/escape';
import { withThousands } from '../../../shared/util/without-icu';

type Deps = FeatureDeps;

/** The application folder that holds a controller file (…/controllers/… or …/modules/m/controllers/…). */
function controllerApp(file: string): { appDir: string; rel: string } | undefined {
  const m = /^(.*?)[\\/]((?:modules[\\/][^\\/]+[\\/])?controllers[\\/].+\.php)$/.exec(file);
  return m ? { appDir: m[1], rel: m[2].split(path.sep).join('/') } : undefined;
}

/**
 * Where a route file's targets dispatch, as its application's router locates them (a module's
 * routes file's relative to its module); made when first asked, undefined outside an application.
 */
function dispatcherOf(deps: Deps, file: string, evaluation: FileEvaluation): ((target: string) => DispatchedMethod | undefined) | undefined {
  const appDir = deps.service.applications.applicationDirOf(file);
  if (!appDir) return undefined;
  let routing: TargetRouting | undefined;
  const translate = translatesDashes(evaluation);
  return (target) => {
    routing ??= targetRoutingFor(deps, appDir, deps.service.routerOf(appDir, deps.settingsFor(file)).flavour, file);
    const d = dispatchTarget(target, routing, translate);
    return d && { class: d.target.class, methodMatches: d.methodMatches };
  };
}

/** The URI filter of a route file's application, under the environment the file was evaluated in. */
function uriFilterOf(deps: Deps, file: string, evaluation: FileEvaluation): UriFilter | undefined {
  const appDir = deps.service.applications.applicationDirOf(file);
  return appDir === undefined ? undefined : deps.service.application(appDir)?.uriFilter(environmentOf(evaluation));
}

/** Outline, workspace symbols, code lenses, inlay hints and document links. */
export function registerOutlineFeatures(connection: Connection, deps: Deps, outlines: OutlineCache): void {
  const routeDoc = (uri: string) => {
    const doc = deps.documents.get(uri);
    const file = doc && deps.uriToPath(uri);
    if (!doc || !file || !deps.index.isRouteFile(file)) return undefined;
    deps.ensureAnalysed(doc);
    const a = deps.service.last(uri);
    return a ? { doc, file, a } : undefined;
  };

  /** Open documents whose outline was cut at the limit, told once in the log per opening. */
  const truncatedOutlines = new Set<string>();
  deps.documents.onDidClose((e) => truncatedOutlines.delete(e.document.uri));
  connection.onDocumentSymbol((params): DocumentSymbol[] | null => {
    const r = routeDoc(params.textDocument.uri);
    if (!r) return null;
    const limit = deps.settingsFor(r.file).maxOutlineSymbols;
    const outline = outlines.get(r.a.text, r.a.evaluation, limit);
    if (outline.truncated && !truncatedOutlines.has(r.doc.uri)) {
      deps.log(`${r.file}: the outline lists its first ${withThousands(limit)} symbols, the whole top level first (ciRoutes.maxOutlineSymbols)`);
    }
    if (outline.truncated) truncatedOutlines.add(r.doc.uri);
    else truncatedOutlines.delete(r.doc.uri);
    return outline.symbols;
  });

  connection.onWorkspaceSymbol((params): SymbolInformation[] => {
    const inputs = new Map(routeInputs(deps).map((i) => [i.file, i] as const));
    const lines = new Map<string, LineIndex>();
    const files = [...inputs.values()].map((i) => ({ ...i, module: moduleOfRouteFile(i.file), dispatch: dispatcherOf(deps, i.file, i.evaluation), uriFilter: uriFilterOf(deps, i.file, i.evaluation) }));
    return workspaceSymbols(files, params.query).map((s) => {
      let li = lines.get(s.file);
      if (!li) {
        li = LineIndex.of(inputs.get(s.file)?.text ?? '');
        lines.set(s.file, li);
      }
      return {
        name: visibleControls(s.name),
        containerName: visibleControls(s.detail),
        kind: SymbolKind.Constant,
        location: { uri: pathToFileURL(s.file).toString(), range: { start: li.position(s.span.start), end: li.position(s.span.end) } },
      };
    });
  });

  connection.onCodeLens((params): CodeLens[] | null => {
    // `ciRoutes.codeLens.enabled`, the document's folder's: off, no lens (nor their work) anywhere.
    const lensFile = deps.uriToPath(params.textDocument.uri);
    if (lensFile && !deps.settingsFor(lensFile).codeLens) return null;
    const r = routeDoc(params.textDocument.uri);
    if (r) {
      return declarationLenses(r.a.text, r.a.evaluation).map((l) => ({
        range: spanToRange(r.doc, { start: l.span.start, end: l.span.start }),
        command: { title: iconLabelText(l.title), command: '' },
      }));
    }
    const doc = deps.documents.get(params.textDocument.uri);
    const file = doc && deps.uriToPath(doc.uri);
    const app = file ? controllerApp(file) : undefined;
    if (!doc || !app) return null;
    const inputs = routeInputs(deps, deps.index.routeFileInputs((f) => deps.service.applications.applicationDirOf(f) === app.appDir));
    if (inputs.length === 0) return null;
    // One evaluation at a time: the index evaluates again the files it let go, and lets them go again.
    const routeFiles = (function* () {
      for (const input of inputs) yield { evaluation: input.evaluation, module: moduleOfRouteFile(input.file) };
    })();
    const routing = targetRoutingFor(deps, app.appDir, deps.service.routerOf(app.appDir, deps.settingsFor(file!)).flavour, path.join(app.appDir, 'config', 'routes.php'));
    const lenses = controllerLenses(app.rel, indexPhpFile(doc.getText()), [], routing, controllerReach(routeFiles, routing));
    return lenses.map((l) => ({ range: spanToRange(doc, l.span), command: { title: iconLabelText(l.title), command: '' } }));
  });

  // Registered as a plain request so that the protocol edge checks its params (server.ts).
  connection.onRequest(InlayHintRequest.type, (params): InlayHint[] | null => {
    const r = routeDoc(params.textDocument.uri);
    if (!r || !deps.settingsFor(r.file).inlayHints) return null;
    return backReferenceHints(r.a.text, r.a.evaluation).map((h) => ({
      position: r.doc.positionAt(h.offset),
      label: visibleControls(h.label),
      kind: InlayHintKind.Parameter,
      paddingLeft: true,
    }));
  });

  connection.onDocumentLinks((params): DocumentLink[] | null => {
    const r = routeDoc(params.textDocument.uri);
    if (!r || !r.a.appDir) return null;
    const appDir = r.a.appDir;
    return targetLinks(r.a.text, r.a.evaluation, targetRoutingFor(deps, appDir, r.a.router.flavour, r.file)).map((l) => ({
      range: spanToRange(r.doc, l.span),
      target: pathToFileURL(path.join(appDir, l.file)).toString(),
      tooltip: visibleControls(l.tooltip),
    }));
  });
}
