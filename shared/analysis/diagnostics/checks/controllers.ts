import { isDynamicKey } from '../../../library/records';
import { PhpArray, keyToString, type Value } from '../../../runtime/values';
import type { Span } from '../../../php/ast';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import { emptySegmentIn, resolveStaticTarget, varies } from '../../model/target-dispatch';
import type { ControllerCatalog } from '../../../workspace/controller-catalog';
import { targetScope, type RouteFileRouting, type TargetScope, type TargetScopeFamily } from '../../model/target-scope';
import { neverConsulted } from '../../model/module-uris';
import { steppedCheck, type Check } from '../core/context';
import { MethodGroups, toSpan } from '../../model/origins';
import { finding, type Finding, type QuickFix } from '../core/types';
import { ucfirst } from '../../../router/ci-router';
import { scanSlashParts } from '../../../router/sscanf';
import { phpOwnClass, phpOwnClassOfFile } from '../../../runtime/builtin-classes';
import type { PhpVersion } from '../../../runtime/php-version';
import { isRoutableMethodName } from '../../../workspace/controller-edits';
import { tableView, type TableView } from '../../model/table-view';
import { checkState, type EntryVerdicts, type Verdict } from './document-state';

/** What one declaration dispatches nowhere, for one cause: its targets, the paths they serve, the methods missing. */
interface Missing {
  span: Span;
  verdict: NonNullable<Verdict>;
  targets: string[];
  whats: string[];
  methods: string[];
  /** Per missing method: the fewest and the most arguments its targets pass (a created method takes them). */
  args: Map<string, { min: number; max: number }>;
  /** The table's 404_override, when set: CodeIgniter's 404 handling serves it instead of its 404 page. */
  override?: string;
}

/** `a`, `a and b`, `a, b and c`, or the first few and how many more. */
function listed(items: readonly string[], most = 4): string {
  if (items.length > most) return `${items.slice(0, most).join(', ')} and ${items.length - most} more`;
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * "Create method x in Controller" for each method the controller lacks, with as many parameters
 * as the file's routes to it pass arguments at most (those some pass not, optional): the host reads the controller file and inserts it there (see
 * QuickFix.createMethod). None for a name CodeIgniter would not route to.
 */
function createMethodFixes(missing: Missing, argsInFile: ReadonlyMap<string, { min: number; max: number }>): QuickFix[] {
  const { verdict } = missing;
  if (verdict.kind !== 'no-method') return [];
  const className = ucfirst(verdict.class);
  return missing.methods.flatMap((method) => {
    const args = argsInFile.get(`${verdict.file}\u0000${method.toLowerCase()}`);
    if (!args || !isRoutableMethodName(method)) return [];
    return [{ title: `Create method ${method}() in ${className}`, edits: [], createMethod: { file: verdict.file, className, method, params: args.max, required: args.min } }];
  });
}

/** One finding per declaration and cause: a resources() call whose controller is missing is said once. */
function messageOf(missing: Missing): string {
  const { verdict, targets, whats, methods } = missing;
  const what = listed(whats);
  if (verdict.kind === 'php-class-named') {
    return `${listed(targets.map((t) => `'${t}'`))} ${targets.length === 1 ? 'names' : 'name'} ${verdict.class}, one of PHP's own classes (since PHP ${verdict.since}): CodeIgniter's class_exists() finds it before looking for a controller file, and calls ${verdict.class}::${verdict.method}(), which PHP's class does not have: ${what} end in an Error. Name another controller.`;
  }
  if (verdict.kind === 'php-class') {
    return `${listed(targets.map((t) => `'${t}'`))} ${targets.length === 1 ? 'dispatches' : 'dispatch'} to ${verdict.file}, whose class ${verdict.class} is one of PHP's own (since PHP ${verdict.since}): CodeIgniter cannot serve ${what} with it (loading the file is a fatal error, "Cannot declare class ${verdict.class}"; as 404_override, PHP's own class is used and has no such method). Rename the controller.`;
  }
  const answers = missing.override === undefined ? `CodeIgniter answers 404 for ${what}` : `CodeIgniter answers ${what} with its 404 handling, 404_override ('${missing.override}')`;
  if (targets.length === 1) {
    return verdict.kind === 'no-controller'
      ? `'${targets[0]}' dispatches to no controller: ${verdict.reason}. ${answers}.`
      : `'${targets[0]}' dispatches to ${verdict.file}, which has no public method '${verdict.method}()': ${answers}.`;
  }
  const quoted = listed(targets.map((t) => `'${t}'`));
  return verdict.kind === 'no-controller'
    ? `${quoted} dispatch to no controller: ${verdict.reason}. ${answers}.`
    : `${quoted} dispatch to ${verdict.file}, which has no public method ${listed(methods.map((m) => `'${m}()'`))}: ${answers}.`;
}

