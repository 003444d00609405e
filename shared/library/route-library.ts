import { routeApi } from './route-api';
import { PhpFatal, toBool, toInt, toKey, toPhpString, sameValue, type WarningSink } from '../runtime/convert';
import { PerMethod, PhpArray, PhpClosure, Unknown, normalizeStringKey, typeName, type Key, type Value } from '../runtime/values';
import { DEFAULT_MAX_ROUTES, EvaluationLimit } from '../runtime/limits';
import { UNITS_PER_STEP } from '../runtime/work-meter';
import { REQUEST_METHODS, methodsIn, type MethodIndex, type MethodMask } from '../runtime/methods';
import { DYNAMIC_KEY_PREFIX, newRecord, setUnknownPath, type RecordedSite, type CallTick, type EntryOriginInfo, type ExpansionRow, type RecordFields, type RouteRecord } from './records';
import { RecordTable, type BelowLookups, type RecentTables } from './record-table';
import { CallRecords } from './call-records';
import { RecordMarks } from './record-marks';
import { MappedRoutes, RecentOverlaps } from './mapped-routes';
import { NamedRoutes } from './named-routes';
import { withThousands } from '../util/without-icu';

/** Which version of the library: they differ only in context()'s home route. */
/**
 * Which Route class the route files call: the library as specified, Bonfire's version of it, or
 * `other`: the application's own class named Route, not the library (its calls are not evaluated).
 */
export type Dialect = 'spec' | 'bonfire' | 'other';

/**
 * Raised when request methods take different paths; the engine then evaluates each method alone.
 * `stops`: the methods whose evaluation cannot go on here, all alike (an unknown callback); when
 * they are all the methods being evaluated, there is nothing to split and the run stops as one.
 */
export class Diverge extends Error {
  constructor(
    readonly why: string,
    readonly stops?: MethodMask,
  ) {
    super(why);
  }
}

/** What the library needs from the evaluator. */
export interface LibraryHost {
  /** Calls a PHP callable with no arguments, evaluating only the given methods. */
  invoke(callable: Value, mask: MethodMask, via: RecordedSite): void;
  isCallable(v: Value): boolean;
  warn(message: string, mask: MethodMask): void;
  /** True while evaluating a branch whose condition is unknown. */
  readonly conditional: boolean;
  /** The undecidable-condition branches being evaluated, outermost first. */
  readonly branches: readonly string[];
  /** The file name PHP would print in messages. */
  readonly file: string;
  /** 1-based line of a document offset, for PHP-style messages. */
  lineAt(offset: number): number;
  /** Pays for work in steps (see runtime/work-meter.ts); throws past the budget. */
  charge(units: number): void;
}

/**
 * The library's own work is paid in steps too (see runtime/work-meter.ts): a route record costs
 * about as much as a dozen interpreter steps to make and store (measured: about 2 µs against
 * 0.16 µs). A call site's first FREE_UNITS_PER_SITE under each request method in a top-level
 * statement are paid by the statement's own steps: a declaration expands to a few dozen records,
 * a loop over the application's modules to a few hundred. Past that, a loop of `Route::context()`
 * pays for its records, and stops within the step budget's time, not seconds later.
 */
const RECORD_UNITS = 12 * UNITS_PER_STEP;
const FREE_UNITS_PER_SITE = 1024 * RECORD_UNITS;

/** What a statement may leave half-done in the library when it fails (see RouteLibrary.transientState). */
export interface TransientState {
  readonly states: readonly { prefix: Value; nestedPrefix: string; nestedDepth: number }[];
  readonly via: readonly RecordedSite[];
  readonly nestedParents: readonly RecordedSite[];
}

/** The library's static state under one request method. */
export class MethodState {
  routes = new RecordTable();
  named = new NamedRoutes(() => this.created, 0);
  prefix: Value = null;
  nestedPrefix = '';
  nestedDepth = 0;
  /** Every record created, in order (for tracing; includes replaced and reset ones). */
  created: RouteRecord[] = [];
  /**
   * The ticks of the map() and reset() calls, in order: with a record's place in `created`, they
   * give the tick at which it was added (see addedAt), from which what map() copied is derived.
   * (A tick per record, kept in a list as long as `created`, cost an edit of a large file its
   * growth under every method.)
   */
  callTicks: number[] = [];
  /** Whether a record of `created` was made while a `$nested` callable ran (checks skip the scan otherwise). */
  createdNested = false;
  /** Whether a route was declared with a closure as its target (the closure-target check skips the scan otherwise). */
  closureTarget = false;
  /** The records of `created` another replaced, in the order they were replaced (duplicate-route reads these, not every record). */
  replaced: RouteRecord[] = [];
  /** The records map() stored over an entry of its input (see RecordMarks.overwrote), in that order. */
  overwriting: RouteRecord[] = [];
  /** The map() calls that ran, with their ticks (see callTicks). */
  maps: CallTick[] = [];
  /** Ticks so far: one per add, map() and reset(). */
  ticks = 0;
  /** What later statements did to the records (the records themselves never change). */
  marks = new RecordMarks();

