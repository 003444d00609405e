import * as path from 'node:path';
import { analyzeRouteFile } from '../../../shared/analysis/diagnostics/analyze';
import { namesOf } from '../../../shared/analysis/diagnostics/checks/named';
import type { Finding, Severity } from '../../../shared/analysis/diagnostics/types';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import { controllerCatalogOnDisk } from '../host/controller-catalog-on-disk';
import type { RouteFileContext } from '../host/route-file';
import { style, type Styler } from './table';

/** A route file to check, with its evaluation. */
export interface CheckedFile {
  ctx: RouteFileContext;
  evaluation: FileEvaluation;
}

export interface CheckOptions {
  json: boolean;
  /** More warnings than this fail the run too (errors always do); undefined: warnings never do. */
  maxWarnings: number | undefined;
}

interface Output {
  out(text: string): void;
  isTTY: boolean;
}

/** A place as editors and CI annotations read it: 1-based line and column (UTF-16 code units). */
interface Place {
  file: string;
  line: number;
  column: number;
}

/**
 * `ci-routes check`: every diagnostic the language server shows for the route files, with their
 * default severities, in document order. Route names declared in any of the files count as
 * known in all of them (an HMVC module's routes file names routes the main one uses). Returns the
 * exit code: 1 when there is an error, or more warnings than allowed.
 */
export function check(files: readonly CheckedFile[], options: CheckOptions, io: Output): number {
  const knownNames = new Set<string>();
  for (const f of files) for (const name of namesOf(f.evaluation)) knownNames.add(name);
  const results = files.map((f) => ({
    ...f,
    lines: new LineIndex(f.ctx.text),
    findings: analyzeRouteFile(f.ctx.text, f.evaluation, { knownNames, controllers: f.ctx.appDir ? controllerCatalogOnDisk(f.ctx.appDir) : undefined }),
  }));
  const all = results.flatMap((r) => r.findings);
  const errors = all.filter((f) => f.severity === 'error').length;
  const warnings = all.filter((f) => f.severity === 'warning').length;
  const failed = errors > 0 || (options.maxWarnings !== undefined && warnings > options.maxWarnings);

  if (options.json) {
    const files = results.map((r) => ({
      file: r.ctx.file,
      dialect: r.ctx.dialect,
      findings: r.findings.map((f) => {
        const start = placeOf(r.ctx.file, r.lines, f.span.start);
        const end = placeOf(r.ctx.file, r.lines, f.span.end);
        return {
          code: f.code,
          severity: f.severity,
          message: f.message,
          line: start.line,
          column: start.column,
          endLine: end.line,
          endColumn: end.column,
          methods: f.methods,
          // Related places in another file carry its path only (their offsets are that file's).
          related: f.related.map((rel) => ({ ...(rel.file ? { file: rel.file } : placeOf(r.ctx.file, r.lines, rel.span.start)), message: rel.message })),
        };
      }),
    }));
    io.out(`${JSON.stringify({ files, errors, warnings, failed })}\n`);
    return failed ? 1 : 0;
  }

  const s = style(io.isTTY && !process.env.NO_COLOR);
  for (const r of results) {
    for (const f of r.findings) {
      io.out(`${where(placeOf(r.ctx.file, r.lines, f.span.start))}: ${severityLabel(f.severity, s)}: ${f.message} ${s.dim(`[${f.code}]`)}\n`);
      for (const rel of f.related) io.out(`  ${s.dim(`${rel.file ? shown(rel.file) : where(placeOf(r.ctx.file, r.lines, rel.span.start))}: ${rel.message}`)}\n`);
    }
  }
  io.out(`${summary(all, files.length, options.maxWarnings, s)}\n`);
  return failed ? 1 : 0;
}

function placeOf(file: string, lines: LineIndex, offset: number): Place {
  const p = lines.position(offset);
  return { file, line: p.line + 1, column: p.character + 1 };
}

/** A path as the user would type it from here. */
function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

function where(p: Place): string {
  return `${shown(p.file)}:${p.line}:${p.column}`;
}

function severityLabel(severity: Severity, s: Styler): string {
  if (severity === 'error') return s.red('error');
  if (severity === 'warning') return s.yellow('warning');
  return s.cyan(severity === 'information' ? 'info' : 'hint');
}

function summary(all: readonly Finding[], fileCount: number, maxWarnings: number | undefined, s: Styler): string {
  const files = `${fileCount} route file${fileCount === 1 ? '' : 's'}`;
  if (all.length === 0) return `no problems in ${files}`;
  const count = (sev: Severity, word: string) => {
    const n = all.filter((f) => f.severity === sev).length;
    return n ? [`${n} ${word}${n === 1 ? '' : 's'}`] : [];
  };
  const parts = [...count('error', 'error'), ...count('warning', 'warning'), ...count('information', 'info'), ...count('hint', 'hint')];
  const warnings = all.filter((f) => f.severity === 'warning').length;
  const over = maxWarnings !== undefined && warnings > maxWarnings ? ` (more than --max-warnings ${maxWarnings})` : '';
  return s.bold(`${all.length} problem${all.length === 1 ? '' : 's'} in ${files}: ${parts.join(', ')}${over}`);
}
