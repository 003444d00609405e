/** Minimal ANSI styling, off when output is not a terminal. */
export interface Styler {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export function style(enabled: boolean): Styler {
  const wrap = (code: number) => (s: string) => (enabled && s ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), yellow: wrap(33), cyan: wrap(36) };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(s: string): number {
  return s.replace(ANSI, '').length;
}

/** Renders rows as aligned columns under a header. */
export function renderTable(header: string[], rows: string[][], s: Styler): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i] - visibleLength(c))))
      .join('  ')
      .trimEnd();
  return [s.bold(line(header)), ...rows.map(line)].join('\n') + '\n';
}