  /** A new route: in the table (replacing any), in `created` (and so under its name: see NamedRoutes). */
  add(record: RouteRecord, lookups?: BelowLookups, index?: number): void {
    this.ticks++;
    const previous = this.routes.store(record, lookups, index);
    if (previous) this.noteReplaced(previous, record);
    this.created.push(record);
    if (record.nested) this.createdNested = true;
  }

  /** add() of each of a replayed statement's records, stored together when the table allows it (RecordTable.replayAll). */
  addAll(records: readonly RouteRecord[], lookups: BelowLookups | undefined): void {
    if (!lookups || !this.routes.replayAll(records, lookups)) {
      for (let i = 0; i < records.length; i++) this.add(records[i], lookups, i);
      return;
    }
    this.ticks += records.length;
    const created = this.created;
    for (let i = 0; i < records.length; i++) created.push(records[i]);
    // What every record would tell add() is known of them all: their fields are not read again.
    if (lookups.madeNested) this.createdNested = true;
    if (!lookups.replacedAny) return;
    for (let i = 0; i < records.length; i++) {
      const previous = lookups.previousAt(i);
      if (previous) this.noteReplaced(previous, records[i]);
    }
  }

  /** A route stored over `previous`, which is then replaced (the duplicate-route check reads `replaced`). */
  private noteReplaced(previous: RouteRecord, record: RouteRecord): void {
    this.marks.replaced(previous, record);
    this.replaced.push(previous);
  }
}


const DEFAULT_CONSTRAINT = '([a-zA-Z0-9\\-_]+)';
/** context()'s rows by the number of `(:any)` segments: one string each, not one per route. */
const CONTEXT_ROWS: readonly ExpansionRow[] = ['home', 'context-1', 'context-2', 'context-3', 'context-4', 'context-5', 'context-6'];
const DEFAULT_HOME = 'home';

/** The default `$options` (`array()`): the library only reads options, so one instance serves all calls. */
const NO_OPTIONS = new PhpArray();

interface Ctx {
  site: RecordedSite;
  row?: ExpansionRow;
  /** For resources(): whether the nest offset `/$1` was inserted. */
  nestOffset?: boolean;
}

/**
 * The Route library's behaviour, statement for statement, on PHP values: one state per request
 * method, advanced together for every method of the current mask.
 */
export class RouteLibrary {
  readonly states: MethodState[] = REQUEST_METHODS.map(() => new MethodState());
  /** Enclosing prefix() / nested-callable calls, outermost first. */
  private readonly via: RecordedSite[] = [];
  /** An immutable copy of `via`, shared by every record created until the stack changes. */
  private viaSnapshot: readonly RecordedSite[] = [];
  /** The route calls whose `$nested` callable is running, innermost last. */
  private readonly nestedParents: RecordedSite[] = [];
  /** The records the running call made (see CallRecords). */
  private made = new CallRecords();
  /** The last prefix put in front of a path, with its slash (one string for all its routes). */
  private lastSlashed: { prefix: string; slashed: string } = { prefix: '', slashed: '/' };
  /** Work done for each call site (by file and offset) and method in the running top-level statement. */
  private workBySite = new Map<string | number, number>();

  constructor(
    readonly dialect: Dialect,
    private readonly host: LibraryHost,
    private readonly maxRoutes = DEFAULT_MAX_ROUTES,
    /** The document's overlaps of earlier map() calls (its DocumentState's). */
    private readonly overlaps = new RecentOverlaps(),
    /** The document's recent route tables (its DocumentState's). */
    readonly recentTables?: RecentTables,
  ) {
    for (const s of this.states) s.routes.recall = recentTables;
  }

