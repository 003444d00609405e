import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type Connection, type TextDocuments, type WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../../shared/php/line-index';
import { createMethodEdit } from '../../../shared/workspace/controller-edits';
import { visibleControls } from '../../../shared/util/escape';
import { readRegularFile } from '../host/safe-read';
import { fixesIn, type DataCreateMethod } from './param-checks';
import type { RouteService } from './route-service';
import { spanToRange } from './convert';
import type { Diagnostic, Range } from 'vscode-languageserver';

/** Largest controller file a fix reads. */
const MAX_CONTROLLER_BYTES = 4 * 1024 * 1024;

export interface CodeActionDeps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  uriToPath(uri: string): string | undefined;
  log(message: string): void;
}

/**
 * The edit that creates a method in a controller file of the document's application: the file
 * is read when the fix is asked for (the open document's text first), so the edit lands in the
 * text the editor has. None when the file lies outside the application, cannot be read, or
 * already declares the method.
 */
function createMethodChange(deps: CodeActionDeps, documentUri: string, c: DataCreateMethod): WorkspaceEdit | undefined {
  const routeFile = deps.uriToPath(documentUri);
  const appDir = deps.service.last(documentUri)?.appDir ?? (routeFile ? deps.service.applications.applicationDirOf(routeFile) : undefined);
  if (!appDir) return undefined;
  const file = path.resolve(appDir, c.file);
  // Within the application root: `controllers/…`, `modules/…`, Bonfire's `../bonfire/…`, nothing further out.
  const fromRoot = path.relative(path.dirname(path.resolve(appDir)), file);
  if (fromRoot === '' || fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) return undefined;
  const open = deps.documents.all().find((d) => deps.uriToPath(d.uri) === file);
  let text: string | undefined;
  try {
    text = open ? open.getText() : readRegularFile(file, MAX_CONTROLLER_BYTES);
  } catch {
    text = undefined;
  }
  if (typeof text !== 'string') return undefined;
  const edit = createMethodEdit(text, c);
  if ('refused' in edit) {
    deps.log(`no fix to create ${c.method}() in ${file}: ${edit.refused}`);
    return undefined;
  }
  const at = open ? open.positionAt(edit.offset) : LineIndex.of(text).position(edit.offset);
  return { changes: { [open?.uri ?? pathToFileURL(file).toString()]: [{ range: { start: at, end: at }, newText: edit.newText }] } };
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/**
 * The fixes of a diagnostic published with deferred ones (see Finding.deferredFixes), worked out
 * now from the document's last analysis: none when the editor's text is no longer the text
 * analysed (the fixes would edit another version), or no finding of the analysis is the diagnostic.
 */
function deferredFixes(deps: CodeActionDeps, uri: string, d: Diagnostic): CodeAction[] {
  const doc = deps.documents.get(uri);
  const last = deps.service.last(uri);
  if (!doc || !last || last.text !== doc.getText()) return [];
  const found = last.findings.find(({ finding }) => finding.code === d.code && finding.deferredFixes && sameRange(spanToRange(doc, finding.span), d.range));
  if (!found) return [];
  return found.finding.deferredFixes!().map((fix) => ({
    title: visibleControls(fix.title),
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: fix.preferred ?? false,
    edit: { changes: { [uri]: fix.edits.map((e) => ({ range: spanToRange(doc, e.span), newText: e.newText })) } },
  }));
}

/** Quick fixes: those the server attached to its own diagnostics, as it wrote them, and those worked out when asked for. */
export function registerCodeActions(connection: Connection, deps: CodeActionDeps): void {
  connection.onCodeAction((params) => {
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      if (d.source !== 'ci-routes') continue;
      if (typeof d.data === 'object' && d.data !== null && (d.data as { deferred?: unknown }).deferred === true) actions.push(...deferredFixes(deps, params.textDocument.uri, d));
      // The fixes come back from the client: those not as the server wrote them are ignored.
      for (const fix of fixesIn(d.data)) {
        if (fix.createMethod) {
          const edit = createMethodChange(deps, params.textDocument.uri, fix.createMethod);
          if (!edit) continue;
          const { method, className } = fix.createMethod;
          actions.push({ title: visibleControls(`Create method ${method}() in ${className}`), kind: CodeActionKind.QuickFix, diagnostics: [d], edit });
          continue;
        }
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          isPreferred: fix.preferred,
          edit: { changes: { [params.textDocument.uri]: fix.edits } },
        });
      }
    }
    return actions;
  });
}
