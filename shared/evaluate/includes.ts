import * as nodePath from 'node:path';
import { SYSTEM_PATH_UNKNOWN } from '../runtime/constants';
import type { IncludedFile, PhpNode, Span } from '../php/ast';
import { LineIndex } from '../php/line-index';
import { StatementParser, type ParsedFile } from '../php/parse';
import { PhpArray, PerMethod, Unknown, type Value } from '../runtime/values';

/** A file an include names, as the host read it, or why it could not be read. */
export type IncludeRead = { file: string; text: string } | { unreadable: string; missing?: boolean };

/**
 * The host's files as include/require and glob() see them: the engine does no I/O itself. Hosts
 * read through their read fence, with a size cap; a path they will not read is `unreadable`.
 */
export interface IncludeFiles {
  /**
   * PHP's working directory while routes load: the front controller's folder (the web server
   * runs it there; CodeIgniter's index.php chdir()s there on the command line). Undefined when
   * no front controller was found: paths PHP takes from it are then not known.
   */
  readonly workingDir?: string;
  /**
   * The file `path` names, read from `fromFile` (a relative path is taken from the including
   * file's folder; Includes decides which folder PHP tries first): its path, the same for every
   * spelling of it (what `_once` compares), and its text.
   */
  read(path: string, fromFile: string): IncludeRead;
  /** glob(): the paths matching `pattern` (from the folder `baseDir` when relative), sorted as PHP sorts them; with `onlyDirs` (GLOB_ONLYDIR) folders only. */
  glob(pattern: string, baseDir: string, options?: { onlyDirs?: boolean }): readonly string[] | { unreadable: string };
  /** scandir() of an absolute path: the names in the folder, `.` and `..` included, in no particular order; `missing` when it is no folder. */
  list?(dir: string): readonly string[] | { missing: true } | { unreadable: string };
  /** What an absolute path is, for is_dir(), is_file() and file_exists(). */
  kind?(file: string): 'file' | 'dir' | 'none' | { unreadable: string };
}

/** An application's environment and the path of its route file (which may not exist). */
export interface EnvironmentRoutes {
  environment: string;
  path: string;
}

/** Files being included inside one another at most (PHP recurses until memory runs out). */
export const MAX_INCLUDE_DEPTH = 8;

/** What the interpreter lends the include handling. */
export interface IncludeHost {
  /** The file running now (the evaluated one, or the included one being run). */
  currentFile(): string;
  /** Runs an included file's statements in the current scope; returns what include gives (its top-level `return`, else 1). */
  runIncluded(parsed: ParsedFile, source: IncludedFile): Value;
  /** An include that was not evaluated: the table may lack routes it declares. */
  unresolved(message: string, span: Span): void;
  /** Pays for work in steps (reading a file costs its size). */
  charge(units: number): void;
}

/**
 * include, require, include_once, require_once and glob() for one run of the interpreter: the
 * included file's statements run in the includer's scope, `_once` runs a file once, and a path
 * that cannot be computed or read, a cycle or a nesting too deep is reported at the include and
 * evaluates to Unknown (PHP would go on, or stop with a fatal error: either way the routes of that
 * file are not known).
 */
export class Includes {
  /** Every file run, in order (an evaluation's input besides its own text). */
  readonly read: IncludedFile[] = [];
  /** An include or glob() asked for files (read or not): a change on disk may change the evaluation. */
  asked = false;
  private readonly once = new Set<string>();
  private readonly running: string[] = [];
  /** The parser of a run without the document's (made when first needed: a parser is costly to make). */
  private ownParser: StatementParser | undefined;

  constructor(
    private readonly files: IncludeFiles | undefined,
    private readonly host: IncludeHost,
    evaluatedFile: string,
    /** The document's parser, whose caches included files are parsed with; a parser of this run's own otherwise. */
    private readonly documentParser?: StatementParser,
  ) {
    // PHP counts the script itself as included: include_once of it does nothing.
    this.once.add(evaluatedFile);
  }

  /** Whether an include ran: what follows depends on other files' text too. */
  get ran(): boolean {
    return this.read.length > 0;
  }

