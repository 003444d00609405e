import type * as vscode from 'vscode';
import { markdownCode, markdownCodeCell, markdownText, markdownUrl } from '../../shared/util/escape';
import type { RouteTableResult } from '../../shared/protocol/route-table';

/** What `ciRoutes/routeTable` answers (the server's declaration, shared). */
export type RouteTable = RouteTableResult;

/** Every request method: a row that has them all says ANY. */
const ALL_METHODS = 8;

/**
 * The route table as a read-only Markdown document: one table per request method, rows linking to
 * declarations. Everything from the route file (keys, targets, names, errors, its path) is escaped
 * for Markdown: a key is shown as it is, and cannot split its row, link, or load an image.
 */
export function renderRouteTable(table: RouteTable, file: vscode.Uri, filter?: string): string {
  const f = filter?.toLowerCase();
  const out = [`# Routes of ${markdownText(file.path.split('/').slice(-3).join('/'))}`, '', `Dialect: ${markdownText(table.dialect)}${table.php ? ` · ${markdownText(table.php.replace(/^php/, 'PHP'))}` : ''}${f ? ` · filter: ${markdownCode(filter ?? '')}` : ''}`, ''];
  if (table.environmentLine) out.push(`Environment: ${markdownText(table.environmentLine.replace(/^environment /, ''))}`, '');
  for (const limit of table.limits ?? []) out.push(`> **Not the whole file:** ${markdownText(limit)}. Raising \`ciRoutes.maxSteps\` (or simplifying the code there) shows the rest.`, '');
  for (const m of table.methods) {
    const rows = m.rows.filter((r) => !r.reserved && (!f || `${r.uri} ${r.target} ${r.names.join(' ')}`.toLowerCase().includes(f)));
    out.push(`## ${markdownText(m.method)} (${rows.length})`, '');
    // The rows are then what the file declares without the failing statements (the analysis goes on past them).
    if (m.error) out.push(`> **PHP stops with** ${markdownText(m.error)}: CodeIgniter gets no route under ${markdownText(m.method)}. Below, what the file declares without the failing statement.`, '');
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
  const others = table.otherFiles ?? [];
  if (others.length) out.push('## Other route files of the application', '', 'In the order the router reads them: a module\'s routes file is read only for URIs whose first segment names the module, after the main routes, and its targets are relative to the module.', '');
  for (const other of others) {
    const rows = other.rows.filter((r) => !f || `${r.uri} ${r.target} ${r.names.join(' ')}`.toLowerCase().includes(f));
    const name = decodeURIComponentSafely(other.file.split('/').slice(-4).join('/'));
    out.push(`### ${markdownText(name)}${other.module !== undefined ? ` · module ${markdownCode(other.module)}` : ''} (${rows.length}${other.more ? ` of ${rows.length + other.more}` : ''})`, '');
    if (other.error) out.push(`> ${markdownText(other.error)}`, '');
    if (rows.length === 0) {
      out.push('*No routes.*', '');
      continue;
    }
    out.push('| Methods | URI | Target | Name | Declared |', '|---|---|---|---|---|');
    for (const r of rows) {
      const line = r.location ? r.location.range.start.line + 1 : undefined;
      const where = r.location?.uri ?? other.file;
      const link = line ? `[${markdownText(`line ${line}`)}](${markdownUrl(where)}#L${line})` : '';
      out.push(`| ${r.methods.length === ALL_METHODS ? 'ANY' : markdownText(r.methods.join(' '))} | ${markdownCodeCell(r.uri)} | ${r.target === '' ? '*(blocked)*' : markdownCodeCell(r.target)} | ${r.names.map(markdownText).join(', ')} | ${link} |`);
    }
    if (other.more) out.push('', `*${other.more} more: open the file for its own table.*`);
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
