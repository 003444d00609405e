import * as path from 'node:path';
import { formatPhpVersion, parsePhpVersion } from '../../../shared/runtime/php-version';
import { describePhpVersion } from '../../../shared/app/php-version-choice';
import { parseArgs } from 'node:util';
import { mergedRows, routeRows, undecidedConditions, unknownRoutes, type MergedRow } from '../../../shared/analysis/model/route-table';
import { analysisLimits, evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import type { Span } from '../../../shared/php/ast';
import { REQUEST_METHODS, methodIndex, type RequestMethod } from '../../../shared/runtime/methods';
import { outcomeToJson } from '../../../shared/evaluate/outcome-json';
import type { Dialect } from '../../../shared/library/route-library';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import { setReadRoots } from '../host/read-fence';
import type { Applications } from '../../../shared/app/application';
import { describeEnvironment, environmentFileRun } from '../../../shared/app/environment';
import { diskApplications, loadRouteFile, parseDefine, type RouteFileContext } from '../host/route-file';
import { withApplications } from './app-files';
import { check } from './check';
import { declaredAt as declaredAtIn, shownPath } from './declared-at';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { match } from './match';
import { DEFAULT_SETTINGS, DIAGNOSTIC_LEVELS, isDiagnosticCode, isDiagnosticLevel, type FolderSettings } from '../../../shared/workspace/settings';
import { terminalJson, terminalText as t } from '../../../shared/util/escape';
import { renderTable, style, type Styler } from './table';

const USAGE = `ci-routes: CodeIgniter 3 route files evaluated exactly as the Route library does, without PHP.

Usage:
  ci-routes list  <routes.php> [--method M] [--json] [options]
  ci-routes eval  <routes.php> --method M --json [options]
  ci-routes match <routes.php> --method M [--router R] [--json] [--] <uri>... [options]
  ci-routes check <routes.php>... [--severity CODE=LEVEL]... [--max-warnings N] [--route-files-only] [--follow-symlinks] [--json] [options]

Commands:
  list    the routes the file produces: method, URI pattern, target, name, where declared
  eval    the final $route, named routes, error and warnings for one request method, as JSON
  match   how the application's router routes each URI: the main route, the module route,
          the controller it dispatches to
  check   the language server's diagnostics for the route files, and unknown route names in
          the application's other PHP files; exits 1 on an error, or on more warnings than
          --max-warnings allows

Options:
  --method M            GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS or CLI (no request method)
  --dialect D           spec (default) or bonfire; detected from the app's Route.php when present
  --router R            ci, bonfire or mx: the router that routes requests (match); detected from
                        Bonfire's bonfire/core/BF_Router.php or Modular Extensions' third_party/MX/,
                        else CodeIgniter's own
  --define NAME=VALUE   define a constant before the file runs (repeatable)
  --php-version V       the PHP version whose semantics apply where versions differ (7.4, 8.2…);
                        default: the lowest composer.json's require.php allows, else 8.2
  --max-steps N         evaluation step budget (default 100,000, as the editor's ciRoutes.maxSteps;
                        a 10,000-declaration file takes about 62,000)
  --severity CODE=LEVEL with check: off, error, warning, information or hint for a diagnostic
                        code, as the editor's ciRoutes.diagnostics setting (repeatable)
  --max-warnings N      with check: fail when there are more than N warnings
  --route-files-only    with check: only the route files given (no other file is read)
  --follow-symlinks     with check: also follow symlinks that lead out of the application folder
                        (by default its walk stays inside it)
  --json                machine-readable output
  --help                this text

The application folder (for config/constants.php and controllers) is the one holding config/routes.php.
`;

export class UsageError extends Error {}

interface Io {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
}

function parseMethod(value: string | undefined, required: boolean): RequestMethod | undefined {
  if (value === undefined) {
    if (required) throw new UsageError('--method is required (GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS or CLI)');
    return undefined;
  }
  const i = methodIndex(value);
  if (i === undefined) throw new UsageError(`unknown request method '${value}' (expected one of ${REQUEST_METHODS.join(', ')})`);
  return REQUEST_METHODS[i];
}

function parseMaxSteps(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--max-steps expects a positive whole number, got '${value}'`);
  return Number(value);
}

function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--max-warnings expects a whole number, got '${value}'`);
  return Number(value);
}

