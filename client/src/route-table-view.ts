import type * as vscode from 'vscode';
import { markdownCode, markdownCodeCell, markdownText, markdownUrl } from '../../shared/util/escape';

export interface RouteTable {
  dialect: string;
  /** Which ENVIRONMENT the route files run in and the environment's route file in force (older servers leave it out). */
  environmentLine?: string;
  /** Analysis limits the evaluation reached: the tables are then not all the file does. */
  limits?: string[];
  methods: { method: string; error?: string; rows: { uri: string; target: string; names: string[]; reserved: boolean; location?: { uri?: string; range: { start: { line: number } } } }[] }[];
}

/**
 * The route table as a read-only Markdown document: one table per request method, rows linking to
 * declarations. Everything from the route file (keys, targets, names, errors, its path) is escaped
 * for Markdown: a key is shown as it is, and cannot split its row, link, or load an image.
 */
export function renderRouteTable(table: RouteTable, file: vscode.Uri, filter?: string): string {
  const f = filter?.toLowerCase();
  const out = [`# Routes of ${markdownText(file.path.split('/').slice(-3).join('/'))}`, '', `Dialect: ${markdownText(table.dialect)}${f ? ` · filter: ${markdownCode(filter ?? '')}` : ''}`, ''];
  if (table.environmentLine) out.push(`Environment: ${markdownText(table.environmentLine.replace(/^environment /, ''))}`, '');
  for (const limit of table.limits ?? []) out.push(`> **Not the whole file:** ${markdownText(limit)}. Raising \`ciRoutes.maxSteps\` (or simplifying the code there) shows the rest.`, '');
  for (const m of table.methods) {
    const rows = m.rows.filter((r) => !r.reserved && (!f || `${r.uri} ${r.target} ${r.names.join(' ')}`.toLowerCase().includes(f)));
    out.push(`## ${markdownText(m.method)} (${rows.length})`, '');
    if (m.error) out.push(`> ${markdownText(m.error)}`, '');
    if (rows.length === 0) {
      out.push('*No routes.*', '');
      continue;
    }
    out.push('| # | URI | Target | Name | Declared |', '|---|---|---|---|---|');
    rows.forEach((r, i) => {
      const line = r.location ? r.location.range.start.line + 1 : undefined;
      // A route of an included file (the environment's route file, say) links to that file.
      const elsewhere = r.location?.uri !== undefined && r.location.uri !== file.toString() ? r.location.uri : undefined;
      const label = elsewhere ? `${elsewhere.split('/').slice(-2).join('/')} line ${line}` : `line ${line}`;
      const link = line ? `[${markdownText(decodeURIComponentSafely(label))}](${markdownUrl(elsewhere ?? file.toString())}#L${line})` : '';
      out.push(`| ${i + 1} | ${markdownCodeCell(r.uri)} | ${r.target === '' ? '*(blocked)*' : markdownCodeCell(r.target)} | ${r.names.map(markdownText).join(', ')} | ${link} |`);
    });
    out.push('');
  }
  return out.join('\n');
}

function decodeURIComponentSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