  /**
   * Every table as it will be handed out (see RecordTable.settle), without the document's recent
   * tables: those are the document's state, not part of the evaluation's value.
   */
  settleTables(): void {
    for (const s of this.states) {
      s.routes.settle();
      s.routes.handedOut = true;
      s.routes.recall = undefined;
    }
  }

  private tooMany(): EvaluationLimit {
    return new EvaluationLimit(
      `evaluation stopped: more than ${withThousands(this.maxRoutes)} routes declared under one request method (ciRoutes.maxRoutes): routes after this point are not known`,
    );
  }

  /** No prefix or nesting in effect under any method: the state a top-level declaration starts from. */
  isClean(): boolean {
    if (this.via.length || this.nestedParents.length) return false;
    for (const s of this.states) if (s.prefix !== null || s.nestedPrefix !== '' || s.nestedDepth !== 0) return false;
    return true;
  }

  /**
   * The prefixes and nesting in effect, to put back when a statement that failed half-way is
   * skipped (see Interpreter.recoverFrom); undefined when nothing is in effect, as between most statements.
   */
  transientState(): TransientState | undefined {
    if (this.isClean()) return undefined;
    return { states: this.states.map((s) => ({ prefix: s.prefix, nestedPrefix: s.nestedPrefix, nestedDepth: s.nestedDepth })), via: this.via.slice(), nestedParents: this.nestedParents.slice() };
  }

  restoreTransientState(saved: TransientState | undefined): void {
    this.states.forEach((s, m) => {
      const t = saved?.states[m];
      s.prefix = t ? t.prefix : null;
      s.nestedPrefix = t ? t.nestedPrefix : '';
      s.nestedDepth = t ? t.nestedDepth : 0;
    });
    this.via.length = 0;
    this.via.push(...(saved?.via ?? []));
    this.viaSnapshot = this.via.slice();
    this.nestedParents.length = 0;
    this.nestedParents.push(...(saved?.nestedParents ?? []));
  }

  /**
   * Stores again the records a replayed declaration created (see evaluate/replay.ts): exactly
   * what createRoute() does to the state, minus building the record.
   */
  replay(records: readonly (readonly RouteRecord[])[], lookups: readonly (BelowLookups | undefined)[]): boolean {
    const states = this.states;
    // Past the limit the statement is evaluated instead, so that it stops at the very route.
    for (let m = 0; m < records.length; m++) if (states[m].created.length + records[m].length > this.maxRoutes) return false;
    // Indexed loops without callbacks: this runs for every record of a large file on every edit.
    for (let m = 0; m < records.length; m++) {
      const list = records[m];
      if (list.length === 0) continue;
      const state = states[m];
      state.addAll(list, lookups[m]);
    }
    return true;
  }

  private pushVia(site: RecordedSite): void {
    this.via.push(site);
    this.viaSnapshot = this.via.slice();
  }

  private popVia(): void {
    this.via.pop();
    this.viaSnapshot = this.via.slice();
  }

  /** Calls `Route::<name>(...args)`; returns its PHP return value. */
  call(name: string, args: Value[], site: RecordedSite, mask: MethodMask): Value {
    const outer = this.made;
    this.made = new CallRecords();
    try {
      return this.callOnce(name, args, site, mask);
    } finally {
      this.made = outer;
    }
  }

