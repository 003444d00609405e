import * as path from 'node:path';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { analyzeRouteFile } from '../../../shared/analysis/diagnostics/analyze';
import { namesAreComplete, namesOf, pastErrorMessages, pastErrorMessagesOf } from '../../../shared/analysis/model/name-declarations';
import { unknownNameUsages } from '../../../shared/analysis/diagnostics/name-usages';
import type { Finding, Severity } from '../../../shared/analysis/diagnostics/core/types';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import { describePhpVersion } from '../../../shared/app/php-version-choice';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import { severityUnder, type FolderSettings } from '../../../shared/workspace/settings';
import { routeKeysOf } from '../../../shared/analysis/model/route-file-keys';
import type { RouteFileRouting } from '../../../shared/analysis/model/target-scope';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import type { RouteFileContext } from '../host/route-file';
import { terminalJson, terminalText as t } from '../../../shared/util/escape';
import { style, type Styler } from './table';
import { withThousands } from '../../../shared/util/without-icu';
import { isMainRouteFile } from '../../../shared/app/layout';

/** A route file to check, with its evaluation. */
export interface CheckedFile {
  ctx: RouteFileContext;
  evaluation: FileEvaluation;
}

export interface CheckInput {
  /** The route files reported on. */
  routeFiles: readonly CheckedFile[];
  /** Other route files whose route names count as known (the modules' of the same application). */
  namesFrom: readonly { file: string; evaluation: FileEvaluation }[];
  /** PHP files (views, controllers…) whose `Route::named()` calls are checked against the known names. */
  phpFiles: readonly PhpFileUsages[];
  /** How many PHP files besides the route files were looked at (for the summary). */
  phpFilesSeen: number;
}

/** A PHP file and its `Route::named()` calls (see indexPhpFile). */
export interface PhpFileUsages {
  file: string;
  text: string;
  usages: readonly NamedUsage[];
}

