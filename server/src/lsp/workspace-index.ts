import * as path from 'node:path';
import picomatch from 'picomatch';
import { namedRecordsOf, namesAreComplete, namesOfRecords } from '../../../shared/analysis/diagnostics/checks/named';
import type { RouteRecord } from '../../../shared/library/records';
import { nameDeclarations } from '../../../shared/analysis/produced';
import type { Span } from '../../../shared/php/ast';
import { LineIndex } from '../../../shared/php/line-index';
import { sameItems } from '../../../shared/util/same-items';
import { evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { RouteFileEvaluator } from './route-service';
import { indexPhpFile, mayNeedIndexing, type NamedUsage } from '../../../shared/workspace/php-index';
import type { FolderSettings } from '../../../shared/workspace/settings';
import { applicationDirOf, constantsOfApp, detectDialect } from '../host/route-file';
import { readRegularFile, UnreadableFile } from '../host/safe-read';
import { isNotApplicationCode, walkFiles } from '../host/walk-files';

/** Each route file evaluated on its own, nothing kept. */
const ONE_OFF: RouteFileEvaluator = { evaluateFile: (_file, text, options) => evaluateRouteFile(text, options), forget: () => undefined };

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
  /** Route files whose evaluation stopped at an analysis limit: their names may be partial (see namesAreComplete). */
  private readonly partialNames = new Set<string>();
  /** knownNames(), until a file's names change. */
  private known: Set<string> | undefined;
  /** Route file path → its text and evaluation as last read (references and rename read them). */
  private readonly inputs = new Map<string, { text: string; evaluation: FileEvaluation }>();
  /** Route file path → the records that name its routes (see recordRouteNames). */
  private readonly namedRecords = new Map<string, readonly RouteRecord[]>();
  /** Route file path → where each of its names is declared (for definition and hover). */
  private readonly declarations = new Map<string, FileDeclarations>();
  /** Other PHP file path → its `Route::named()` usages (only files that have some). */
  private readonly usages = new Map<string, NamedUsage[]>();
  private matchers = new Map<string, (rel: string) => boolean>();
  /** Changes whenever a route file's declarations do (what allNames() returns may differ). */
  private declarationsVersion = 0;

  constructor(
    private readonly folders: () => { path: string; settings: FolderSettings }[],
    /** Where to say why a route file on disk was left out (too large, outside the workspace…). */
    private readonly log: (message: string) => void = () => undefined,
    /** Evaluates the route files read (the server shares each file's evaluator with its open document). */
    private readonly evaluator: RouteFileEvaluator = ONE_OFF,
  ) {}

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
    return this.matcher(folder.settings.routeFiles)(path.relative(folder.path, file).split(path.sep).join('/'));
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

  /** Whether knownNames() holds every name: no route file stopped at an analysis limit. Name findings are guesses otherwise. */
  namesComplete(): boolean {
    return this.partialNames.size === 0;
  }

  routeFiles(): string[] {
    return [...this.routeNames.keys()].sort();
  }

  /** Re-reads one route file from disk (or the open document's text) and records its names. */
  updateRouteFile(file: string, text?: string): boolean {
    let source = text;
    if (source === undefined) {
      try {
        source = readRegularFile(file, this.folderOf(file)?.settings.maxFileSize ?? DEFAULT_MAX_BYTES);
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
    const appDir = applicationDirOf(file);
    const folder = this.folderOf(file);
    const constants = constantsOfApp(appDir);
    for (const [k, v] of Object.entries(folder?.settings.constants ?? {})) constants.set(k, v);
    const dialect = folder && folder.settings.dialect !== 'auto' ? folder.settings.dialect : detectDialect(appDir).dialect;
    const evaluation = this.evaluator.evaluateFile(file, source, { dialect, constants, file, maxSteps: folder?.settings.maxSteps, maxMilliseconds: folder?.settings.maxEvaluationMs, maxRoutes: folder?.settings.maxRoutes });
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
    this.declarations.set(file, new FileDeclarations(text, evaluation));
    this.declarationsVersion++;
    this.inputs.set(file, { text, evaluation });
    if (namesAreComplete(evaluation)) this.partialNames.delete(file);
    else if (!this.partialNames.has(file)) {
      this.partialNames.add(file);
      this.log(`${file} is not evaluated to the end (see its evaluation-limit diagnostic): Route::named() is not checked until it is`);
    }
    const changed = new Set<string>();
    // An edit that leaves the names alone leaves their records the same objects: comparing those
    // costs less than building the set of names and comparing sets (2 ms at 10,000 declarations).
    const records = namedRecordsOf(evaluation);
    const before = this.namedRecords.get(file);
    this.namedRecords.set(file, records);
    if (before && sameItems(before, records) && this.routeNames.has(file)) return changed;
    const old = this.routeNames.get(file) ?? new Set<string>();
    const names = namesOfRecords(records);
    this.routeNames.set(file, names);
    for (const n of names) if (!old.has(n)) changed.add(n);
    for (const n of old) if (!names.has(n)) changed.add(n);
    if (changed.size) this.known = undefined;
    return changed;
  }

  /** Every declaration of a route name across the workspace's route files. */
  declarationsOf(name: string): { file: string; line: number; character: number; endLine: number; endCharacter: number; from: string; methods: string[] }[] {
    const out = [];
    for (const [file, d] of this.declarations) {
      const decl = d.names().get(name);
      if (!decl) continue;
      const a = d.lines().position(decl.span.start);
      const b = d.lines().position(decl.span.end);
      out.push({ file, line: a.line, character: a.character, endLine: b.line, endCharacter: b.character, from: decl.from, methods: decl.methods });
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
    for (const d of this.declarations.values()) for (const [name, decl] of d.names()) if (!out.has(name)) out.set(name, { from: decl.from, methods: decl.methods });
    return out;
  }

  /** Every route file with its text and evaluation (for references and rename). */
  routeFileInputs(): { file: string; text: string; evaluation: FileEvaluation }[] {
    return [...this.inputs.entries()].map(([file, v]) => ({ file, ...v }));
  }

  removeFile(file: string): boolean {
    this.evaluator.forget(file);
    this.namedRecords.delete(file);
    this.inputs.delete(file);
    this.partialNames.delete(file);
    if (this.declarations.delete(file)) this.declarationsVersion++;
    this.usages.delete(file);
    this.scanned.delete(file);
    this.known = undefined;
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
      const match = this.matcher(folder.settings.routeFiles);
      let visited = 0;
      for (const entry of walkFiles(folder.path, { skipFolder: isNotApplicationCode })) {
        if (++visited > MAX_FILES) break;
        if (visited % 500 === 0) {
          await new Promise((r) => setImmediate(r));
          if (progress.isCancelled()) return found.length;
        }
        if (entry.kind !== 'file') continue;
        if (entry.name === 'routes.php' && match(entry.rel)) found.push(entry.path);
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
      await new Promise((r) => setImmediate(r));
    }
    for (const file of phpFiles) {
      if (progress.isCancelled()) break;
      this.updatePhpFile(file);
      done++;
      if (done % 50 === 0) {
        progress.report(Math.round((done / total) * 100), `${done - found.length}/${phpFiles.length} PHP files`);
        await new Promise((r) => setImmediate(r));
      }
    }
    return found.length;
  }
}

/**
 * A route file's name declarations, read when first asked for (a definition, a completion): an
 * edit publishes its diagnostics without scanning every record for names and spans.
 */
class FileDeclarations {
  private lineIndex: LineIndex | undefined;

  constructor(
    private readonly text: string,
    private readonly evaluation: FileEvaluation,
  ) {}

  names(): ReadonlyMap<string, { span: Span; from: string; methods: string[] }> {
    return nameDeclarations(this.evaluation);
  }

  lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }
}
