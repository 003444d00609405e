import { LineIndex } from '../../shared/php/line-index';
import type { Finding } from '../../shared/analysis/diagnostics/core/types';

/**
 * One line per finding: `L12:5-12:24  code  METHODS  «source text at the range»`, 1-based
 * lines and columns, so a fixture reads at a glance next to its route file.
 */
export function formatFindings(text: string, findings: Finding[]): string {
  const lines = new LineIndex(text);
  return findings
    .map((f) => {
      const a = lines.position(f.span.start);
      const b = lines.position(f.span.end);
      const snippet = text.slice(f.span.start, f.span.end).replace(/\s+/g, ' ');
      const shown = snippet.length > 60 ? `${snippet.slice(0, 57)}...` : snippet;
      const methods = f.methods.length === 8 ? 'ALL' : f.methods.join(',') || '-';
      return `L${a.line + 1}:${a.character + 1}-${b.line + 1}:${b.character + 1}  ${f.code}  ${methods}  «${shown}»`;
    })
    .join('\n');
}