/**
 * What a 404_override target missing a controller does: CodeIgniter.php's class_exists() first
 * finds a class loaded before dispatch (the application's core/MY_Controller.php declares it),
 * which serves the requests (undefined: nothing to report), or PHP's own class of that name.
 */
function overrideVerdict(catalog: ControllerCatalog, target: string, verdict: NonNullable<Verdict>, php: PhpVersion | undefined): Verdict {
  if (verdict.kind !== 'no-controller' && verdict.kind !== 'no-method') return verdict;
  // sscanf($override, '%[^/]/%s'): the class, then the method.
  const [name = '', method = 'index'] = scanSlashParts(target, 2);
  const klass = ucfirst(name);
  if (catalog.loadedBeforeDispatch().has(klass.toLowerCase())) return undefined;
  const own = phpOwnClass(klass, php);
  return own ? { kind: 'php-class-named', class: own.name, since: own.since, method } : verdict;
}

/**
 * The home page of an application whose main routes leave no `default_controller` (or an empty
 * one) under some method: CodeIgniter's router shows an error page for it. Not said where the
 * table may hold it under a key not known statically, or the evaluation stopped early.
 */
function unsetDefaultController(evaluation: FileEvaluation, text: string, noControllers: boolean): Finding | undefined {
  if (evaluation.problems.some((p) => p.stops)) return undefined;
  const methods: RequestMethod[] = [];
  for (const [m, result] of evaluation.methods.entries()) {
    const routes = result.routes;
    if (!routes || result.error) continue;
    const value = routes.get('default_controller');
    if (value !== undefined && value !== '') continue;
    if (value === undefined && [...routes.keys()].some((k) => isDynamicKey(k))) continue;
    methods.push(REQUEST_METHODS[m]);
  }
  if (methods.length === 0) return undefined;
  const start = Math.max(0, text.indexOf('<?'));
  return finding(
    'missing-controller',
    { start, end: start + (text.startsWith('<?php', start) ? 5 : 2) },
    "The home page dispatches to no controller: $route['default_controller'] is not set. CodeIgniter shows an error page for it (\"Unable to determine what should be displayed. A default route has not been specified in the routing file.\").",
    // As the check's other findings: information only where the application has no controllers at all.
    { methods, ...(noControllers ? { severity: 'information' as const } : {}) },
  );
}

/** The table's 404_override when set to a non-empty string. */
function overrideOf(routes: { get(key: string): Value | undefined }): string | undefined {
  const v = routes.get('404_override');
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function targetsOf(value: Value): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof PhpArray) return [...value.values()].filter((v): v is string => typeof v === 'string');
  return [];
}

/** The target a verb array (`$route['x']['get'] = ...`) gives a method, if any. */
function targetOfVerb(value: PhpArray, method: string): string | undefined {
  const verb = method.toLowerCase();
  for (const [k, v] of value.entries()) if (keyToString(k).toLowerCase() === verb && typeof v === 'string') return v;
  return undefined;
}

/** A target's verdict, with the module route keys its look-up read (each as it was then: the arrays are never changed, only replaced). */
interface KnownVerdict {
  verdict: Verdict;
  read: readonly (readonly [module: string, keys: readonly string[] | undefined])[];
}

/**
 * Verdicts per target text, for as long as the scope's family (the controllers on disk, the router,
 * the module) stays the same. When a module's route keys change, only the targets whose look-up
 * read that module's keys are decided again: the others' look-ups would go the same way.
 */
const verdicts = new WeakMap<TargetScopeFamily, Map<string, KnownVerdict>>();

