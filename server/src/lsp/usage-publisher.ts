import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DIAGNOSTIC_CODES } from '../../../shared/analysis/diagnostics/core/types';
import { unknownNameUsages } from '../../../shared/analysis/diagnostics/name-usages';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import { severityUnder } from '../../../shared/workspace/settings';
import { readRegularFile } from '../host/safe-read';
import { toDiagnostic } from './convert';
import { boundedDiagnostics } from './diagnostic-caps';
import type { ServerContext } from './server-context';
import { documentFor } from './usage-diagnostics';
import { uriToPath } from './uris';

/** unknown-route-name in the PHP files that are not route files (views, controllers…). */
export class UsagePublisher {
  /** Files whose `Route::named()` diagnostics were published (so they can be cleared). */
  private readonly nonEmpty = new Set<string>();

  constructor(private readonly ctx: ServerContext) {}

  /** Whether the open document's usages were published for its current version. */
  current(doc: TextDocument): boolean {
    return this.ctx.publisher.publishedVersion(doc.uri) === doc.version;
  }

  /** Publishes a file's findings: from its open text, else from the index. */
  publish(file: string, openDoc?: TextDocument): void {
    const { index, states, settingsFor } = this.ctx;
    if (!states.indexReady) return;
    const uri = openDoc?.uri ?? pathToFileURL(file).toString();
    const usages = openDoc ? index.updatePhpFile(file, openDoc.getText()) : (index.usageFiles().find(([f]) => f === file)?.[1] ?? []);
    const level = severityUnder(settingsFor(file).diagnostics, { code: 'unknown-route-name', severity: DIAGNOSTIC_CODES['unknown-route-name'].severity });
    let diagnostics: Diagnostic[] = [];
    // Names a route file declares past an analysis limit are unknown: reporting them would be guesses.
    if (usages.length && level !== 'off' && index.namesComplete()) {
      let doc = openDoc;
      if (!doc) {
        try {
          doc = documentFor(uri, readRegularFile(file, settingsFor(file).maxFileSize));
        } catch {
          doc = undefined;
        }
      }
      const target = doc;
      const known = index.knownNames();
      const pastErrors = index.namesPastErrors();
      // Only the unknown names are made findings, and only those published (suggestions cost).
      const unknown = usages.filter((u) => u.name !== undefined && (!known.has(u.name) || pastErrors.has(u.name)));
      const spanOf = (u: NamedUsage) => u.argSpan ?? u.nameSpan ?? u.callSpan;
      if (target) diagnostics = boundedDiagnostics(target, unknown, () => level, spanOf, (kept) => unknownNameUsages(kept, known, pastErrors).map((f) => toDiagnostic(target, f, level, () => '')));
    }
    // Open documents always get a publication (clients wait for one); others only when it changes.
    if (diagnostics.length === 0 && !this.nonEmpty.has(uri) && !openDoc) return;
    if (diagnostics.length) this.nonEmpty.add(uri);
    else this.nonEmpty.delete(uri);
    this.ctx.publisher.publish(uri, openDoc?.version, diagnostics);
    if (openDoc) this.prime(openDoc, usages);
  }

  /** The first open view or controller calling `Route::named('…')`: its requests primed, once idle (see RequestPrimer). */
  private prime(doc: TextDocument, usages: readonly NamedUsage[]): void {
    const { primer, idle } = this.ctx;
    if (primer.phpDone) return;
    const arg = usages.find((u) => u.argSpan !== undefined && u.name !== undefined)?.argSpan;
    if (!arg) return;
    idle.start(doc.uri, primer.phpSteps(doc.uri, doc.positionAt(arg.start + 1)));
  }

  /** Publishes the findings again (only in files using one of `names`, when given). */
  republish(names?: ReadonlySet<string>): void {
    const { documents, index } = this.ctx;
    const open = new Map(documents.all().map((d) => [uriToPath(d.uri), d] as const));
    const uses = (usages: readonly { name?: string }[]) => !names || usages.some((u) => u.name !== undefined && names.has(u.name));
    const files = new Set(index.usageFiles().filter(([, usages]) => uses(usages)).map(([f]) => f));
    for (const f of open.keys()) if (f) files.add(f);
    if (!names) {
      for (const uri of this.nonEmpty) {
        const f = uriToPath(uri);
        if (f) files.add(f);
      }
    }
    for (const f of files) if (!index.isRouteFile(f)) this.publish(f, open.get(f));
  }
}