/** `--severity CODE=LEVEL`, repeatable, as the editor's ciRoutes.diagnostics setting. */
function parseSeverities(specs: string[]): FolderSettings['diagnostics'] {
  const out: FolderSettings['diagnostics'] = {};
  for (const spec of specs) {
    const [code, level, ...more] = spec.split('=');
    if (level === undefined || more.length) throw new UsageError(`--severity expects CODE=LEVEL, got '${spec}'`);
    if (!isDiagnosticCode(code)) throw new UsageError(`--severity: unknown diagnostic code '${code}'`);
    if (!isDiagnosticLevel(level)) throw new UsageError(`--severity: '${level}' is not one of ${DIAGNOSTIC_LEVELS.join(', ')}`);
    out[code] = level;
  }
  return out;
}

function parseDialect(value: string | undefined): Dialect | undefined {
  if (value === undefined) return undefined;
  if (value !== 'spec' && value !== 'bonfire') throw new UsageError(`unknown dialect '${value}' (expected spec or bonfire)`);
  return value;
}

function parseRouter(value: string | undefined): RouterFlavour | undefined {
  if (value === undefined) return undefined;
  if (value !== 'ci' && value !== 'bonfire' && value !== 'mx') throw new UsageError(`unknown router '${value}' (expected ci, bonfire or mx)`);
  return value;
}

function loadIn(applications: Applications, file: string | undefined, dialect: Dialect | undefined, defines: string[], router?: RouterFlavour, phpVersion?: string): RouteFileContext {
  if (!file) throw new UsageError('missing the routes file argument');
  let parsedDefines;
  try {
    parsedDefines = defines.map(parseDefine);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  try {
    return loadRouteFile(file, { dialect, router, defines: parsedDefines, phpVersion }, applications);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') throw new UsageError(`cannot read '${file}': no such file`);
    if (err.code === 'EISDIR') throw new UsageError(`cannot read '${file}': it is a directory`);
    if (err.code === 'EACCES') throw new UsageError(`cannot read '${file}': permission denied`);
    if (err.code === 'EOUTSIDE') throw new UsageError(`cannot read '${file}': it leads out of its project folder (symlinks resolved); --follow-symlinks reads it`);
    throw new UsageError(`cannot read '${file}': ${err.message}`);
  }
}

/** --php-version, checked: `7.4`, `8`, `8.2.10`. */
function parsePhpVersionOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!parsePhpVersion(value)) throw new UsageError(`--php-version expects a PHP version such as 7.4 or 8.2, got '${value}'`);
  return value;
}

// The absolute path: PHP gives __FILE__ and __DIR__ so, and includes are found from them.
// `recover` (check) goes on past fatal errors to report everything at once; list, eval and match
// show what PHP does.
function evaluate(ctx: RouteFileContext, maxSteps: number | undefined, recover = false): FileEvaluation {
  return evaluateRouteFile(ctx.text, { dialect: ctx.dialect, constants: ctx.constants, file: path.resolve(ctx.file), maxSteps, maxMilliseconds: DEFAULT_SETTINGS.maxEvaluationMs, includes: ctx.includes, environmentRoutes: ctx.environmentRoutes, recover, phpVersion: ctx.php.version, constantsComplete: ctx.constantsComplete });
}

