import * as path from 'node:path';
import * as fs from 'node:fs';
import { parsePhpVersion } from '../../../shared/runtime/php-version';
import { parseArgs } from 'node:util';
import { undecidedConditions, unknownRoutes } from '../../../shared/analysis/model/route-table';
import { analysisLimits, evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import type { Span } from '../../../shared/php/ast';
import { REQUEST_METHODS, methodIndex, type RequestMethod } from '../../../shared/runtime/methods';
import { outcomeToJson } from '../../../shared/evaluate/outcome-json';
import type { Dialect } from '../../../shared/library/route-library';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import { setReadRoots } from '../host/read-fence';
import type { Application, Applications } from '../../../shared/app/application';
import { diskApplications, loadRouteFile, parseDefine, type RouteFileContext } from '../host/route-file';
import { withApplications } from './app-files';
import { check } from './check';
import { declaredAt as declaredAtIn, shownPath } from './declared-at';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { list, otherRouteFiles, parseListFilters, type OtherRouteFile } from './list';
import { match } from './match';
import { DEFAULT_SETTINGS, DIAGNOSTIC_LEVELS, isDiagnosticCode, isDiagnosticLevel, type FolderSettings } from '../../../shared/workspace/settings';
import { terminalJson, terminalText as t } from '../../../shared/util/escape';
import { COMMAND_USAGE, USAGE, UsageError } from './usage';
import { VERSION } from '../host/version';

export { UsageError };

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
    if (err.code === 'ENOENT') throw new UsageError(`cannot read '${file}': no such file${environmentFilesHint(file)}`);
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
        version: { type: 'boolean', short: 'V' },
        path: { type: 'string' },
        name: { type: 'string' },
        sort: { type: 'string' },
      },
    });
  } catch (e) {
    io.err(`ci-routes: ${t((e as Error).message.replace(/\. To specify a positional.*$/s, ''))}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const [command, file, ...rest] = positionals;
  if (!command) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  try {
    // `ci-routes help [command]` and `ci-routes <command> --help`: the command's own usage.
    if (command === 'help' || values.help) {
      const topic = command === 'help' ? file : command;
      if (topic === undefined) io.out(USAGE);
      else if (Object.hasOwn(COMMAND_USAGE, topic)) io.out(COMMAND_USAGE[topic]!);
      else throw new UsageError(unknownCommand(topic));
      return 0;
    }
    if (!Object.hasOwn(COMMAND_USAGE, command)) throw new UsageError(unknownCommand(command));
    for (const [option, commands, appliesTo] of ONLY_WITH) if (values[option] !== undefined && !commands.includes(command)) throw new UsageError(`--${option} applies to ${appliesTo}`);
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
          const lines = LineIndex.of(ctx.text);
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
        const filters = parseListFilters(method, values);
        if (rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
        // Without a file nothing is read outside the project found: --follow-symlinks lifts that, and only that.
        if (file !== undefined && values['follow-symlinks']) throw new UsageError(`--follow-symlinks applies to ${FOLLOW_SYMLINKS_APPLIES}`);
        const here = file === undefined ? applicationHere(applications, 'list') : undefined;
        const found = here?.routeFilesInRouterOrder()[0]?.file;
        // A file found is named as the user would name it: relative to the working folder.
        const listed = file ?? (found === undefined ? undefined : shownPath(found));
        // Found, not named: reads stay inside its project, as check's do.
        if (here && !values['follow-symlinks']) setReadRoots(fenceFor([here.projectDir]));
        try {
          const others = (ctx: RouteFileContext): OtherRouteFile[] => otherRouteFiles(ctx, (f) => load(f, dialect, defines, router), (c) => evaluate(c, maxSteps));
          return evaluated(load(listed, dialect, defines, router), (ctx, evaluation) => Math.max(warnOfUnknowns(ctx, evaluation, method, io), list(ctx, evaluation, filters, Boolean(values.json), io, others(ctx))));
        } finally {
          setReadRoots(undefined);
        }
      }
      case 'match': {
        const method = parseMethod(values.method, false) ?? 'GET';
        if (rest.length === 0) throw new UsageError(file === undefined ? 'match needs the routes file and at least one URI' : 'match needs at least one URI after the routes file');
        return evaluated(load(file, dialect, defines, router), (ctx, evaluation) => match(ctx, evaluation, method, rest, Boolean(values.json), maxSteps, io));
      }
      case 'check': {
        if (values.method !== undefined) throw new UsageError('check covers every request method: --method does not apply');
        const maxWarnings = parseMaxWarnings(values['max-warnings']);
        const severities = parseSeverities(values.severity ?? []);
        const followSymlinks = Boolean(values['follow-symlinks']);
        const here = file === undefined ? applicationHere(applications, 'check') : undefined;
        try {
          // Without a file, every route file of the application here that its project holds (an
          // environment's runs within the main file's evaluation), named relative to the working folder.
          if (here && !followSymlinks) setReadRoots(fenceFor([here.projectDir]));
          const given = here ? here.routeFilesInRouterOrder().map((f) => shownPath(f.file)) : [file!, ...rest];
          // A file named twice (`routes.php ./routes.php`) is checked once.
          const files = [...new Map(given.map((f) => [path.resolve(f), f])).values()];
          if (!files.length) throw new UsageError('missing the routes file argument');
          // Every read (route files, constants, controllers, Route.php) stays inside the projects
          // given, symlinks resolved: a pull request's symlink must not make a CI job read the runner's disk.
          if (!followSymlinks) setReadRoots(fenceFor(files.map((f) => projectDirOf(applications, f))));
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
        throw new UsageError(unknownCommand(command));
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`ci-routes: ${t(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

/** list's reads are fenced only without a route file: --follow-symlinks lifts that fence. */
const FOLLOW_SYMLINKS_APPLIES = 'check, and to list without a route file';

/** The options of some commands only, those commands, and what the message says. */
const ONLY_WITH: readonly (readonly [option: 'max-warnings' | 'route-files-only' | 'severity' | 'follow-symlinks' | 'path' | 'name' | 'sort', commands: readonly string[], appliesTo: string])[] = [
  ['max-warnings', ['check'], 'check only'],
  ['route-files-only', ['check'], 'check only'],
  ['severity', ['check'], 'check only'],
  ['follow-symlinks', ['check', 'list'], FOLLOW_SYMLINKS_APPLIES],
  ['path', ['list'], 'list only'],
  ['name', ['list'], 'list only'],
  ['sort', ['list'], 'list only'],
];

function unknownCommand(command: string): string {
  return `unknown command '${command}' (expected list, eval, match, check or help)`;
}

/**
 * The application a command run here means, for list and check without a route file (see
 * Applications.findFrom); a usage error saying where it looked when there is none.
 */
function applicationHere(applications: Applications, command: string): Application {
  const found = applications.findFrom(process.cwd());
  if (found.app) return found.app;
  const where = found.upTo === found.from ? found.from : `${found.from} or a folder above it up to ${found.upTo}${found.repositoryRoot ? ", the repository's root" : ''}`;
  throw new UsageError(`no CodeIgniter application here: neither config/routes.php nor application/config/routes.php (nor an environment's, config/production/routes.php and the like) in ${where}; run ci-routes ${command} inside an application, or give the route file: ci-routes ${command} path/to/application/config/routes.php`);
}

/**
 * The folders reads are fenced in: the projects, or the working folder when it holds them (the
 * user runs the command there, and a front controller above the project, `$application_folder =
 * 'cms/application'`, lies in it).
 */
function fenceFor(projects: string[]): string[] {
  const cwd = process.cwd();
  return projects.map((p) => (p !== cwd && p.startsWith(`${cwd}${path.sep}`) ? cwd : p));
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
  const lines = LineIndex.of(ctx.text);
  for (const p of limits) io.err(`ci-routes: warning: ${t(declaredAt(ctx, lines, p.span))}: ${t(p.message)}${/ steps /.test(p.message) ? ' (--max-steps raises the budget)' : ''}\n`);
  return limits.length > 0;
}

/**
 * The routes the evaluation could not know whole, one line each on stderr: the table printed
 * holds them where their keys fall, which is not known. Returns the exit code they call for (1).
 */
function warnOfUnknowns(ctx: RouteFileContext, evaluation: FileEvaluation, method: RequestMethod | undefined, io: Io): number {
  const unknown = unknownRoutes(evaluation, method === undefined ? undefined : REQUEST_METHODS.indexOf(method));
  const lines = LineIndex.of(ctx.text);
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

/**
 * For a main routes file that does not exist: the environments' route files beside it, which
 * CodeIgniter 3 reads without one (an application may keep its routes there alone).
 */
function environmentFilesHint(file: string): string {
  if (path.basename(file) !== 'routes.php' || path.basename(path.dirname(file)) !== 'config') return '';
  const config = path.dirname(file);
  let found: string[] = [];
  try {
    found = fs.readdirSync(config, { withFileTypes: true }).filter((d: fs.Dirent) => d.isDirectory() && fs.existsSync(path.join(config, d.name, 'routes.php'))).map((d: fs.Dirent) => path.join(config, d.name, 'routes.php'));
  } catch {
    return '';
  }
  if (found.length === 0) return '';
  return ` (the application's routes are in ${found.slice(0, 3).map((f) => `'${f}'`).join(', ')}${found.length > 3 ? ', …' : ''}, its environments' route files, which CodeIgniter reads without a config/routes.php: name one, or run without a file to check them all)`;
}