  private callOnce(name: string, args: Value[], site: RecordedSite, mask: MethodMask): Value {
    const file = this.host.file;
    const lower = name.toLowerCase();
    const sig = routeApi(lower);
    if (!sig) {
      if (lower === 'createroute') throw new PhpFatal('Error', `Call to private method Route::createRoute() from global scope`);
      throw new PhpFatal('Error', `Call to undefined method Route::${name}()`);
    }
    if (args.length < sig.min) {
      const line = this.host.lineAt(site.placed.span.start);
      const qualifier = sig.min === sig.max ? 'exactly' : 'at least';
      throw new PhpFatal(
        'ArgumentCountError',
        `Too few arguments to function Route::${lower}(), ${args.length} passed in ${file} on line ${line} and ${qualifier} ${sig.min} expected`,
      );
    }
    const ctx: Ctx = { site };
    switch (lower) {
      case 'any':
        this.each(mask, (m) => this.createRoute(m, args[0], args[1], arg(args, 2, NO_OPTIONS), arg(args, 3, false), ctx));
        return null;
      case 'get':
      case 'post':
      case 'put':
      case 'delete':
      case 'head':
      case 'patch':
      case 'options': {
        const verb = sig.verb!;
        if (!(mask & (1 << verb))) return null;
        try {
          this.createRoute(verb, args[0], args[1], arg(args, 2, NO_OPTIONS), arg(args, 3, false), ctx);
        } catch (e) {
          // What fails under the verb alone (its options, its $nested callable) stops that method only.
          if (e instanceof PhpFatal && mask !== 1 << verb) throw new Diverge('the script fails under some request methods only');
          throw e;
        }
        return null;
      }
      case 'resources':
        this.each(mask, (m) => this.resources(m, args[0], arg(args, 1, NO_OPTIONS), arg(args, 2, false), site));
        return null;
      case 'context':
        this.each(mask, (m) => this.context(m, args[0], arg(args, 1, null), arg(args, 2, NO_OPTIONS), site));
        return null;
      case 'block':
        this.each(mask, (m) =>
          args.forEach((path, i) => this.createRoute(m, path, '', NO_OPTIONS, false, { site, row: `path-${i}` })),
        );
        return null;
      case 'prefix':
        this.prefix(args[0], args[1], site, mask);
        return null;
      case 'named':
        return this.collect(mask, (m) => this.named(m, args[0]));
      case 'reset':
        this.each(mask, (m) => {
          const s = this.states[m];
          const reset: CallTick = { site, at: s.ticks };
          s.callTicks.push(s.ticks++);
          s.routes.forEachEntry((_to, _key, rec) => s.marks.wasReset(rec, reset));
          s.routes = new RecordTable();
          s.routes.recall = this.recentTables;
          s.named = new NamedRoutes(() => s.created, s.created.length);
          s.nestedDepth = 0;
        });
        return null;
      case 'map':
        // Kept per method even when equal: each method's entries carry that method's records.
        return this.collect(mask, (m) => this.map(m, arg(args, 0, new PhpArray()), site), false);
    }
    throw new PhpFatal('Error', `Call to undefined method Route::${name}()`);
  }

  /** Runs `fn` for each method; all must agree on failing, else the methods diverge. */
  private each(mask: MethodMask, fn: (m: MethodIndex) => void): void {
    this.collect(mask, (m) => {
      fn(m);
      return null;
    });
  }

  /** Runs `fn` for each method and merges the results (a PerMethod value when they differ). */
  private collect(mask: MethodMask, fn: (m: MethodIndex) => Value, collapse = true): Value {
    const methods = methodsIn(mask);
    if (methods.length === 1) return fn(methods[0]);
    const results: Value[] = new Array(REQUEST_METHODS.length).fill(null);
    let fatal: PhpFatal | undefined;
    let ok = 0;
    for (const m of methods) {
      try {
        results[m] = fn(m);
        ok++;
      } catch (e) {
        if (!(e instanceof PhpFatal)) throw e;
        if (fatal && fatal.message !== e.message) throw new Diverge('request methods fail differently');
        fatal = e;
      }
    }
    if (fatal) {
      if (ok > 0) throw new Diverge('the script fails under some request methods only');
      throw fatal;
    }
    const first = results[methods[0]];
    if (collapse && methods.every((m) => sameValue(results[m], first))) return first;
    return new PerMethod(results);
  }

  private sink(m: MethodIndex): WarningSink {
    return { warn: (msg) => this.host.warn(msg, 1 << m) };
  }

  private str(v: Value, m: MethodIndex): string | Unknown {
    return toPhpString(at(v, m), this.sink(m));
  }

  /** `isset($options[$key])` for whatever `$options` holds. */
  private option(options: Value, key: string): Value | undefined {
    if (options instanceof PhpArray) {
      const v = options.get(key);
      return v === null ? undefined : v;
    }
    if (options instanceof PhpClosure) throw new PhpFatal('Error', 'Cannot use object of type Closure as array');
    if (options instanceof Unknown) return options;
    return undefined;
  }

  /** A top-level statement starts: its call sites' work is counted afresh (see FREE_UNITS_PER_SITE). */
  startStatement(): void {
    if (this.workBySite.size) this.workBySite = new Map();
  }