  /** An include expression whose target evaluated to `target`. */
  include(node: PhpNode, target: Value, span: Span): Value {
    const what = `${node.require ? 'require' : 'include'}${node.once ? '_once' : ''}`;
    this.asked = true;
    const path = pathOf(target);
    // A file of CodeIgniter's system/ folder (`require_once BASEPATH . 'database/DB.php'`, to read
    // routes from the database): framework code, which declares no route. What it defines is unknown.
    if (typeof path !== 'string' && path.reason === SYSTEM_PATH_UNKNOWN) return new Unknown(`${what} of a CodeIgniter system file is not evaluated (it declares no route)`, span);
    if (typeof path !== 'string') return this.fail(`${what} of a path that cannot be known statically (${path.reason})`, span);
    if (!this.files) return this.fail(`${what} '${path}' is not evaluated here (no files to read)`, span);
    const found = this.lookUp(path);
    if ('unreadable' in found) {
      const fatal = node.require ? ' (PHP would stop here with a fatal error)' : '';
      return this.fail(`${what} '${path}' cannot be evaluated: ${found.unreadable}${fatal}`, span);
    }
    if (node.once && this.once.has(found.file)) return true;
    return this.run(what, path, found, span);
  }

  /**
   * The file an include of `path` opens, as PHP looks for it: an absolute path as it is; `./` and
   * `../` from the working directory; any other relative path through include_path (its `.`, the
   * working directory) and then the running file's folder.
   */
  private lookUp(path: string): IncludeRead {
    const files = this.files!;
    const from = this.host.currentFile();
    if (nodePath.isAbsolute(path)) return files.read(path, from);
    const cwd = files.workingDir;
    if (/^\.\.?[\\/]/.test(path)) {
      return cwd === undefined ? { unreadable: WORKING_DIR_UNKNOWN } : files.read(nodePath.join(cwd, path), from);
    }
    if (cwd === undefined) return files.read(path, from);
    const inCwd = files.read(nodePath.join(cwd, path), from);
    if (!('unreadable' in inCwd) || !inCwd.missing) return inCwd;
    const beside = files.read(path, from);
    return 'unreadable' in beside && beside.missing ? { unreadable: `no such file in the working directory ${cwd} nor beside ${from}`, missing: true } : beside;
  }

  /**
   * CodeIgniter's router's `include` of the environment's route file after the main one, in the
   * same scope (CI_Router::_set_routing): nothing when the file does not exist (its file_exists()).
   */
  includeEnvironmentRoutes(path: string, environment: string, span: Span): void {
    this.asked = true;
    if (!this.files) return;
    const found = this.files.read(path, this.host.currentFile());
    if ('unreadable' in found) {
      if (!found.missing) this.fail(`the route file of the environment '${environment}' (${path}), which CodeIgniter's router includes after this file, cannot be evaluated: ${found.unreadable}`, span);
      return;
    }
    this.run('include', path, found, span, environment);
  }

  private run(what: string, path: string, found: { file: string; text: string }, span: Span, environment?: string): Value {
    if (this.running.includes(found.file)) {
      return this.fail(`${what} '${path}' includes ${found.file} again while it runs (a cycle: PHP would recurse without end)`, span);
    }
    if (this.running.length >= MAX_INCLUDE_DEPTH) return this.fail(`${what} '${path}' nests includes more than ${MAX_INCLUDE_DEPTH} deep`, span);
    this.host.charge(found.text.length);
    const parsed = this.documentParser ? this.documentParser.parseIncluded(found.file, found.text) : (this.ownParser ??= new StatementParser()).parse(found.text);
    const source: IncludedFile = environment === undefined ? { path: found.file, text: found.text, includedAt: span } : { path: found.file, text: found.text, includedAt: span, environment };
    const broken = parsed.problems[0];
    if (broken) {
      const line = LineIndex.of(found.text).lineOf(broken.span.start) + 1;
      return this.fail(`${what} '${path}': ${found.file} has a syntax error on line ${line} (${broken.message}): PHP would stop here with a ParseError`, span);
    }
    this.once.add(found.file);
    this.read.push(source);
    this.running.push(found.file);
    try {
      return this.host.runIncluded(parsed, source);
    } finally {
      this.running.pop();
    }
  }

