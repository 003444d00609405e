import { describePhpVersion } from '../../../shared/app/php-version-choice';
import { analyzeRouteFileSteps, type AnalyzeOptions } from '../../../shared/analysis/diagnostics/analyze';
import { namesAreComplete } from '../../../shared/analysis/model/name-declarations';
import { runSteps, type Steps } from '../../../shared/util/steps';
import type { Finding, Severity } from '../../../shared/analysis/diagnostics/core/types';
import { DocumentEvaluator, type DocumentOptions } from '../../../shared/evaluate/document-evaluator';
import { evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { Dialect } from '../../../shared/library/route-library';
import { severityUnder, type FolderSettings } from '../../../shared/workspace/settings';
import type { ControllerCatalog, ControllerListing } from '../../../shared/workspace/controller-catalog';
import type { Application, Applications } from '../../../shared/app/application';
import { environmentOf, type EnvironmentChoice } from '../../../shared/app/environment';
import type { EnvironmentRoutes } from '../../../shared/evaluate/includes';
import type { RouterChoice } from '../../../shared/app/router-flavour';
import { diskApplications } from '../host/route-file';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import type { RouteFileRouting } from '../../../shared/analysis/model/target-scope';
import type { ModuleRouteKeys } from './module-route-keys';
import type { MainRoutes } from '../../../shared/analysis/model/main-routes';
import { isMainRouteFile } from '../../../shared/app/layout';

export interface SeverityFinding {
  finding: Finding;
  severity: Severity;
}

export interface EnvironmentInForce {
  choice: EnvironmentChoice;
  routes: EnvironmentRoutes | undefined;
}

export interface AnalysedRouteFile {
  version: number;
  evaluation: FileEvaluation;
  findings: SeverityFinding[];
  dialect: Dialect;
  /** How the dialect was chosen, for messages. */
  dialectSource: string;
  /** The PHP version evaluated under, and how it was chosen (`php 8.2 (default)`). */
  php: string;
  /** The router that routes the application's requests, and how it was chosen. */
  router: RouterChoice;
  appDir: string | undefined;
  /** ENVIRONMENT, how it was chosen, and the environment's route file the router runs after a main route file. */
  environment: EnvironmentInForce;
  /** Why nothing was analysed (file too large), if so. */
  skipped?: string;
  /** For a module's routes file analysed: the main routes its checks read (see ModuleMainReads). */
  mainRoutes?: MainRoutes;
  /** Where the time went (milliseconds), for `ciRoutes/analysisTiming`. */
  timing?: { parseMs: number; evaluateMs: number; analyseMs: number; totalMs: number };
}

/** Evaluates route files for the workspace index (see RouteService.evaluateFile). */
export interface RouteFileEvaluator {
  evaluateFile(file: string, text: string, options: DocumentOptions): FileEvaluation;
  /** The file left the index (deleted, no longer a route file, or its evaluation let go). */
  forget(file: string): void;
  /** Whether an editor has the file open (its evaluation then follows the editor, and is not the index's to let go). */
  isOpen(file: string): boolean;
}

/**
 * Evaluates and analyses route files. One evaluator per route file, shared by the workspace
 * index and the open document: opening a file the index has read evaluates nothing again, and an
 * edit or a close redoes only what changed.
 */
export class RouteService implements RouteFileEvaluator {
  /** Route file path → its evaluator. */
  private readonly evaluators = new Map<string, DocumentEvaluator>();
  /** Open document → its file (the evaluators of open files follow the editor, not the disk). */
  private readonly openFiles = new Map<string, string>();
  /** Evaluators of documents opened on a file another open document already evaluates (two URIs for one path). */
  private readonly ownEvaluators = new Map<string, DocumentEvaluator>();

  /** @param applications the application model the workspace index reads through too */
  constructor(readonly applications: Applications = diskApplications()) {}

  /**
   * The main route file of an application as the index holds it (set by the server): a module's
   * routes file is read after the main routes, which its checks take into account.
   */
  mainRoutesOf: ((appDir: string) => MainRoutes | undefined) | undefined;
  /** Whether the index may not have read every main route file yet (set by the server: its first scan runs). */
  mainRoutesPending: (() => boolean) | undefined;

  /** The main routes a module's routes file is read after, when the file is one and they are known. */
  private mainRoutesFor(file: string, appDir: string | undefined): MainRoutes | undefined {
    return appDir !== undefined && moduleOfRouteFile(file) !== undefined ? this.mainRoutesOf?.(appDir) : undefined;
  }

  /** For a module's routes file: the main routes it is read after, or whether they may exist unread yet (the index's first scan runs). */
  private mainRoutesOptions(file: string, appDir: string | undefined): { mainRoutes?: MainRoutes; mainRoutesPending?: boolean } {
    const mainRoutes = this.mainRoutesFor(file, appDir);
    if (mainRoutes) return { mainRoutes };
    return moduleOfRouteFile(file) !== undefined && this.mainRoutesPending?.() ? { mainRoutesPending: true } : {};
  }

  /** The application's own router's redefinition of how route files are read, for the checks (said once in the log for a module file). */
  private routingOverrideOf(file: string, appDir: string | undefined): Partial<Pick<AnalyzeOptions, 'routingOverride'>> {
    const override = this.application(appDir)?.routingOverridden();
    if (!override) return {};
    if (override.reading && moduleOfRouteFile(file) !== undefined) this.logOnce(`${appDir}: module route files are not checked for unreachable keys and missing controllers: ${override.why}`);
    return { routingOverride: { matching: override.matching, reading: override.reading } };
  }

  private logOnce(message: string): void {
    if (this.uncheckedSaid.has(message)) return;
    this.uncheckedSaid.add(message);
    this.logUnchecked(message);
  }

  /** The index's module route keys (set by the server): main-file targets into a module are decided with them. */
  moduleKeys: ModuleRouteKeys | undefined;

  /**
   * How the router reads a route file's targets: module-relative in a module's file; in the main
   * file, through the module files' keys. Bonfire's module tables hold the main file's routes too,
   * which change with every edit of it: there a target into a module with a routes file is left undecided.
   */
  private routingOf(file: string, appDir: string | undefined, flavour: RouterFlavour, askedPhp?: string): RouteFileRouting {
    const module = moduleOfRouteFile(file);
    const php = this.application(appDir)?.phpVersion(askedPhp);
    const common = { flavour, ...(php ? { php } : {}) };
    if (module !== undefined) return { ...common, module };
    const main = { ...common, ...(isMainRouteFile(file, appDir) ? { mainFile: true } : {}) };
    const keys = this.moduleKeys;
    if (!keys || appDir === undefined || flavour === 'bonfire') return main;
    return { ...main, moduleRouteKeys: (m) => keys.of(appDir, m), moduleRouteKeysVersion: keys.version };
  }

  /** Forgets what is known of controllers (a PHP file changed on disk). */
  invalidateControllers(): void {
    this.applications.forgetControllers();
  }

  /** The application of a folder, when it can be read (a folder outside the workspace folders is not: nothing is guessed from it). */
  application(appDir: string | undefined): Application | undefined {
    return appDir === undefined ? undefined : this.applications.at(appDir);
  }

  /** The application's modules, controllers and their methods (for completion in targets). */
  listing(appDir: string | undefined): ControllerListing | undefined {
    return this.application(appDir)?.controllerListing();
  }

  /** Says why an application's targets are not checked (set by the server: its log), once per application and reason. */
  logUnchecked: (message: string) => void = () => undefined;
  private readonly uncheckedSaid = new Set<string>();

  /** The controllers an application's targets are checked against; none when they cannot be (said once in the log). */
  private checkedControllers(appDir: string | undefined, flavour?: RouterFlavour): ControllerCatalog | undefined {
    const checked = this.application(appDir)?.checkedControllers(flavour);
    if (!checked) return undefined;
    if ('catalog' in checked) return checked.catalog;
    this.logOnce(`${appDir}: targets are not checked for missing controllers: ${checked.unchecked}`);
    return undefined;
  }

  /** Controllers of an application, for hover and definition on targets. */
  controllersOf(appDir: string | undefined): ControllerCatalog | undefined {
    return this.application(appDir)?.controllers();
  }

  /** The router of an application under these settings ('auto': detected, remembered with the application). */
  routerOf(appDir: string | undefined, settings: FolderSettings): RouterChoice {
    return this.application(appDir)?.router(settings.router) ?? (settings.router === 'auto' ? { flavour: 'ci', source: 'default: no HMVC router found' } : { flavour: settings.router, source: 'given' });
  }

  /** Forgets what was read from an application folder (a constants file or Route.php changed), or from all. */
  invalidateApp(appDir?: string): void {
    this.applications.forget(appDir);
  }

  /** Whether an application read `file` for its constants (a file config/constants.php includes): its change changes them. */
  applicationRead(file: string): boolean {
    return this.applications.read(file);
  }

  /**
   * A PHP file changed on disk: the route files whose last evaluation read other files (include,
   * glob()) are evaluated again on their next update, even with the same text. Returns them.
   */
  otherFilesChanged(): string[] {
    const files: string[] = [];
    for (const [file, evaluator] of this.evaluators) if (evaluator.otherFilesChanged()) files.push(file);
    for (const evaluator of this.ownEvaluators.values()) evaluator.otherFilesChanged();
    return files;
  }

  /** The last evaluation of each open route document (requests read it); its findings are empty when only evaluate() ran. */
  private readonly latest = new Map<string, AnalysedRouteFile & { text: string }>();

  /** The document closed: its evaluator stays, for the index to read the file on disk from. */
  close(uri: string): void {
    this.openFiles.delete(uri);
    this.ownEvaluators.delete(uri);
    this.latest.delete(uri);
  }

  /**
   * The index's evaluation of a route file as read from disk. The file's evaluator makes it, so
   * that opening the file later starts from it; while the file is open, its evaluator belongs to
   * the editor's text (an analysis under way reads its records) and a one-off evaluation is made.
   */
  evaluateFile(file: string, text: string, options: DocumentOptions): FileEvaluation {
    if (this.isOpen(file)) return evaluateRouteFile(text, options);
    const evaluator = this.evaluatorOf(file);
    evaluator.configure(options);
    return evaluator.update(text);
  }

  forget(file: string): void {
    if (!this.isOpen(file)) this.evaluators.delete(file);
  }

  isOpen(file: string): boolean {
    for (const open of this.openFiles.values()) if (open === file) return true;
    return false;
  }

  /** The evaluator of an open document: its file's, unless another open document has that one. */
  private documentEvaluator(uri: string, file: string): DocumentEvaluator {
    const own = this.ownEvaluators.get(uri);
    if (own) return own;
    if (this.openFiles.get(uri) !== file && this.isOpen(file)) {
      const evaluator = new DocumentEvaluator();
      this.ownEvaluators.set(uri, evaluator);
      return evaluator;
    }
    this.openFiles.set(uri, file);
    return this.evaluatorOf(file);
  }

  private evaluatorOf(file: string): DocumentEvaluator {
    let evaluator = this.evaluators.get(file);
    if (!evaluator) {
      evaluator = new DocumentEvaluator();
      this.evaluators.set(file, evaluator);
    }
    return evaluator;
  }

  last(uri: string): (AnalysedRouteFile & { text: string }) | undefined {
    return this.latest.get(uri);
  }

  /**
   * A module's routes file's last analysis holds against `main`, a newer version of the main
   * routes (ModuleMainReads decided it): it is recorded as read against it, and the older
   * version is let go.
   */
  holdsAgainst(uri: string, main: MainRoutes): void {
    const last = this.latest.get(uri);
    if (last?.mainRoutes) this.latest.set(uri, { ...last, mainRoutes: main });
  }

  /**
   * Evaluates a version without running the checks: what requests need (positions, routes,
   * names), at the cost of the evaluation alone. analyse() of the same version then reuses it.
   */
  evaluate(uri: string, file: string, text: string, version: number, settings: FolderSettings): void {
    const prepared = this.prepare(uri, file, text, version, settings);
    if ('skipped' in prepared) return;
    const { evaluation, dialect, dialectSource, php, router, appDir, environment, parseMs, evaluateMs } = prepared;
    this.latest.set(uri, { version, evaluation, findings: [], dialect, dialectSource, php, router, appDir, environment, text, timing: { parseMs, evaluateMs, analyseMs: 0, totalMs: parseMs + evaluateMs } });
  }

  /** The evaluation of `text` (the evaluator's own when it has just evaluated that text), or why it was skipped. */
  private prepare(uri: string, file: string, text: string, version: number, settings: FolderSettings): Prepared | { skipped: AnalysedRouteFile } {
    const setup = this.applications.setupFor(file, { dialect: settings.dialect, router: settings.router, constants: Object.entries(settings.constants), phpVersion: settings.phpVersion });
    const { appDir, router, dialect, dialectSource, constants, environmentRoutes, includes } = setup;
    const php = describePhpVersion(setup.php);
    const environment: EnvironmentInForce = { choice: setup.environment, routes: environmentRoutes };
    if (text.length > settings.maxFileSize) {
      const evaluation = evaluateRouteFile('', { dialect });
      const skipped: AnalysedRouteFile = {
        version,
        evaluation,
        dialect,
        dialectSource,
        php,
        router,
        appDir,
        environment,
        skipped: `The file is ${text.length} characters long, over ciRoutes.maxFileSize (${settings.maxFileSize}): it is not analysed.`,
        findings: [
          {
            finding: { code: 'evaluation-limit', severity: 'warning', message: `This file is larger than ciRoutes.maxFileSize (${settings.maxFileSize} bytes): it is not analysed. Raise the setting to analyse it.`, span: { start: 0, end: Math.min(text.length, 5) }, methods: [], related: [], fixes: [] },
            severity: 'warning',
          },
        ],
      };
      return { skipped };
    }
    const evaluator = this.documentEvaluator(uri, file);
    evaluator.configure({ dialect, constants, file, maxSteps: settings.maxSteps, maxMilliseconds: settings.maxEvaluationMs, maxRoutes: settings.maxRoutes, includes, environmentRoutes, recover: true, phpVersion: setup.php.version, constantsComplete: setup.constantsComplete });
    const evaluation = evaluator.update(text);
    const { parseMs, evaluateMs } = evaluator.lastTiming;
    // Evaluated earlier for a request: its time is this version's too.
    const earlier = this.latest.get(uri);
    if (parseMs + evaluateMs === 0 && earlier?.evaluation === evaluation && earlier.timing) return { evaluation, dialect, dialectSource, php, router, appDir, environment, parseMs: earlier.timing.parseMs, evaluateMs: earlier.timing.evaluateMs };
    return { evaluation, dialect, dialectSource, php, router, appDir, environment, parseMs, evaluateMs };
  }

  /** Runs the checks on an evaluation for nothing but what they remember (see whileIndexed). */
  *checkSteps(file: string, text: string, evaluation: FileEvaluation, knownNames: ReadonlySet<string>): Steps<void> {
    const app = this.applications.of(file);
    yield* analyzeRouteFileSteps(text, evaluation, { knownNames, controllers: this.checkedControllers(app?.appDir), routing: this.routingOf(file, app?.appDir, app?.router().flavour ?? 'ci'), ...this.mainRoutesOptions(file, app?.appDir), ...this.routingOverrideOf(file, app?.appDir), codeIgniter: app?.codeIgniter(), uriCharsBeyond: app?.uriCharsBeyond(environmentOf(evaluation)) });
  }

  /**
   * Runs `steps` on the index's evaluation of a route file no editor has open, for what they
   * leave in memos: opening the file later finds the same evaluation (its evaluator is shared) and
   * the memos filled. Stops before the next step once the file is evaluated again (the
   * evaluation's records may have moved) or opened. Returns whether `steps` ran to the end.
   */
  *whileIndexed(file: string, evaluation: FileEvaluation, steps: Steps<void>): Steps<boolean> {
    const current = () => !this.isOpen(file) && this.evaluators.get(file)?.current === evaluation;
    if (!current()) return false;
    for (let r = steps.next(); !r.done; r = steps.next()) {
      yield;
      if (!current()) {
        steps.return();
        return false;
      }
    }
    return true;
  }

  /**
   * @param knownNames route names across the workspace; 'pending' while the first scan runs, or
   * while a route file is not evaluated to the end: name findings would be guesses and are left out.
   */
  analyse(uri: string, file: string, text: string, version: number, settings: FolderSettings, knownNames: ReadonlySet<string> | 'pending'): AnalysedRouteFile {
    return runSteps(this.analysisSteps(uri, file, text, version, settings, knownNames));
  }

  /**
   * analyse(), pausing between units of the checks (the evaluation comes first, in one piece).
   * Its time counts only while it runs. A caller that stops it early must not continue it after
   * the document was evaluated again (the evaluation's records are shared with the next one).
   */
  *analysisSteps(
    uri: string,
    file: string,
    text: string,
    version: number,
    settings: FolderSettings,
    knownNames: ReadonlySet<string> | 'pending',
    /** Receives what every check but the slow inclusion checks found, before those run. */
    beforeInclusionChecks?: (findings: SeverityFinding[]) => void,
  ): Steps<AnalysedRouteFile> {
    const prepared = this.prepare(uri, file, text, version, settings);
    if ('skipped' in prepared) return prepared.skipped;
    const { evaluation, dialect, dialectSource, php, router, appDir, environment, parseMs, evaluateMs } = prepared;
    // This version stopped at an analysis limit: the names past it are unknown, as while pending.
    const names = namesAreComplete(evaluation) ? knownNames : 'pending';
    const main = this.mainRoutesOptions(file, appDir);
    const { mainRoutes } = main;
    const steps = analyzeRouteFileSteps(text, evaluation, {
      knownNames: names === 'pending' ? undefined : names,
      controllers: this.checkedControllers(appDir, router.flavour),
      routing: this.routingOf(file, appDir, router.flavour, settings.phpVersion),
      ...main,
      ...this.routingOverrideOf(file, appDir),
      codeIgniter: this.application(appDir)?.codeIgniter(),
      uriCharsBeyond: this.application(appDir)?.uriCharsBeyond(environment.choice.name),
      php,
      beforeInclusionChecks: beforeInclusionChecks && ((found) => beforeInclusionChecks(withSeverities(found, settings, names))),
    });
    let analyseMs = 0;
    let found: Finding[];
    for (;;) {
      const t = performance.now();
      const r = steps.next();
      analyseMs += performance.now() - t;
      if (r.done) {
        found = r.value;
        break;
      }
      yield;
    }
    const findings = withSeverities(found, settings, names);
    const timing = { parseMs, evaluateMs, analyseMs, totalMs: parseMs + evaluateMs + analyseMs };
    const result = { version, evaluation, findings, dialect, dialectSource, php, router, appDir, environment, timing, ...(mainRoutes ? { mainRoutes } : {}) };
    this.latest.set(uri, { ...result, text });
    return result;
  }
}

/** A version evaluated, with what it was evaluated under. */
type Prepared = Pick<AnalysedRouteFile, 'evaluation' | 'dialect' | 'dialectSource' | 'php' | 'router' | 'appDir' | 'environment'> & { parseMs: number; evaluateMs: number };

/**
 * Findings with the severity the settings give them, those turned off left out. While the
 * workspace's names are pending, unknown-route-name findings would be guesses and are left out too.
 */
function withSeverities(found: readonly Finding[], settings: FolderSettings, knownNames: ReadonlySet<string> | 'pending'): SeverityFinding[] {
  return found
    .filter((f) => !(knownNames === 'pending' && f.code === 'unknown-route-name'))
    .map((finding) => ({ finding, severity: severityUnder(settings.diagnostics, finding) }))
    .filter((f): f is SeverityFinding => f.severity !== 'off');
}