export interface CheckOptions {
  json: boolean;
  /** Per code: 'off' or a severity replacing the default, as the editor's ciRoutes.diagnostics. */
  severities: FolderSettings['diagnostics'];
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

interface FileFindings {
  file: string;
  kind: 'route file' | 'PHP file';
  dialect?: string;
  lines: LineIndex;
  findings: Finding[];
}

/**
 * `ci-routes check`: what the language server shows for an application, with the severities of
 * its default settings or those given: every diagnostic of the route files given, then
 * `unknown-route-name` in the other PHP files. Route names declared in any route file count as
 * known everywhere. Returns the exit code: 1 when there is an error, or more warnings than allowed.
 */
export function check(input: CheckInput, options: CheckOptions, io: Output): number {
  // A route file stopped at an analysis limit leaves names unknown: unknown-route-name would be guesses.
  const partial = [...input.routeFiles.map((f) => ({ file: f.ctx.file, evaluation: f.evaluation })), ...input.namesFrom].filter((f) => !namesAreComplete(f.evaluation)).map((f) => f.file);
  const results = findingsOf(input, options.severities, partial.length === 0);
  const all = results.flatMap((r) => r.findings);
  const errors = all.filter((f) => f.severity === 'error').length;
  const warnings = all.filter((f) => f.severity === 'warning').length;
  const failed = errors > 0 || (options.maxWarnings !== undefined && warnings > options.maxWarnings);
  if (options.json) io.out(`${terminalJson({ files: results.map(fileJson), phpFilesSeen: input.phpFilesSeen, namesChecked: partial.length === 0, errors, warnings, failed })}\n`);
  else {
    const s = style(io.isTTY && !process.env.NO_COLOR);
    for (const r of results) for (const f of r.findings) io.out(findingText(r, f, s));
    for (const reason of uncheckedControllers(input)) io.out(`${s.yellow(reason)}\n`);
    if (partial.length) io.out(`${s.yellow(`Route::named() is not checked: ${partial.map(shown).join(', ')} ${partial.length === 1 ? 'is' : 'are'} not evaluated to the end (see the evaluation-limit finding; --max-steps raises the step budget)`)}\n`);
    io.out(`${summary(all, input.routeFiles.length, input.phpFilesSeen, options.maxWarnings, s)}\n`);
  }
  return failed ? 1 : 0;
}

/** Every route file given with its findings, then the PHP files that have some, by path. */
function findingsOf(input: CheckInput, severities: FolderSettings['diagnostics'], namesComplete: boolean): FileFindings[] {
  const knownNames = new Set<string>();
  for (const f of input.routeFiles) for (const name of namesOf(f.evaluation)) knownNames.add(name);
  for (const { evaluation } of input.namesFrom) for (const name of namesOf(evaluation)) knownNames.add(name);
  // Names declared only past an error where PHP stops: a usage elsewhere names that cause.
  const pastErrors = pastErrorMessages([
    ...input.routeFiles.map((f) => ({ names: namesOf(f.evaluation), pastErrors: pastErrorMessagesOf(f.evaluation, f.ctx.text, f.ctx.file) })),
    ...input.namesFrom.map((f) => ({ names: namesOf(f.evaluation), pastErrors: pastErrorMessagesOf(f.evaluation, f.evaluation.parsed.text, path.relative(process.cwd(), f.file) || f.file) })),
  ]);
  const nameChecked = (f: Finding) => namesComplete || f.code !== 'unknown-route-name';
  const moduleKeys = moduleRouteKeys([...input.routeFiles.map((f) => ({ file: f.ctx.file, evaluation: f.evaluation })), ...input.namesFrom]);
  // A module's routes file is read after the main routes: the main file's evaluation, when read.
  const evaluations = new Map<string, FileEvaluation>([...input.routeFiles.map((f) => [path.resolve(f.ctx.file), f.evaluation] as const), ...input.namesFrom.map((f) => [path.resolve(f.file), f.evaluation] as const)]);
  const mainRoutesOf = (f: CheckedFile) => {
    const main = f.ctx.appDir !== undefined && moduleOfRouteFile(f.ctx.file) !== undefined ? evaluations.get(path.resolve(f.ctx.appDir, 'config', 'routes.php')) : undefined;
    return main && { text: main.parsed.text, evaluation: main };
  };
  const out: FileFindings[] = input.routeFiles.map((f) => ({
    file: f.ctx.file,
    kind: 'route file',
    dialect: f.ctx.dialect,
    lines: LineIndex.of(f.ctx.text),
    findings: withSeverities(
      analyzeRouteFile(f.ctx.text, f.evaluation, {
        knownNames,
        controllers: checkedCatalog(f),
        routing: routingOf(f, moduleKeys),
        mainRoutes: mainRoutesOf(f),
        ...routingOverrideOf(f),
        codeIgniter: f.ctx.app?.codeIgniter(),
        uriCharsBeyond: f.ctx.app?.uriCharsBeyond(f.ctx.environment.name),
        php: describePhpVersion(f.ctx.php),
      }).filter(nameChecked),
      severities,
    ),
  }));
  if (!namesComplete) return out;
  for (const { file, text, usages } of [...input.phpFiles].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const findings = withSeverities(unknownNameUsages(usages, knownNames, pastErrors), severities);
    if (findings.length) out.push({ file, kind: 'PHP file', lines: LineIndex.of(text), findings });
  }
  return out;
}

/** The controllers a route file's targets are checked against, when its application's router lets them be. */
function checkedCatalog(f: CheckedFile) {
  const checked = f.ctx.app?.checkedControllers(f.ctx.router);
  return checked && 'catalog' in checked ? checked.catalog : undefined;
}

/** The application's own router's redefinition of how route files are read, for the checks. */
function routingOverrideOf(f: CheckedFile): { routingOverride?: { matching: boolean; reading: boolean } } {
  const override = f.ctx.app?.routingOverridden();
  return override ? { routingOverride: { matching: override.matching, reading: override.reading } } : {};
}

/** Why some applications' targets or module files are not checked, one line per application and reason. */
function uncheckedControllers(input: CheckInput): string[] {
  const out = new Map<string, string>();
  for (const f of input.routeFiles) {
    if (f.ctx.appDir === undefined) continue;
    const app = path.relative(process.cwd(), f.ctx.appDir) || 'this folder';
    const checked = f.ctx.app?.checkedControllers(f.ctx.router);
    if (checked && 'unchecked' in checked) out.set(`${f.ctx.appDir}\0targets`, `Targets are not checked for missing controllers in ${app}: ${checked.unchecked}.`);
    const override = f.ctx.app?.routingOverridden();
    if (override?.reading && moduleOfRouteFile(f.ctx.file) !== undefined) out.set(`${f.ctx.appDir}\0modules`, `Module route files are not checked for unreachable keys and missing controllers in ${app}: ${override.why}.`);
    else if (override?.matching && moduleOfRouteFile(f.ctx.file) === undefined) out.set(`${f.ctx.appDir}\0matching`, `The main routes' keys are not checked for reachability in ${app}: ${override.why}.`);
  }
  return [...out.values()];
}

/** The route keys of each module routes file read (by its path), for main-file targets into those modules. */
function moduleRouteKeys(files: readonly { file: string; evaluation: FileEvaluation }[]): Map<string, string[] | undefined> {
  const out = new Map<string, string[] | undefined>();
  for (const { file, evaluation } of files) if (moduleOfRouteFile(file) !== undefined) out.set(path.resolve(file), routeKeysOf(evaluation));
  return out;
}

/**
 * How the application's router reads a route file's targets, as the language server has it
 * (RouteService.routingOf): its flavour, the module of a module routes file, and for the main file
 * the keys of the module routes files read, except under Bonfire (whose module tables hold the
 * main file's routes too: a target into a module with a routes file is left undecided there).
 */
function routingOf(f: CheckedFile, moduleKeys: ReadonlyMap<string, string[] | undefined>): RouteFileRouting {
  const module = moduleOfRouteFile(f.ctx.file);
  const common = { flavour: f.ctx.router, php: f.ctx.php.version };
  if (module !== undefined) return { ...common, module };
  const appDir = f.ctx.appDir;
  const main = { ...common, ...(isMainRouteFile(f.ctx.file, appDir) ? { mainFile: true } : {}) };
  if (appDir === undefined || f.ctx.router === 'bonfire') return main;
  return { ...main, moduleRouteKeys: (name) => moduleKeys.get(path.resolve(appDir, 'modules', name, 'config', 'routes.php')) };
}

function fileJson(r: FileFindings) {
  return {
    file: r.file,
    kind: r.kind,
    ...(r.dialect ? { dialect: r.dialect } : {}),
    findings: r.findings.map((f) => {
      const start = placeOf(r.file, r.lines, f.span.start);
      const end = placeOf(r.file, r.lines, f.span.end);
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
        related: f.related.map((rel) => ({ ...(rel.span.file ? placeOf(rel.span.file.path, includedLines(rel.span.file), rel.span.start) : rel.file ? { file: rel.file } : placeOf(r.file, r.lines, rel.span.start)), message: rel.message })),
      };
    }),
  };
}