  /** Pays for `units` of work done for `site` under method `m`, past the site's free share. */
  private payForWork(site: RecordedSite, m: MethodIndex, units: number): void {
    // One number per site and method (no allocation per declaration): offsets times 16 plus the method.
    const file = site.placed.span.file;
    const key = file ? `${file.path}:${site.placed.span.start}:${m}` : site.placed.span.start * 16 + m;
    const before = this.workBySite.get(key) ?? 0;
    const after = before + units;
    this.workBySite.set(key, after);
    if (after > FREE_UNITS_PER_SITE) this.host.charge(after - Math.max(before, FREE_UNITS_PER_SITE));
  }

  private createRoute(m: MethodIndex, fromArg: Value, toArg: Value, optionsArg: Value, nestedArg: Value, ctx: Ctx): void {
    const state = this.states[m];
    // Under any method: the check reads the call's argument as written.
    if (toArg instanceof PhpClosure || (toArg instanceof PerMethod && toArg.byMethod.some((v) => v instanceof PhpClosure))) state.closureTarget = true;
    if (state.created.length >= this.maxRoutes) throw this.tooMany();
    this.payForWork(ctx.site, m, RECORD_UNITS);
    const options = at(optionsArg, m);
    const nested = at(nestedArg, m);
    const to = at(toArg, m);
    // `is_null(self::$prefix) ? '' : self::$prefix . '/'`
    const prefixStr = state.prefix === null ? null : this.str(state.prefix, m);
    const prefix = prefixStr === null ? '' : prefixStr instanceof Unknown ? prefixStr : this.slashed(prefixStr);
    const fromPart = this.str(fromArg, m);
    const dynamic = prefix instanceof Unknown || fromPart instanceof Unknown || to instanceof Unknown;
    const from = prefix instanceof Unknown ? prefix : fromPart instanceof Unknown ? fromPart : state.nestedPrefix + prefix + fromPart;

    let name: Key | undefined;
    const as = this.option(options, 'as');
    if (as !== undefined && toBool(as) !== false) {
      const k = toKey(as);
      if (!(k instanceof Unknown) && !(from instanceof Unknown)) name = k;
    }
    // A unique, deterministic key for a route whose path is unknown (never equal to a real path).
    const key: Key = from instanceof Unknown ? `${DYNAMIC_KEY_PREFIX}${ctx.site.placed.span.start}:${ctx.row ?? ''}:${state.created.length}` : normalizeStringKey(from);
    const nesting = this.nestedParents.length
      ? { parent: this.nestedParents[this.nestedParents.length - 1], depthSeen: state.nestedDepth, nestOffset: ctx.nestOffset }
      : undefined;
    const fields: RecordFields = {
      key,
      to,
      name,
      site: ctx.site,
      row: ctx.row,
      via: this.viaSnapshot,
      prefix: prefix instanceof Unknown ? '' : prefix,
      nestedPrefix: state.nestedPrefix,
      conditional: this.host.conditional,
      dynamic,
      branches: this.host.branches,
      nested: nesting,
    };
    const record = from instanceof Unknown ? undefined : this.made.madeForAnotherMethod(m, fields);
    if (record) state.add(record);
    else {
      const made = newRecord(fields);
      if (from instanceof Unknown) setUnknownPath(made, from.reason);
      else this.made.made(m, made);
      state.add(made);
    }

    if (toBool(nested) === true && this.host.isCallable(nested) && state.nestedDepth === 0) {
      const fromText = from instanceof Unknown ? '' : from;
      state.nestedPrefix += `${fromText.replace(/\/+$/, '')}/`;
      state.nestedDepth += 1;
      this.pushVia(ctx.site);
      this.nestedParents.push(ctx.site);
      try {
        this.host.invoke(nested, 1 << m, ctx.site);
      } finally {
        this.popVia();
        this.nestedParents.pop();
      }
      state.nestedPrefix = '';
    }
    state.nestedDepth = state.nestedDepth === 0 ? 0 : state.nestedDepth - 1;
  }

  /** `$prefix . '/'`, the same string while the prefix is. */
  private slashed(prefix: string): string {
    if (this.lastSlashed.prefix !== prefix) this.lastSlashed = { prefix, slashed: `${prefix}/` };
    return this.lastSlashed.slashed;
  }

  private concat(m: MethodIndex, ...parts: Value[]): string | Unknown {
    let out = '';
    for (const p of parts) {
      const s = this.str(p, m);
      if (s instanceof Unknown) return s;
      out += s;
    }
    return out;
  }

