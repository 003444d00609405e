import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { unknownNameMessage } from '../../../shared/analysis/diagnostics/checks/named';
import type { Severity } from '../../../shared/analysis/diagnostics/types';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import { SOURCE, spanToRange } from './convert';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** `unknown-route-name` for `Route::named()` calls in any PHP file (controllers, views, ...). */
export function usageDiagnostics(doc: TextDocument, usages: NamedUsage[], known: ReadonlySet<string>, severity: Severity): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const u of usages) {
    if (u.name === undefined || known.has(u.name)) continue;
    const span = u.nameSpan ?? u.argSpan ?? u.callSpan;
    const { message, suggestions } = unknownNameMessage(u.name, known);
    out.push({
      range: spanToRange(doc, u.argSpan ?? span),
      severity: SEVERITY[severity],
      code: 'unknown-route-name',
      source: SOURCE,
      message,
      data: {
        fixes: u.nameSpan
          ? suggestions.map((s, i) => ({ title: `Change to '${s}'`, preferred: i === 0, edits: [{ range: spanToRange(doc, u.nameSpan!), newText: s }] }))
          : [],
      },
    });
  }
  return out;
}

export function documentFor(uri: string, text: string): TextDocument {
  return TextDocument.create(uri, 'php', 0, text);
}