  /** glob($pattern[, $flags]): the matching paths; Unknown for flags other than GLOB_ONLYDIR, or a pattern that cannot be known. */
  glob(args: Value[], span: Span): Value {
    this.asked = true;
    const [pattern, flags] = args;
    if (flags !== undefined && flags !== 0 && flags !== GLOB_ONLYDIR) return new Unknown('glob() with flags other than GLOB_ONLYDIR is not evaluated', span);
    const p = pathOf(pattern ?? null);
    if (typeof p !== 'string') return new Unknown(`glob() of a pattern that cannot be known statically (${p.reason})`, span);
    if (!this.files) return new Unknown('glob() is not evaluated here (no files to list)', span);
    // A relative pattern is taken from the working directory, as the C library's glob() does.
    const cwd = this.files.workingDir;
    if (!nodePath.isAbsolute(p) && cwd === undefined) return new Unknown(`glob('${p}') cannot be evaluated: ${WORKING_DIR_UNKNOWN}`, span);
    const found = this.files.glob(p, cwd ?? '/', flags === GLOB_ONLYDIR ? { onlyDirs: true } : undefined);
    if ('unreadable' in found) return new Unknown(`glob('${p}') cannot be evaluated: ${found.unreadable}`, span);
    this.host.charge(found.length);
    return PhpArray.fromList([...found]);
  }

  /**
   * scandir($dir[, $order]): the folder's names sorted as PHP sorts them (by bytes; descending
   * with SCANDIR_SORT_DESCENDING), false for a folder that is not there (PHP warns). Only an
   * absolute path is read: a relative one is taken from the front controller's working folder.
   */
  scandir(args: Value[], span: Span): Value {
    this.asked = true;
    const [dir, order] = args;
    if (order !== undefined && order !== 0 && order !== 1) return new Unknown('scandir() without sorting is not evaluated (the order is the file system\'s)', span);
    const p = this.absolute('scandir', dir, span);
    if (p instanceof Unknown) return p;
    const found = this.files!.list!(p);
    if ('unreadable' in found) return new Unknown(`scandir('${p}') cannot be evaluated: ${found.unreadable}`, span);
    if ('missing' in found) return false;
    this.host.charge(found.length);
    const sorted = [...found].sort(byBytes);
    return PhpArray.fromList(order === 1 ? sorted.reverse() : sorted);
  }

  /** is_dir(), is_file() or file_exists() of an absolute path. */
  fileTest(fn: 'is_dir' | 'is_file' | 'file_exists', args: Value[], span: Span): Value {
    this.asked = true;
    const p = this.absolute(fn, args[0] ?? null, span);
    if (p instanceof Unknown) return p;
    const kind = this.files!.kind!(p);
    if (typeof kind !== 'string') return new Unknown(`${fn}('${p}') cannot be evaluated: ${kind.unreadable}`, span);
    return fn === 'is_dir' ? kind === 'dir' : fn === 'is_file' ? kind === 'file' : kind !== 'none';
  }

  /** The absolute path a file function was given (a relative one from the working directory), or why it is not read. */
  private absolute(fn: string, v: Value, span: Span): string | Unknown {
    const p = pathOf(v);
    if (typeof p !== 'string') return new Unknown(`${fn}() of a path that cannot be known statically (${p.reason})`, span);
    if (!this.files?.list || !this.files.kind) return new Unknown(`${fn}() is not evaluated here (no files to read)`, span);
    if (nodePath.isAbsolute(p)) return p;
    const cwd = this.files.workingDir;
    if (cwd === undefined) return new Unknown(`${fn}('${p}') of a relative path is not evaluated: ${WORKING_DIR_UNKNOWN}`, span);
    return nodePath.join(cwd, p);
  }

  private fail(message: string, span: Span): Unknown {
    this.host.unresolved(message, span);
    return new Unknown(message, span);
  }
}

/** Why a path PHP takes from its working directory is not known. */
const WORKING_DIR_UNKNOWN = "PHP takes it from the working directory, the front controller's folder, and no index.php was found beside the application folder";

/** PHP's GLOB_ONLYDIR on Linux. */
const GLOB_ONLYDIR = 8192;

/** PHP sorts scandir()'s names as strcmp() does (the C locale): by their UTF-8 bytes, which is code point order. */
function byBytes(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** A path as a string, or why it is not one. */
function pathOf(v: Value): string | Unknown {
  if (typeof v === 'string') return v;
  if (v instanceof Unknown) return v;
  if (v instanceof PerMethod) return new Unknown('it differs between request methods');
  return new Unknown('it is not a string');
}
