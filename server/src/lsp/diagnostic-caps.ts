import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Severity } from '../../../shared/analysis/diagnostics/core/types';
import { SOURCE, spanToRange } from './convert';
import type { Span } from '../../../shared/php/ast';
import { withThousands } from '../../../shared/util/without-icu';

/**
 * What one publication may hold. A view calling Route::named() with 100,000 unknown names made
 * 100,000 diagnostics (20 such views: 2 GB of JSON); no editor shows more than a few hundred.
 */
export const MAX_DIAGNOSTICS_PER_FILE = 1000;
/** Related places listed per diagnostic (a route covered by a thousand others lists a thousand). */
export const MAX_RELATED_PER_DIAGNOSTIC = 20;

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/**
 * The diagnostics to publish for `items` (findings, or anything that becomes one): at most
 * MAX_DIAGNOSTICS_PER_FILE, the most severe first (in their order otherwise), converted by
 * `convert` (only those kept: converting costs), each with its related places bounded, then an
 * entry saying how many more there are, at the first one left out.
 */
export function boundedDiagnostics<T>(doc: TextDocument, items: readonly T[], severityOf: (item: T) => Severity, spanOf: (item: T) => Span, convert: (kept: readonly T[]) => Diagnostic[]): Diagnostic[] {
  if (items.length <= MAX_DIAGNOSTICS_PER_FILE) return convert(items).map((d) => withBoundedRelated(d, doc.uri));
  // A stable sort: equal severities keep their order.
  const ranked = items.map((item, i) => ({ item, i })).sort((a, b) => RANK[severityOf(a.item)] - RANK[severityOf(b.item)] || a.i - b.i);
  const kept = ranked.slice(0, MAX_DIAGNOSTICS_PER_FILE).map((r) => r.item);
  const firstLeftOut = ranked[MAX_DIAGNOSTICS_PER_FILE].item;
  return [...convert(kept).map((d) => withBoundedRelated(d, doc.uri)), omittedDiagnostic(doc, items.length - MAX_DIAGNOSTICS_PER_FILE, spanOf(firstLeftOut))];
}

/** The entry published after the kept diagnostics (plain text). */
function omittedDiagnostic(doc: TextDocument, omitted: number, at: Span): Diagnostic {
  return {
    range: spanToRange(doc, { start: at.start, end: at.start }),
    severity: DiagnosticSeverity.Information,
    source: SOURCE,
    message: `${withThousands(omitted)} more problems not shown (ci-routes lists at most ${withThousands(MAX_DIAGNOSTICS_PER_FILE)} per file).`,
  };
}

/** `d` with at most MAX_RELATED_PER_DIAGNOSTIC related places, then one saying how many more (at the diagnostic itself). */
function withBoundedRelated(d: Diagnostic, uri: string): Diagnostic {
  const related = d.relatedInformation;
  if (!related || related.length <= MAX_RELATED_PER_DIAGNOSTIC) return d;
  const more = related.length - MAX_RELATED_PER_DIAGNOSTIC;
  return {
    ...d,
    relatedInformation: [...related.slice(0, MAX_RELATED_PER_DIAGNOSTIC), { location: { uri, range: d.range }, message: `${withThousands(more)} more places not shown` }],
  };
}