  private resources(m: MethodIndex, nameArg: Value, optionsArg: Value, nested: Value, site: RecordedSite): void {
    const name = at(nameArg, m);
    const options = at(optionsArg, m);
    if (toBool(name) === false) return;
    let newName: Value = name;
    const controller = this.option(options, 'controller');
    if (controller !== undefined) newName = controller;
    const module = this.option(options, 'module');
    if (module !== undefined) newName = this.concat(m, module, '/', newName);
    let id: Value = DEFAULT_CONSTRAINT;
    const constraint = this.option(options, 'constraint');
    if (constraint !== undefined) id = constraint;
    const offsetOpt = this.option(options, 'offset');
    let offset = offsetOpt === undefined ? 0 : toInt(offsetOpt);
    let nestOffset = '';
    if (this.states[m].nestedDepth) {
      nestOffset = '/$1';
      if (typeof offset === 'number') offset++;
    }
    const ref = offset instanceof Unknown ? offset : `/$${1 + offset}`;
    const rows: [ExpansionRow, MethodIndex, Value[], Value[]][] = [
      ['index', 0, [name], [newName, '/index', nestOffset]],
      ['create_new', 0, [name, '/new'], [newName, '/create_new', nestOffset]],
      ['edit', 0, [name, '/', id, '/edit'], [newName, '/edit', nestOffset, ref]],
      ['show', 0, [name, '/', id], [newName, '/show', nestOffset, ref]],
      ['create', 1, [name], [newName, '/create', nestOffset]],
      ['update', 2, [name, '/', id], [newName, '/update', nestOffset, ref]],
      ['delete', 3, [name, '/', id], [newName, '/delete', nestOffset, ref]],
    ];
    for (const [row, verb, fromParts, toParts] of rows) {
      // The arguments are built whatever the request method; only the verb check differs.
      const from = this.concat(m, ...fromParts);
      const to = this.concat(m, ...toParts);
      if (verb === m) this.createRoute(m, from, to, null, nested, { site, row, nestOffset: nestOffset !== '' });
    }
  }

  private context(m: MethodIndex, nameArg: Value, controllerArg: Value, optionsArg: Value, site: RecordedSite): void {
    const name = at(nameArg, m);
    let controller = at(controllerArg, m);
    let options = at(optionsArg, m);
    if (controller instanceof PhpArray) {
      options = controller;
      controller = null;
    }
    if (toBool(controller) === false) controller = name;
    const offsetOpt = this.option(options, 'offset');
    const offset = offsetOpt === undefined ? 0 : toInt(offsetOpt);
    const ref = (n: number): Value => (offset instanceof Unknown ? offset : `$${n + offset}`);
    for (let k = 6; k >= 1; k--) {
      const fromParts: Value[] = [name];
      for (let i = 0; i < k; i++) fromParts.push('/(:any)');
      const toParts: Value[] = [ref(1), '/', controller];
      for (let i = 2; i <= k; i++) toParts.push('/', ref(i));
      this.createRoute(m, this.concat(m, ...fromParts), this.concat(m, ...toParts), NO_OPTIONS, false, {
        site,
        row: CONTEXT_ROWS[k],
      });
    }
    const home = this.option(options, 'home');
    if (home !== undefined && toBool(home) !== false) {
      const to = this.dialect === 'bonfire' ? this.concat(m, home) : this.concat(m, name, '/', home);
      this.createRoute(m, name, to, NO_OPTIONS, false, { site, row: 'home' });
    }
  }

  private prefix(name: Value, callback: Value, site: RecordedSite, mask: MethodMask): void {
    if (!(callback instanceof PhpClosure)) {
      if (callback instanceof Unknown || callback instanceof PerMethod) {
        throw new Diverge('prefix() callback is not a known closure', mask);
      }
      throw new PhpFatal(
        'TypeError',
        `Route::prefix(): Argument #2 ($callback) must be of type Closure, ${typeName(callback)} given, called in ${this.host.file} on line ${this.host.lineAt(site.placed.span.start)}`,
      );
    }
    for (const m of methodsIn(mask)) this.states[m].prefix = at(name, m);
    this.pushVia(site);
    try {
      this.host.invoke(callback, mask, site);
    } finally {
      this.popVia();
    }
    for (const m of methodsIn(mask)) this.states[m].prefix = null;
  }

  private named(m: MethodIndex, nameArg: Value): Value {
    const k = toKey(at(nameArg, m));
    if (k instanceof Unknown) return k;
    const v = this.states[m].named.get(k);
    return v === undefined ? null : v;
  }