/** Runs the CLI; returns the exit code. */
export function run(argv: string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        method: { type: 'string' },
        dialect: { type: 'string' },
        router: { type: 'string' },
        define: { type: 'string', multiple: true },
        'php-version': { type: 'string' },
        json: { type: 'boolean' },
        'max-steps': { type: 'string' },
        'max-warnings': { type: 'string' },
        'route-files-only': { type: 'boolean' },
        'follow-symlinks': { type: 'boolean' },
        severity: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.err(`ci-routes: ${t((e as Error).message.replace(/\. To specify a positional.*$/s, ''))}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, file, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  try {
    for (const only of ['max-warnings', 'route-files-only', 'follow-symlinks', 'severity'] as const) if (values[only] !== undefined && command !== 'check') throw new UsageError(`--${only} applies to check only`);
    const dialect = parseDialect(values.dialect);
    const router = parseRouter(values.router);
    const defines = values.define ?? [];
    const maxSteps = parseMaxSteps(values['max-steps']);
    // One application model for the run: the files it names and the applications they belong to.
    const applications = diskApplications();
    const phpVersion = parsePhpVersionOption(values['php-version']);
    const load = (f: string | undefined, d: Dialect | undefined, defs: string[], r?: RouterFlavour) => loadIn(applications, f, d, defs, r, phpVersion);
    /** Evaluates the file, warns of the analysis limits it reached, then runs the command: exit 1 at least when a limit was reached. */
    const evaluated = (ctx: RouteFileContext, then: (ctx: RouteFileContext, evaluation: FileEvaluation) => number): number => {
      const evaluation = evaluate(ctx, maxSteps);
      const limited = warnOfLimits(ctx, evaluation, io);
      const code = then(ctx, evaluation);
      return limited ? Math.max(code, 1) : code;
    };
    switch (command) {
      case 'eval': {
        const method = parseMethod(values.method, true) as RequestMethod;
        if (rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
        return evaluated(load(file, dialect, defines), (ctx, evaluation) => {
          const m = REQUEST_METHODS.indexOf(method);
          // What PHP would hold, then what could not be known of it (empty when everything is).
          const lines = new LineIndex(ctx.text);
          const incomplete = [
            ...unknownRoutes(evaluation, m).map((u) => ({ ...placeOf(lines, u.span), reason: u.reason })),
            ...undecidedConditions(evaluation, m).map((c) => ({ ...placeOf(lines, c.span), reason: c.reason })),
            // Where the analysis stopped or skipped something (an include it could not read, the step budget).
            ...analysisLimits(evaluation).map((p) => ({ ...placeOf(lines, p.span), reason: p.message })),
          ];
          io.out(`${terminalJson({ ...outcomeToJson(evaluation.methods[m]), incomplete }, values.json ? undefined : 2)}\n`);
          return 0;
        });
      }
      case 'list': {
        const method = parseMethod(values.method, false);
        if (rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
        const others = (ctx: RouteFileContext): OtherRouteFile[] => otherRouteFiles(ctx, (f) => load(f, dialect, defines, router), (c) => evaluate(c, maxSteps));
        return evaluated(load(file, dialect, defines, router), (ctx, evaluation) => Math.max(warnOfUnknowns(ctx, evaluation, method, io), list(ctx, evaluation, method, Boolean(values.json), io, others(ctx))));
      }
      case 'match': {
        const method = parseMethod(values.method, true) as RequestMethod;
        if (rest.length === 0) throw new UsageError('match needs at least one URI');
        return evaluated(load(file, dialect, defines, router), (ctx, evaluation) => match(ctx, evaluation, method, rest, Boolean(values.json), maxSteps, io));
      }
      case 'check': {
        if (values.method !== undefined) throw new UsageError('check covers every request method: --method does not apply');
        const maxWarnings = parseMaxWarnings(values['max-warnings']);
        const severities = parseSeverities(values.severity ?? []);
        // A file named twice (`routes.php ./routes.php`) is checked once.
        const files = [...new Map((file === undefined ? [] : [file, ...rest]).map((f) => [path.resolve(f), f])).values()];
        if (!files.length) throw new UsageError('missing the routes file argument');
        const followSymlinks = Boolean(values['follow-symlinks']);
        // Every read (route files, constants, controllers, Route.php) stays inside the projects
        // given, symlinks resolved: a pull request's symlink must not make a CI job read the runner's disk.
        if (!followSymlinks) setReadRoots(files.map((f) => projectDirOf(applications, f)));
        try {
          const routeFiles = files.map((f) => {
            const ctx = load(f, dialect, defines);
            return { ctx, evaluation: evaluate(ctx, maxSteps, true) };
          });
          return check(values['route-files-only'] ? { routeFiles, namesFrom: [], phpFiles: [], phpFilesSeen: 0 } : withApplications(applications, routeFiles, (file) => evaluate(load(file, dialect, defines), maxSteps, true), followSymlinks), { json: Boolean(values.json), maxWarnings, severities }, io);
        } finally {
          setReadRoots(undefined);
        }
      }
      default:
        throw new UsageError(`unknown command '${command}' (expected list, eval, match or check)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`ci-routes: ${t(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * The folder a route file's project lies in: the one above its application folder (where
 * CodeIgniter's index.php, and Bonfire's bonfire/ tree, sit beside application/), else its own folder.
 */
function projectDirOf(applications: Applications, file: string): string {
  const app = applications.applicationDirOf(file);
  return app ? path.dirname(app) : path.dirname(path.resolve(file));
}

/**
 * The analysis limits the evaluation reached (the step budget, nesting, routes per method), one
 * line each on stderr: what was printed is then not all the file does. Returns whether there were any.
 */
function warnOfLimits(ctx: RouteFileContext, evaluation: FileEvaluation, io: Io): boolean {
  const limits = analysisLimits(evaluation);
  const lines = new LineIndex(ctx.text);
  for (const p of limits) io.err(`ci-routes: warning: ${t(declaredAt(ctx, lines, p.span))}: ${t(p.message)}${/ steps /.test(p.message) ? ' (--max-steps raises the budget)' : ''}\n`);
  return limits.length > 0;
}

/**
 * The routes the evaluation could not know whole, one line each on stderr: the table printed
 * holds them where their keys fall, which is not known. Returns the exit code they call for (1).
 */
function warnOfUnknowns(ctx: RouteFileContext, evaluation: FileEvaluation, method: RequestMethod | undefined, io: Io): number {
  const unknown = unknownRoutes(evaluation, method === undefined ? undefined : REQUEST_METHODS.indexOf(method));
  const lines = new LineIndex(ctx.text);
  for (const u of unknown) io.err(`ci-routes: warning: ${t(declaredAt(ctx, lines, u.span))}: a route that cannot be known statically (${t(u.reason)})\n`);
  const conditions = undecidedConditions(evaluation, method === undefined ? undefined : REQUEST_METHODS.indexOf(method));
  for (const c of conditions) io.err(`ci-routes: warning: ${t(declaredAt(ctx, lines, c.span))}: a condition that cannot be decided statically (${t(c.reason)})\n`);
  return unknown.length || conditions.length ? 1 : 0;
}

/** Where a place of the evaluation is, for JSON: its line, and its file when an include ran it. */
function placeOf(lines: LineIndex, span: Span | undefined): { line: number | null; file?: string } {
  if (!span) return { line: null };
  if (!span.file) return { line: lines.lineOf(span.start) + 1 };
  return { line: includedLines(span.file).lineOf(span.start) + 1, file: span.file.path };
}

/** `file:line` of a place of the route file's evaluation (it may lie in a file the route file included). */
function declaredAt(ctx: RouteFileContext, lines: LineIndex, span: Span | undefined): string {
  return declaredAtIn(ctx.file, lines, span);
}

/** Another route file of the application `list` shows after the one given, evaluated as the router reads it. */
interface OtherRouteFile {
  ctx: RouteFileContext;
  module: string | undefined;
  evaluation: FileEvaluation;
}

/**
 * The application's other route files, in the order its router reads them: the main file, then
 * each module's (an environment's route file runs within the main file's evaluation).
 */
function otherRouteFiles(ctx: RouteFileContext, load: (file: string) => RouteFileContext, evaluate: (ctx: RouteFileContext) => FileEvaluation): OtherRouteFile[] {
  if (!ctx.app) return [];
  const given = path.resolve(ctx.file);
  const out: OtherRouteFile[] = [];
  for (const { file, module } of ctx.app.routeFilesInRouterOrder()) {
    if (path.resolve(file) === given) continue;
    try {
      const other = load(file);
      out.push({ ctx: other, module, evaluation: evaluate(other) });
    } catch {
      // unreadable: left out, as the workspace index leaves it out
    }
  }
  return out;
}

/** The rows `list` prints for a route file: each method's, or the methods merged. */
function rowsOf(evaluation: FileEvaluation, method: RequestMethod | undefined): MergedRow[] {
  return method ? routeRows(evaluation, REQUEST_METHODS.indexOf(method)).map((r) => ({ ...r, methods: [r.method] })) : mergedRows(evaluation);
}

function list(ctx: RouteFileContext, evaluation: FileEvaluation, method: RequestMethod | undefined, json: boolean, io: Io, others: readonly OtherRouteFile[] = []): number {
  const lines = new LineIndex(ctx.text);
  const rows = rowsOf(evaluation, method);
  const errors = evaluation.methods.filter((m) => m.error && (!method || m.method === method));
  const ranEnvironment = environmentFileRun(evaluation.included);
  if (json) {
    io.out(
      `${terminalJson({
        file: ctx.file,
        dialect: ctx.dialect,
        dialect_source: ctx.dialectSource,
        php_version: formatPhpVersion(ctx.php.version),
        php_version_source: ctx.php.source,
        router: ctx.router,
        router_source: ctx.routerSource,
        environment: ctx.environment.name ?? null,
        environment_source: ctx.environment.source,
        environment_routes: ranEnvironment ? shownPath(ranEnvironment.path) : null,
        routes: rows.map((r) => ({
          methods: r.methods,
          uri: r.key,
          target: r.targetText,
          names: r.names,
          reserved: r.reserved,
          declared_at: declaredAt(ctx, lines, r.span) || null,
        })),
        errors: errors.map((m) => ({ method: m.method, class: m.error?.class, message: m.error?.message })),
        other_files: others.map((o) => {
          const otherLines = new LineIndex(o.ctx.text);
          return {
            file: o.ctx.file,
            module: o.module ?? null,
            routes: rowsOf(o.evaluation, method).map((r) => ({ methods: r.methods, uri: r.key, target: r.targetText, names: r.names, reserved: r.reserved, declared_at: declaredAtIn(o.ctx.file, otherLines, r.span) || null })),
          };
        }),
      })}\n`,
    );
    return errors.length ? 1 : 0;
  }
  const s: Styler = style(io.isTTY && !process.env.NO_COLOR);
  const body = rows
    .filter((r) => !r.reserved)
    .map((r) => [
      methodLabel(r.methods),
      t(r.key),
      r.target === '' ? s.dim('(blocked)') : t(r.targetText),
      t(r.names.join(', ')),
      s.dim(t(declaredAt(ctx, lines, r.span))),
    ]);
  const reserved = rows.filter((r) => r.reserved);
  io.out(`${s.bold(t(path.relative(process.cwd(), ctx.file) || ctx.file))}  ${s.dim(t(`dialect ${ctx.dialect} (${ctx.dialectSource})  ${describePhpVersion(ctx.php)}  router ${ctx.router} (${ctx.routerSource})  ${describeEnvironment(ctx.environment, ctx.environmentRoutes, ranEnvironment !== undefined, ctx.app?.environmentsWithRoutes() ?? [])}`))}\n`);
  for (const r of reserved) io.out(`${s.dim(`${t(r.key)} =`)} ${t(r.targetText)}\n`);
  io.out(renderTable(['METHOD', 'URI', 'TARGET', 'NAME', 'DECLARED AT'], body, s));
  io.out(`${s.dim(`${body.length} route${body.length === 1 ? '' : 's'}`)}\n`);
  for (const m of errors) {
    io.out(`${s.red(t(`${m.method}: ${m.error?.class}: ${m.error?.message}`))}${m.error?.span ? s.dim(` (${t(declaredAt(ctx, lines, m.error.span))})`) : ''}\n`);
  }
  for (const o of others) {
    const otherLines = new LineIndex(o.ctx.text);
    const otherRows = rowsOf(o.evaluation, method).filter((r) => !r.reserved);
    const what = o.module === undefined ? 'the main routes, read first' : `module ${o.module}: read after the main routes for URIs whose first segment is ${o.module}; targets relative to the module`;
    io.out(`\n${s.bold(t(shownPath(o.ctx.file)))}  ${s.dim(t(what))}\n`);
    if (otherRows.length) {
      io.out(renderTable(['METHOD', 'URI', 'TARGET', 'NAME', 'DECLARED AT'], otherRows.map((r) => [methodLabel(r.methods), t(r.key), r.target === '' ? s.dim('(blocked)') : t(r.targetText), t(r.names.join(', ')), s.dim(t(declaredAtIn(o.ctx.file, otherLines, r.span)))]), s));
    }
    io.out(`${s.dim(`${otherRows.length} route${otherRows.length === 1 ? '' : 's'}`)}\n`);
    for (const m of o.evaluation.methods.filter((r) => r.error && (!method || r.method === method)).slice(0, 1)) io.out(`${s.red(t(`${m.method}: ${m.error?.class}: ${m.error?.message}`))}\n`);
  }
  return errors.length ? 1 : 0;
}

function methodLabel(methods: RequestMethod[]): string {
  if (methods.length === REQUEST_METHODS.length) return 'ANY';
  return methods.join('|');
}
