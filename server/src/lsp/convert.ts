import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding, RelatedInfo, Severity } from '../../../shared/analysis/diagnostics/core/types';
import { LineIndex } from '../../../shared/php/line-index';
import type { Span } from '../../../shared/php/ast';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { visibleControls } from '../../../shared/util/escape';

export const SOURCE = 'ci-routes';

export function spanToRange(doc: TextDocument, span: Span): Range {
  return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
}

/** A range in the included file a span lies in (see Span.file). */
export function includedRange(span: Span): Range {
  const lines = includedLines(span.file!);
  return { start: lines.position(span.start), end: lines.position(span.end) };
}

/** A related place's range: in the analysed document, a file it included, or another file whose text the finding carries. */
function relatedRange(doc: TextDocument, r: RelatedInfo): Range {
  if (r.span.file) return includedRange(r.span);
  if (r.text === undefined) return spanToRange(doc, r.span);
  const lines = LineIndex.of(r.text);
  return { start: lines.position(r.span.start), end: lines.position(r.span.end) };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A finding as an LSP diagnostic; `data` keeps what code actions need. */
export function toDiagnostic(doc: TextDocument, f: Finding, severity: Severity, uriOf: (file?: string) => string): Diagnostic {
  const d: Diagnostic = {
    range: spanToRange(doc, f.span),
    severity: SEVERITY[severity],
    code: f.code,
    source: SOURCE,
    // Messages quote the route file: plain text, but no control or bidirectional character raw.
    message: visibleControls(f.methods.length && f.methods.length < 8 ? `${f.message} [${f.methods.join(', ')}]` : f.message),
    data: {
      fixes: f.fixes.map((fix) => ({
        title: visibleControls(fix.title),
        preferred: fix.preferred ?? false,
        edits: fix.edits.map((e) => ({ range: spanToRange(doc, e.span), newText: e.newText })),
        ...(fix.createMethod ? { createMethod: fix.createMethod } : {}),
      })),
      // Worked out when the editor asks for code actions on it (see code-actions.ts).
      ...(f.deferredFixes ? { deferred: true } : {}),
    },
  };
  if (f.related.length) {
    d.relatedInformation = f.related.map((r) => ({ location: { uri: uriOf(r.file ?? r.span.file?.path) || doc.uri, range: relatedRange(doc, r) }, message: visibleControls(r.message) }));
  }
  if (f.unnecessary) d.tags = [DiagnosticTag.Unnecessary];
  return d;
}