/** What is missing for a target, if anything; decided once per target and scope family while the keys it read stay the same. */
function verdictOf(scope: TargetScope, target: string): Verdict {
  let known = verdicts.get(scope.family);
  if (!known) verdicts.set(scope.family, (known = new Map()));
  const keysOf = scope.routing.moduleRouteKeys;
  const kept = known.get(target);
  if (kept && kept.read.every(([module, keys]) => keysOf?.(module) === keys)) return kept.verdict;
  const decided = decide(scope, target);
  if (known.size > 200_000) known.clear();
  known.set(target, decided);
  return decided.verdict;
}

function decide({ catalog, routing: given }: TargetScope, target: string): KnownVerdict {
  const read: [string, readonly string[] | undefined][] = [];
  const keysOf = given.moduleRouteKeys;
  const routing = keysOf
    ? {
        ...given,
        moduleRouteKeys: (module: string) => {
          const keys = keysOf(module);
          read.push([module, keys]);
          return keys;
        },
      }
    : given;
  return { verdict: lookUp(catalog, routing, target), read };
}

function lookUp(catalog: ControllerCatalog, routing: TargetScope['routing'], target: string): Verdict {
  const segments = target.split('/').filter((s) => s !== '');
  if (segments.length === 0 || emptySegmentIn(target) !== undefined) return undefined;
  // A back-reference among the segments that choose the controller, or what the look-up cannot know: not judged.
  const r = resolveStaticTarget(segments, routing);
  if (!('resolution' in r)) return undefined;
  const resolved = r.resolution;
  if (!resolved.found) return { kind: 'no-controller', reason: resolved.reason };
  const t = resolved.target;
  // CodeIgniter.php require_once()s the file, which declares a class PHP already has: a fatal error.
  const own = phpOwnClassOfFile(t.file, routing.php);
  if (own) return { kind: 'php-class', file: t.file, class: own.name, since: own.since };
  const methods = catalog.methods(t.file);
  // CodeIgniter.php then wants the class named like the file (class_exists($class)): a file declaring only others is a 404.
  const klass = t.file.slice(t.file.lastIndexOf('/') + 1).replace(/\.php$/i, '');
  if (methods && methods.classes.length > 0 && !methods.classes.some((c) => c.toLowerCase() === klass.toLowerCase())) {
    return { kind: 'no-controller', reason: `${t.file} declares no class ${klass} (it declares ${listed(methods.classes)}), which CodeIgniter looks for after loading it` };
  }
  if (varies(t.method)) return undefined;
  if (!methods || methods.hasRemap || methods.open !== undefined || methods.names.has(t.method.toLowerCase())) return undefined;
  return { kind: 'no-method', file: t.file, class: t.class, method: t.method, args: t.args.length };
}

/** The targets of one entry that dispatch nowhere, with why. */
function judgeEntry(view: TableView, i: number, scope: TargetScope): EntryVerdicts | undefined {
  const key = view.keys[i];
  if (key === 'translate_uri_dashes') return undefined;
  const origin = view.origins[i];
  if (!origin || (origin.kind === 'route' && origin.dynamic)) return undefined;
  let found: EntryVerdicts | undefined;
  for (const target of targetsOf(view.values[i])) {
    const verdict = verdictOf(scope, target);
    if (verdict) (found ??= []).push({ target, verdict });
  }
  return found;
}

/**
 * `missing-controller`: a target whose controller file or public method does not exist, located
 * as the application's router locates it (`routing`: the flavour, and module-relative in a
 * module's routes file). Segments that are back-references are not judged; `_remap()` accepts
 * any method. Information only when the application has no controllers at all (e.g. a routes file alone).
 */
