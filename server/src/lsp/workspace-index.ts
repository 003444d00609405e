import * as path from 'node:path';
import picomatch from 'picomatch';
import { namedRecordsOf, namesAreComplete, namesOfRecords, pastErrorMessages, pastErrorMessagesOf } from '../../../shared/analysis/model/name-declarations';

const NO_PAST_ERRORS: ReadonlyMap<string, string> = new Map();
import type { RouteRecord } from '../../../shared/library/records';
import { sameItems } from '../../../shared/util/same-items';
import { WeightedLru } from '../../../shared/util/weighted-lru';
import { evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { RouteFileEvaluator } from './route-service';
import { indexPhpFile, mayNeedIndexing, type NamedUsage } from '../../../shared/workspace/php-index';
import type { FolderSettings } from '../../../shared/workspace/settings';
import type { Applications } from '../../../shared/app/application';
import { isEnvironmentRouteFile, isMainRouteFile } from '../../../shared/app/layout';
import { diskApplications } from '../host/route-file';
import { mayRead } from '../host/read-fence';
import { EvaluatedDeclarations, type NameDeclarations } from './name-declarations';
import { ModuleRouteKeys } from './module-route-keys';
import { realTimers } from './scheduler';
import { readRegularFile, UnreadableFile } from '../host/safe-read';
import { isNotApplicationCode, walkFiles } from '../host/walk-files';

/** Each route file evaluated on its own, nothing kept. */
const ONE_OFF: RouteFileEvaluator = { evaluateFile: (_file, text, options) => evaluateRouteFile(text, options), forget: () => undefined, isOpen: () => false };

/**
 * How much route source (bytes) the index keeps evaluated among the files no editor has open.
 * An evaluation held by the index takes about 40 times its source (18 files of 3,000
 * declarations, 4.1 MB, held 182 MB live), more once checked ahead of its opening, so 2 MiB keeps
 * around 100–200 MB: every route file of a usual application, nine of 3,000 declarations, and the
 * last one used whatever its size (see WeightedLru). Counted in source bytes: deterministic, known
 * before evaluating, and what the evaluation grows with.
 */
export const DEFAULT_EVALUATION_BUDGET_BYTES = 2 * 1024 * 1024;

/** A route file's text and evaluation, as the features that read them across files want them. */
export interface RouteFileInput {
  file: string;
  text: string;
  evaluation: FileEvaluation;
}

/** What the index keeps of a route file only while its evaluation is held. */
interface HeldRouteFile {
  text: string;
  evaluation: FileEvaluation;
  /** The records that name its routes (see recordRouteNames). */
  namedRecords: readonly RouteRecord[];
}

/** What the index holds, for tests and the log (`ciRoutes/indexStats`). */
export interface IndexStats {
  routeFiles: number;
  /** Route files whose text and evaluation are held (open ones included). */
  held: number;
  /** Of those, the files no editor has open, and their source bytes (the budget counts these). */
  heldClosed: number;
  heldClosedBytes: number;
  /** Those files, least recently used first. */
  heldClosedFiles: string[];
  budgetBytes: number;
  /** Evaluations let go to stay within the budget, and evaluated again when needed, since the start. */
  letGo: number;
  rederived: number;
}

const MAX_FILES = 50_000;
/** ciRoutes.maxFileSize's default, for files outside every folder. */
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

export interface ScanProgress {
  report(done: number, message: string): void;
  isCancelled(): boolean;
}

/** What the workspace knows across files: the route files and the names they define. */
export class WorkspaceIndex {
  /** Route file path → route names it defines. */
  private readonly routeNames = new Map<string, Set<string>>();
  /** Per route file, its names declared only past an error (see namesPastErrors()), with their messages. */
  private readonly pastErrors = new Map<string, Map<string, string>>();
  private pastErrorsAll: ReadonlyMap<string, string> | undefined;
  /** Route files whose evaluation stopped at an analysis limit: their names may be partial (see namesAreComplete). */
  private readonly partialNames = new Set<string>();
  /**
   * Route files inside a workspace folder whose application folder reaches beyond it (the editor
   * opened application/config/): the module route files that may declare names cannot be read.
   */
  private readonly appBeyondFolder = new Set<string>();
  /** Called when an application's main route file was recorded (its module route files' checks read it). */
  onMainRoutes: (appDir: string) => void = () => undefined;
  /**
   * Called when a route file's routes may have changed: it was recorded from a new evaluation or
   * removed (not when a file let go is evaluated again to answer a request: nothing changed).
   */
  onRouteFileChanged: (file: string) => void = () => undefined;
  /** Route file path → a number that changes whenever onRouteFileChanged is called for it (see routeFileVersion). */
  private readonly versions = new Map<string, number>();
  private nextVersion = 1;
  /** inputOf is evaluating a file let go again: the same text, the same routes. */
  private rederiving = false;
  /** The route keys of the module routes files (main-file targets into a module are decided with them). */
  readonly moduleKeys = new ModuleRouteKeys();
  /** knownNames(), until a file's names change. */
  private known: Set<string> | undefined;
  /**
   * Route file path → its text and evaluation as last read (references and rename read them),
   * for open files and, within the budget, the closed files used last; the others are read and
   * evaluated again when needed (inputOf).
   */
  private readonly held = new Map<string, HeldRouteFile>();
  /** The held files no editor has open, most recently used last, weighed by source bytes. */
  private readonly closedHeld: WeightedLru<string>;
  /** Route file path → its `Route::named()` uses, for files whose text was let go (only those with some). */
  private readonly routeFileUsages = new Map<string, NamedUsage[]>();
  private letGoCount = 0;
  private rederivedCount = 0;
  /** Route file path → where each of its names is declared (for definition and hover); kept for every file. */
  private readonly declarations = new Map<string, NameDeclarations>();
  /** Other PHP file path → its `Route::named()` usages (only files that have some). */
  private readonly usages = new Map<string, NamedUsage[]>();
  private matchers = new Map<string, (rel: string) => boolean>();
  /** Changes whenever a route file's named records do (what allNames() returns may differ; where they are declared is read from `declarations`). */
  private declarationsVersion = 0;

  constructor(
    private readonly folders: () => { path: string; settings: FolderSettings }[],
    /** Where to say why a route file on disk was left out (too large, outside the workspace…). */
    private readonly log: (message: string) => void = () => undefined,
    /** Evaluates the route files read (the server shares each file's evaluator with its open document). */
    private readonly evaluator: RouteFileEvaluator = ONE_OFF,
    budgetBytes = DEFAULT_EVALUATION_BUDGET_BYTES,
    /** The application model (the server's RouteService reads through the same one). */
    private readonly applications: Applications = diskApplications(),
  ) {
    this.closedHeld = new WeightedLru(budgetBytes);
  }

  /** The folder containing a file, if any. */
  folderOf(file: string): { path: string; settings: FolderSettings } | undefined {
    let best: { path: string; settings: FolderSettings } | undefined;
    for (const f of this.folders()) {
      const rel = path.relative(f.path, file);
      if (!rel.startsWith('..') && !path.isAbsolute(rel) && (!best || f.path.length > best.path.length)) best = f;
    }
    return best;
  }

  private matcher(globs: string[]): (rel: string) => boolean {
    const key = globs.join('\u0000');
    let m = this.matchers.get(key);
    if (!m) {
      m = picomatch(globs, { dot: false });
      this.matchers.set(key, m);
    }
    return m;
  }

  /** Is this file a route file under its folder's settings (or, outside folders, by its path)? */
  isRouteFile(file: string): boolean {
    const folder = this.folderOf(file);
    if (!folder) return /(^|[\\/])config[\\/]routes\.php$/.test(file);
    return this.matchesRouteFiles(folder, file);
  }

  /**
   * Whether the folder's globs match the file, relative to the folder or to the file system's root
   * (a folder opened inside an application, application/config/, still has its routes.php), and it
   * is not an environment's route file: the router runs that after its main file, in the main
   * file's evaluation (see environment.ts); alone it would be analysed without the routes it adds to.
   */
  private matchesRouteFiles(folder: { path: string; settings: FolderSettings }, file: string): boolean {
    if (isEnvironmentRouteFile(file)) return false;
    const match = this.matcher(folder.settings.routeFiles);
    const posix = (p: string) => p.split(path.sep).join('/');
    return match(posix(path.relative(folder.path, file))) || match(posix(path.resolve(file)).replace(/^\/+/, ''));
  }

  /** Every route name of the workspace's route files: one set, made again only when a file's names change (it is read on every edit). */
  knownNames(): ReadonlySet<string> {
    if (!this.known) {
      const all = new Set<string>();
      for (const names of this.routeNames.values()) for (const n of names) all.add(n);
      this.known = all;
    }
    return this.known;
  }

  /**
   * For each name the route files declare only past an error where PHP stops (see
   * namesPastErrors): the message a usage elsewhere gets, naming that cause.
   */
  namesPastErrors(): ReadonlyMap<string, string> {
    if (!this.pastErrorsAll) {
      this.pastErrorsAll = this.pastErrors.size === 0 ? new Map() : pastErrorMessages([...this.routeNames].map(([file, names]) => ({ names, pastErrors: this.pastErrors.get(file) ?? NO_PAST_ERRORS })));
    }
    return this.pastErrorsAll;
  }

  /** Notes the file's names declared past errors; those that changed go into `changed`. */
  private recordPastErrors(file: string, text: string, evaluation: FileEvaluation, changed: Set<string>): void {
    const before = this.pastErrors.get(file) ?? NO_PAST_ERRORS;
    if (evaluation.fatals.length === 0 && before.size === 0) return;
    const folder = this.folderOf(file);
    const now = pastErrorMessagesOf(evaluation, text, folder ? path.relative(folder.path, file) : file);
    if (now.size) this.pastErrors.set(file, now);
    else this.pastErrors.delete(file);
    let differ = false;
    for (const [name, message] of now) if (before.get(name) !== message) (differ = true), changed.add(name);
    for (const name of before.keys()) if (!now.has(name)) (differ = true), changed.add(name);
    if (differ) this.pastErrorsAll = undefined;
  }

  /** Whether knownNames() holds every name: no route file stopped at an analysis limit. Name findings are guesses otherwise. */
  namesComplete(): boolean {
    return this.partialNames.size === 0 && this.appBeyondFolder.size === 0;
  }

  routeFiles(): string[] {
    return [...this.routeNames.keys()].sort();
  }

  /** Re-reads one route file from disk (or the open document's text) and records its names. */
  updateRouteFile(file: string, text?: string): boolean {
    // An editor's text is what the index holds of an open file (learnt with each of its
    // evaluations): the disk's older one would take its names' places back (the first scan
    // reaching a file opened and edited meanwhile did). Over ciRoutes.maxFileSize, the editor's
    // analysis skips it: the disk read says so to the index as for a closed file.
    const maxBytes = this.folderOf(file)?.settings.maxFileSize ?? DEFAULT_MAX_BYTES;
    const editors = this.evaluator.isOpen(file) ? this.held.get(file) : undefined;
    if (text === undefined && editors && editors.text.length <= maxBytes) return false;
    let source = text;
    if (source === undefined) {
      try {
        source = readRegularFile(file, maxBytes);
      } catch (e) {
        // Too large (over ciRoutes.maxFileSize), outside the workspace, or gone.
        const tooLarge = e instanceof UnreadableFile && e.code === 'EFBIG';
        if (tooLarge) this.log(`route file not indexed: ${e.message} (ciRoutes.maxFileSize): raise the setting to analyse it; Route::named() is not checked until then`);
        else if (e instanceof UnreadableFile && e.code === 'EOUTSIDE') this.log(`route file not indexed: ${e.message}`);
        const changed = this.removeFile(file);
        // Its names exist for PHP, not for the index.
        if (tooLarge) this.partialNames.add(file);
        return changed;
      }
    }
    const folder = this.folderOf(file);
    const { dialect, constants, includes, environmentRoutes, php, constantsComplete } = this.applications.setupFor(file, { dialect: folder?.settings.dialect, router: folder?.settings.router, constants: Object.entries(folder?.settings.constants ?? {}), phpVersion: folder?.settings.phpVersion });
    const evaluation = this.evaluator.evaluateFile(file, source, { dialect, constants, file, maxSteps: folder?.settings.maxSteps, maxMilliseconds: folder?.settings.maxEvaluationMs, maxRoutes: folder?.settings.maxRoutes, includes, environmentRoutes, recover: true, phpVersion: php.version, constantsComplete });
    return this.recordRouteFile(file, source, evaluation);
  }

  /**
   * Records a route file from an evaluation made elsewhere (the open document's analysis), so
   * an edit costs one evaluation, not two. Returns whether its route names changed.
   */
  recordRouteFile(file: string, text: string, evaluation: FileEvaluation): boolean {
    return this.recordRouteNames(file, text, evaluation).size > 0;
  }

  /** recordRouteFile, returning the route names the file gained or lost. */
  recordRouteNames(file: string, text: string, evaluation: FileEvaluation): Set<string> {
    // The version it already holds (an open file's is learnt when evaluated, then again when its
    // analysis publishes): nothing changed, and what was derived from it stays.
    const held = this.held.get(file);
    if (held && held.evaluation === evaluation && held.text === text && this.routeNames.has(file) && !this.rederiving) {
      this.used(file);
      return new Set();
    }
    if (!this.rederiving) this.changedRoutes(file);
    this.declarations.set(file, new EvaluatedDeclarations(text, evaluation));
    this.routeFileUsages.delete(file);
    this.noteApplicationBeyondFolder(file);
    if (namesAreComplete(evaluation)) this.partialNames.delete(file);
    else if (!this.partialNames.has(file)) {
      this.partialNames.add(file);
      this.log(`${file} is not evaluated to the end (see its evaluation-limit diagnostic): Route::named() is not checked until it is`);
    }
    this.moduleKeys.record(file, evaluation);
    const appDir = this.applications.applicationDirOf(file);
    if (isMainRouteFile(file, appDir)) this.onMainRoutes(appDir!);
    const changed = new Set<string>();
    // An edit that leaves the names alone leaves their records the same objects: comparing those
    // costs less than building the set of names and comparing sets (2 ms at 10,000 declarations).
    const records = namedRecordsOf(evaluation);
    const before = this.held.get(file)?.namedRecords;
    this.held.set(file, { text, evaluation, namedRecords: records });
    this.used(file);
    this.recordPastErrors(file, text, evaluation, changed);
    // The same named records: each name has the same pattern and methods (what allNames() reads).
    if (before && sameItems(before, records) && this.routeNames.has(file)) return changed;
    this.declarationsVersion++;
    const old = this.routeNames.get(file) ?? new Set<string>();
    const names = namesOfRecords(records);
    this.routeNames.set(file, names);
    for (const n of names) if (!old.has(n)) changed.add(n);
    for (const n of old) if (!names.has(n)) changed.add(n);
    if (changed.size) this.known = undefined;
    return changed;
  }

  /**
   * A route file of a workspace folder whose application folder the fence keeps out (it lies above
   * the folder): the application's other route files, which may declare the names used here, are
   * out of reach, so a name missing from the index is no evidence of a mistake.
   */
  private noteApplicationBeyondFolder(file: string): void {
    const appDir = this.applications.applicationDirOf(file);
    const beyond = appDir !== undefined && this.folderOf(file) !== undefined && !mayRead(appDir);
    if (!beyond) {
      this.appBeyondFolder.delete(file);
      return;
    }
    if (this.appBeyondFolder.has(file)) return;
    this.appBeyondFolder.add(file);
    this.log(`${file}: its application folder ${appDir} reaches beyond the workspace folders, so its module route files cannot be read: Route::named() is not checked (open the application's folder to check it)`);
  }

  /** A held file was just used: closed files count against the budget, the least recently used beyond it are let go. */
  private used(file: string): void {
    const held = this.held.get(file);
    if (!held) return;
    if (this.evaluator.isOpen(file)) {
      this.closedHeld.delete(file);
      return;
    }
    for (const old of this.closedHeld.touch(file, held.text.length)) this.letGo(old);
  }

  /**
   * Keeps of a closed route file only what needs no evaluation: its names (kept anyway), where
   * they are declared and its `Route::named()` uses. Its evaluator goes too.
   */
  private letGo(file: string): void {
    const held = this.held.get(file);
    if (!held || this.evaluator.isOpen(file)) return;
    const declarations = this.declarations.get(file);
    if (declarations instanceof EvaluatedDeclarations) this.declarations.set(file, declarations.compact());
    const uses = mayNeedIndexing(held.text) ? indexPhpFile(held.text).namedUsages : [];
    if (uses.length) this.routeFileUsages.set(file, uses);
    this.held.delete(file);
    this.closedHeld.delete(file);
    this.evaluator.forget(file);
    this.letGoCount++;
  }

  /**
   * A route file's text and evaluation: the held ones, else read and evaluated again (the file
   * then counts as used last). Undefined when it is not a route file of the index or is gone.
   */
  inputOf(file: string): { text: string; evaluation: FileEvaluation } | undefined {
    if (this.held.has(file)) {
      this.used(file);
      return this.held.get(file);
    }
    if (!this.routeNames.has(file)) return undefined;
    this.rederivedCount++;
    this.rederiving = true;
    try {
      this.updateRouteFile(file);
    } finally {
      this.rederiving = false;
    }
    return this.held.get(file);
  }

  /** Sets how much closed route source stays evaluated (see DEFAULT_EVALUATION_BUDGET_BYTES). */
  setEvaluationBudget(bytes: number): void {
    for (const old of this.closedHeld.setBudget(bytes)) this.letGo(old);
  }

  /** What the index holds (see IndexStats). */
  stats(): IndexStats {
    return {
      routeFiles: this.routeNames.size,
      held: this.held.size,
      heldClosed: this.closedHeld.size,
      heldClosedBytes: this.closedHeld.weight,
      heldClosedFiles: this.closedHeld.keys(),
      budgetBytes: this.closedHeld.budget,
      letGo: this.letGoCount,
      rederived: this.rederivedCount,
    };
  }

  /** Every declaration of a route name across the workspace's route files. */
  declarationsOf(name: string): { file: string; line: number; character: number; endLine: number; endCharacter: number; from: string; target: string; dispatches: boolean; methods: string[] }[] {
    const out = [];
    for (const [file, d] of this.declarations) {
      const decl = d.get(name);
      // A declaration in a file the route file included lies in that file.
      if (decl) out.push({ ...decl, file: decl.file ?? file });
    }
    return out;
  }

  /** A number that changes whenever allNames() may answer differently. */
  namesVersion(): number {
    return this.declarationsVersion;
  }

  /** Every route name with the pattern it returns, across the workspace. */
  allNames(): Map<string, { from: string; methods: string[] }> {
    const out = new Map<string, { from: string; methods: string[] }>();
    for (const d of this.declarations.values()) for (const [name, decl] of d.entries()) if (!out.has(name)) out.set(name, { from: decl.from, methods: decl.methods });
    return out;
  }

  /** The route files whose evaluation is held, with it (priming works on these, and evaluates nothing again). */
  heldRouteFileInputs(): RouteFileInput[] {
    return [...this.held.entries()].map(([file, v]) => ({ file, text: v.text, evaluation: v.evaluation }));
  }

  /**
   * Every route file (or those `wanted`), each evaluated when its evaluation is first read: a file
   * let go is then read and evaluated again (inputOf), one at a time, so that a walk over them
   * holds the budget's worth and the file it reads, not every evaluation at once.
   */
  routeFileInputs(wanted: (file: string) => boolean = () => true): RouteFileInput[] {
    // The held ones as they are now: reading a file let go may let them go in turn.
    return this.routeFiles()
      .filter(wanted)
      .map((file) => {
        const held = this.held.get(file);
        return held ? { file, text: held.text, evaluation: held.evaluation } : lazyInput(file, this);
      });
  }

  /**
   * The inputs `nameReferences` and `renameName` need for these route names: the route files that
   * declare one of them or are held, in full; the `Route::named()` uses of the other files, kept
   * when their text was let go, so that nothing is evaluated again for them.
   */
  referenceInputs(names: readonly string[]): { routeFiles: RouteFileInput[]; usages: { file: string; usages: NamedUsage[] }[] } {
    const full = (file: string) => this.held.has(file) || names.some((n) => this.routeNames.get(file)?.has(n) || this.declarations.get(file)?.get(n) !== undefined);
    const usages = [...this.routeFileUsages.entries()].filter(([file]) => !full(file)).map(([file, list]) => ({ file, usages: list }));
    return { routeFiles: this.routeFileInputs(full), usages };
  }

  /** A route file's text, held or read from disk (nothing evaluated); '' when it cannot be read. */
  textOf(file: string): string {
    const held = this.held.get(file);
    if (held) return held.text;
    try {
      return readRegularFile(file, this.folderOf(file)?.settings.maxFileSize ?? DEFAULT_MAX_BYTES);
    } catch {
      return '';
    }
  }

  /**
   * A number that changes whenever the route file's routes may have changed (0 for a file the
   * index does not hold): what was derived from its evaluation is still good while it stays.
   */
  routeFileVersion(file: string): number {
    return this.versions.get(file) ?? 0;
  }

  private changedRoutes(file: string): void {
    this.versions.set(file, this.nextVersion++);
    this.onRouteFileChanged(file);
  }

  removeFile(file: string): boolean {
    if (this.versions.delete(file)) this.onRouteFileChanged(file);
    this.evaluator.forget(file);
    this.held.delete(file);
    this.closedHeld.delete(file);
    this.routeFileUsages.delete(file);
    this.partialNames.delete(file);
    this.appBeyondFolder.delete(file);
    if (this.declarations.delete(file)) this.declarationsVersion++;
    this.usages.delete(file);
    this.scanned.delete(file);
    this.known = undefined;
    if (this.pastErrors.delete(file)) this.pastErrorsAll = undefined;
    this.moduleKeys.remove(file);
    return this.routeNames.delete(file);
  }

  /** Files known to call Route::named(), with their usages. */
  usageFiles(): [string, NamedUsage[]][] {
    return [...this.usages.entries()];
  }

  /** Re-reads a PHP file that is not a route file (or uses the open document's text). */
  updatePhpFile(file: string, text?: string): NamedUsage[] {
    // Requests on an open document ask again for the same text (hover, completion, definition).
    if (text !== undefined && this.scanned.get(file) === text) return this.usages.get(file) ?? [];
    this.scanned.delete(file);
    let source = text;
    if (source === undefined) {
      try {
        source = readRegularFile(file, this.folderOf(file)?.settings.maxFileSize ?? DEFAULT_MAX_BYTES);
      } catch {
        this.usages.delete(file);
        return [];
      }
    }
    // The lexical scan is exact on valid files and about ten times faster than a full parse.
    const found = mayNeedIndexing(source) ? indexPhpFile(source, { parser: false }).namedUsages : [];
    if (found.length) this.usages.set(file, found);
    else this.usages.delete(file);
    if (text !== undefined) this.scanned.set(file, text);
    return found;
  }

  /** The open text each PHP file's usages were last scanned from (files read from disk are not kept). */
  private readonly scanned = new Map<string, string>();

  /** Walks every folder for route files; yields to the event loop so requests are served meanwhile. */
  async scan(progress: ScanProgress): Promise<number> {
    const found: string[] = [];
    const phpFiles: string[] = [];
    for (const folder of this.folders()) {
      let visited = 0;
      for (const entry of walkFiles(folder.path, { skipFolder: isNotApplicationCode })) {
        if (++visited > MAX_FILES) break;
        if (visited % 500 === 0) {
          await realTimers.nextTurn();
          if (progress.isCancelled()) return found.length;
        }
        if (entry.kind !== 'file') continue;
        if (entry.name === 'routes.php' && this.matchesRouteFiles(folder, entry.path)) found.push(entry.path);
        else if (entry.name.endsWith('.php')) phpFiles.push(entry.path);
      }
    }
    let done = 0;
    const total = found.length + phpFiles.length;
    for (const file of found) {
      if (progress.isCancelled()) break;
      this.updateRouteFile(file);
      done++;
      progress.report(Math.round((done / total) * 100), `${done}/${found.length} route files`);
      await realTimers.nextTurn();
    }
    for (const file of phpFiles) {
      if (progress.isCancelled()) break;
      this.updatePhpFile(file);
      done++;
      if (done % 50 === 0) {
        progress.report(Math.round((done / total) * 100), `${done - found.length}/${phpFiles.length} PHP files`);
        await realTimers.nextTurn();
      }
    }
    return found.length;
  }
}

/** A route file's input whose evaluation is read from the index when first asked for (see routeFileInputs). */
function lazyInput(file: string, index: WorkspaceIndex): RouteFileInput {
  let text: string | undefined;
  /** An empty evaluation, for a route file that could not be read again. */
  let nothing: FileEvaluation | undefined;
  return {
    file,
    get text() {
      return (text ??= index.textOf(file));
    },
    get evaluation() {
      const input = index.inputOf(file);
      if (input) text = input.text;
      return input?.evaluation ?? (nothing ??= evaluateRouteFile('', {}));
    },
  };
}