  private map(m: MethodIndex, routesArg: Value, site: RecordedSite): Value {
    const arg = at(routesArg, m);
    let input: PhpArray;
    if (arg instanceof PhpArray) input = arg;
    else if (arg instanceof Unknown) return arg;
    // `$routes[$from] = …` on what is not an array: nothing to write leaves it as it was (an
    // undefined $route stays null); null becomes an array, false too (deprecated), a string or
    // another scalar fails as PHP 8 fails.
    else if (this.states[m].routes.size === 0) return arg;
    else if (arg === null) input = new PhpArray();
    else if (arg === false) {
      this.host.warn('Automatic conversion of false to array is deprecated', 1 << m);
      input = new PhpArray();
    } else if (typeof arg === 'string') throw new PhpFatal('TypeError', 'Cannot access offset of type string on string');
    else throw new PhpFatal('Error', 'Cannot use a scalar value as an array');
    const dc = input.get('default_controller');
    const controller: Value = dc === undefined || dc === null ? DEFAULT_HOME : dc;
    const table = this.states[m].routes;
    // Most targets hold no placeholder: they are stored as they are, without the conversions.
    // (An array default controller is a TypeError whatever the target: that path still raises it.)
    const plain = (to: Value) => typeof to === 'string' && !(controller instanceof PhpArray) && !to.includes('{default_controller}');
    const state = this.states[m];
    // The table counts targets that are not plain strings as it stores them: no pass over it here.
    const allPlain = table.size === 0 || (!(controller instanceof PhpArray) && table.allTargetsPlain);
    if (!allPlain) {
      const routes = input.clone();
      table.forEachEntry((to, from, rec) => {
        const before = routes.originOf(from) as EntryOriginInfo | undefined;
        if (before && before.kind !== 'route') {
          state.marks.overwrites(rec, before);
          state.overwriting.push(rec);
        }
        routes.set(from, plain(to) ? to : this.replaceDefaultController(to, controller, m), rec);
      });
      // What this call copied is derived from its tick (see mappedBy), noted once every route is
      // copied: a map() that fails (a closure target) stops the script.
      state.maps.push({ site, at: state.ticks });
      state.callTicks.push(state.ticks++);
      return routes;
    }
    // Every target stored as it is: a view over the input and the table, not a copy (nor a
    // write into every record: see mappedBy).
    state.maps.push({ site, at: state.ticks });
    state.callTicks.push(state.ticks++);
    return MappedRoutes.over(input, table, this.overlaps, (rec, entryOrigin) => {
      const origin = entryOrigin as EntryOriginInfo | undefined;
      if (origin && origin.kind !== 'route') {
        state.marks.overwrites(rec, origin);
        state.overwriting.push(rec);
      }
    });
  }

  /** `str_replace('{default_controller}', $controller, $to)` with PHP 8's type rules. */
  private replaceDefaultController(subject: Value, controller: Value, m: MethodIndex): Value {
    if (subject instanceof PhpClosure) {
      throw new PhpFatal('TypeError', 'str_replace(): Argument #3 ($subject) must be of type array|string, Closure given');
    }
    if (controller instanceof PhpArray) {
      throw new PhpFatal('TypeError', 'str_replace(): Argument #2 ($replace) must be of type string when argument #1 ($search) is a string');
    }
    if (subject instanceof PhpArray) {
      const out = new PhpArray();
      for (const [k, v] of subject.entries()) {
        // str_replace() reads each element as a string: an array inside is "Array".
        if (v instanceof PhpArray) this.host.warn('Array to string conversion', 1 << m);
        out.set(k, v instanceof PhpArray ? 'Array' : this.replaceDefaultController(v, controller, m));
      }
      return out;
    }
    if (subject instanceof Unknown) return subject;
    const s = this.str(subject, m);
    const c = this.str(controller, m);
    if (s instanceof Unknown) return s;
    if (!s.includes('{default_controller}')) return s;
    if (c instanceof Unknown) return c;
    return s.split('{default_controller}').join(c);
  }
}

function arg(args: Value[], i: number, fallback: Value): Value {
  return i < args.length ? args[i] : fallback;
}

/** The value under method m. */
export function at(v: Value, m: MethodIndex): Value {
  return v instanceof PerMethod ? v.byMethod[m] : v;
}