/** `file:line:column: severity: message [code]`, then a line per related place. */
function findingText(r: FileFindings, f: Finding, s: Styler): string {
  let text = `${where(placeOf(r.file, r.lines, f.span.start))}: ${severityLabel(f.severity, s)}: ${t(f.message)} ${s.dim(`[${f.code}]`)}\n`;
  for (const rel of f.related) text += `  ${s.dim(`${rel.span.file ? where(placeOf(rel.span.file.path, includedLines(rel.span.file), rel.span.start)) : rel.file ? shown(rel.file) : where(placeOf(r.file, r.lines, rel.span.start))}: ${t(rel.message)}`)}\n`;
  return text;
}

function withSeverities(findings: readonly Finding[], severities: FolderSettings['diagnostics']): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const severity = severityUnder(severities, f);
    if (severity !== 'off') out.push(severity === f.severity ? f : { ...f, severity });
  }
  return out;
}

function placeOf(file: string, lines: LineIndex, offset: number): Place {
  const p = lines.position(offset);
  return { file, line: p.line + 1, column: p.character + 1 };
}

/** A path as the user would type it from here, safe for a terminal. */
function shown(file: string): string {
  return t(path.relative(process.cwd(), file) || file);
}

function where(p: Place): string {
  return `${shown(p.file)}:${p.line}:${p.column}`;
}

function severityLabel(severity: Severity, s: Styler): string {
  if (severity === 'error') return s.red('error');
  if (severity === 'warning') return s.yellow('warning');
  return s.cyan(severity === 'information' ? 'info' : 'hint');
}

const plural = (n: number, word: string) => `${withThousands(n)} ${word}${n === 1 ? '' : 's'}`;

function summary(all: readonly Finding[], routeFiles: number, phpFiles: number, maxWarnings: number | undefined, s: Styler): string {
  const where = `${plural(routeFiles, 'route file')}${phpFiles ? ` and ${plural(phpFiles, 'other PHP file')}` : ''}`;
  if (all.length === 0) return `no problems in ${where}`;
  const count = (sev: Severity, word: string) => {
    const n = all.filter((f) => f.severity === sev).length;
    return n ? [plural(n, word)] : [];
  };
  const parts = [...count('error', 'error'), ...count('warning', 'warning'), ...count('information', 'info'), ...count('hint', 'hint')];
  const warnings = all.filter((f) => f.severity === 'warning').length;
  const over = maxWarnings !== undefined && warnings > maxWarnings ? ` (more than --max-warnings ${maxWarnings})` : '';
  return s.bold(`${plural(all.length, 'problem')} in ${where}: ${parts.join(', ')}${over}`);
}