export function missingControllers(
  catalog: ControllerCatalog | undefined,
  routing?: RouteFileRouting,
  /**
   * A module's routes file the main routes include: every key of it is a main route too, which
   * takes its URIs first, its target read by the main file's check (main-relative); the module's
   * router would read a key only for a main target that matches it. Its targets are not judged
   * module-relative here (a real application's twelve such keys were all reported "404").
   */
  mainRoutesToo = false,
): Check {
  return steppedCheck('missingControllers', function* ({ evaluation, text }) {
    if (!catalog || (mainRoutesToo && routing?.module !== undefined)) return [];
    const scope = targetScope(catalog, routing);
    const tree = catalog.tree;
    const noControllers = !tree.isDir('controllers');
    const groups = new MethodGroups<Missing>();
    // Per document and scope: an edit judges only the entries it changed.
    const judged = checkState(evaluation).missingTargets;
    for (const [m, result] of evaluation.methods.entries()) {
      // After an error, the table as it was when the file stopped (or, for a syntax error, without the broken statement).
      if (!result.routes) continue;
      const method = REQUEST_METHODS[m];
      const view = tableView(evaluation, result.routes);
      for (const [i, found] of yield* judged.ofSteps(view, m, scope, judgeEntry)) {
        const key = view.keys[i];
        // A module key its router never consults dispatches nothing (module-keys.ts says it is never reached):
        // `default_controller` there is such a key, not the home page.
        if (routing?.module !== undefined && routing.flavour !== 'ci' && neverConsulted(key, routing.module)) continue;
        // Nor does the key '': an empty URI goes to the default controller without a route (unreachable-route says it is never used).
        if (key === '') continue;
        const origin = view.origins[i]!;
        // A verb array dispatches under each method its own verb's target only.
        const entry = view.values[i];
        const verbTarget = entry instanceof PhpArray ? targetOfVerb(entry, method) : undefined;
        for (const judged1 of found) {
          const target = judged1.target;
          if (entry instanceof PhpArray && target !== verbTarget) continue;
          // 404_override: CodeIgniter.php takes a class already loaded before it looks for a file.
          const verdict = key === '404_override' ? overrideVerdict(catalog, target, judged1.verdict, routing?.php) : judged1.verdict;
          if (verdict === undefined) continue;
          const span = key === 'default_controller' ? toSpan(origin, evaluation.places) : origin.kind === 'route' && origin.row ? evaluation.places.site(origin.site).span : toSpan(origin, evaluation.places);
          const what = key === 'default_controller' ? 'the home page' : key === '404_override' ? 'the requests 404_override should serve (its own 404 page)' : isDynamicKey(key) ? 'its URIs' : `'${key}'`;
          const cause = verdict.kind === 'no-controller' ? `no controller: ${verdict.reason}` : verdict.kind === 'php-class' ? `PHP's class in ${verdict.file}` : verdict.kind === 'php-class-named' ? `PHP's class ${verdict.class}` : `no method in ${verdict.file}`;
          const override = key === '404_override' ? undefined : overrideOf(result.routes);
          const missing = groups.add(`${span.start}:${cause}`, method, () => ({ span, verdict, targets: [], whats: [], methods: [], args: new Map(), ...(override !== undefined ? { override } : {}) }));
          if (!missing.targets.includes(target)) missing.targets.push(target);
          if (!missing.whats.includes(what)) missing.whats.push(what);
          if (verdict.kind === 'no-method') {
            if (!missing.methods.includes(verdict.method)) missing.methods.push(verdict.method);
            const seen = missing.args.get(verdict.method);
            missing.args.set(verdict.method, seen ? { min: Math.min(seen.min, verdict.args), max: Math.max(seen.max, verdict.args) } : { min: verdict.args, max: verdict.args });
          }
        }
      }
    }
    // The arguments every route of the file to a missing method passes, whichever declaration it is.
    const argsInFile = new Map<string, { min: number; max: number }>();
    for (const { value } of groups.entries()) {
      if (value.verdict.kind !== 'no-method') continue;
      for (const [method, args] of value.args) {
        const key = `${value.verdict.file}\u0000${method.toLowerCase()}`;
        const seen = argsInFile.get(key);
        argsInFile.set(key, seen ? { min: Math.min(seen.min, args.min), max: Math.max(seen.max, args.max) } : args);
      }
    }
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) {
      out.push(finding('missing-controller', value.span, messageOf(value), { methods, fixes: createMethodFixes(value, argsInFile), ...(noControllers ? { severity: 'information' as const } : {}) }));
    }
    if (routing?.mainFile) {
      const unset = unsetDefaultController(evaluation, text, noControllers);
      if (unset) out.push(unset);
    }
    return out;
  });
}
