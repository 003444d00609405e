import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { Describer } from '../model/origins';
import type { ControllerCatalog } from '../../workspace/controller-catalog';
import type { RouteFileRouting } from '../model/target-scope';
import { afterMap } from './checks/after-map';
import { blockArrays, closureTargets } from './checks/arguments';
import { missingControllers } from './checks/controllers';
import { moduleKeyReach } from './checks/module-keys';
import type { MainRoutes } from '../model/main-routes';
import { moduleOfRouteFile } from '../../app/layout';
import type { CodeIgniterVersion } from '../../app/codeigniter-version';
import { uriCharsNotice } from './checks/uri-chars';
import { codeIgniter2Notice } from './checks/codeigniter-version';
import { unknownRouteFindings } from './checks/unknowns';
import { duplicates } from './checks/duplicates';
import { shortOpenTag } from './checks/short-open-tag';
import { namedLookups } from './checks/named';
import { nestedCallables } from './checks/nested';
import { unknownOptions } from './checks/options';
import { patternChecks } from './checks/patterns';
import { prefixNesting } from './checks/prefix';
import { reachability } from './checks/reachability';
import { runtimeErrors, undefinedMethods } from './checks/runtime';
import { syntaxAndLimits } from './checks/syntax';
import type { Check, CheckContext } from './core/context';
import type { Finding } from './core/types';
import { placedInEvaluatedFile } from './placed-findings';
import { markAfterFatal } from './after-fatal';
import { runSteps, type Steps } from '../../util/steps';
import { InclusionChecker } from '../regular/inclusion';
import { expandModuleWildcards } from '../../router/pattern';
import { compareCodeUnits } from '../../util/without-icu';

/**
 * The checks that need nothing but the file's own evaluation. What they keep of a document is in
 * its state (see checks/document-state.ts); each call gives new inclusion checkers (their caches,
 * functions of the keys' text, cold). FILE_CHECKS is the instance editors share between analyses.
 */
export function fileChecks(): Check[] {
  return [...quickChecks(), ...inclusionChecks()];
}

/** `php`: the PHP version evaluated under, as runtime errors name it (`php 8.2 (default)`). */
function quickChecks(php?: string): Check[] {
  return [syntaxAndLimits, shortOpenTag, undefinedMethods, runtimeErrors(php), closureTargets, blockArrays, duplicates, afterMap, prefixNesting, nestedCallables, patternChecks, unknownOptions, unknownRouteFindings];
}

/**
 * The checks that decide whether every URI of a pattern is matched by others: most of a large
 * file's first analysis (automata for thousands of patterns), so they run last.
 */
function inclusionChecks(checker?: InclusionChecker, literalKeysOnly = false): Check[] {
  return [reachability(checker, { literalKeysOnly })];
}

/** The checker of keys whose `:any` is `.+` (a module's routes file; every key under CodeIgniter 2). */
function spanningChecker(): InclusionChecker {
  return new InclusionChecker({ expandKey: expandModuleWildcards });
}

/** The inclusion checks of a module's routes file, read with the HMVC routers' wildcards (`:any` is `.+`). */
function moduleInclusionChecks(checker = spanningChecker(), literalKeysOnly = false): Check[] {
  return [reachability(checker, { literalKeysOnly })];
}

/** The inclusion checks of a CodeIgniter 2 route file: `:any` is `.+`, and literal keys are looked up before any pattern. */
function codeIgniter2InclusionChecks(checker = spanningChecker(), literalKeysOnly = false): Check[] {
  return [reachability(checker, { literalsFirst: true, literalKeysOnly })];
}

const QUICK_CHECKS: readonly Check[] = quickChecks();
const INCLUSION_CHECKER = new InclusionChecker();
const INCLUSION_CHECKS: readonly Check[] = inclusionChecks(INCLUSION_CHECKER);
const SPANNING_CHECKER = spanningChecker();
const MODULE_INCLUSION_CHECKS: readonly Check[] = moduleInclusionChecks(SPANNING_CHECKER);
const CODEIGNITER_2_INCLUSION_CHECKS: readonly Check[] = codeIgniter2InclusionChecks(SPANNING_CHECKER);
// The same checkers (their automata are functions of the keys' text), judging fewer keys.
const LITERAL_INCLUSION_CHECKS: readonly Check[] = inclusionChecks(INCLUSION_CHECKER, true);
const MODULE_LITERAL_INCLUSION_CHECKS: readonly Check[] = moduleInclusionChecks(SPANNING_CHECKER, true);
const CODEIGNITER_2_LITERAL_INCLUSION_CHECKS: readonly Check[] = codeIgniter2InclusionChecks(SPANNING_CHECKER, true);
export const FILE_CHECKS: readonly Check[] = [...QUICK_CHECKS, ...INCLUSION_CHECKS];

/** The findings with places in included files moved to the include statements (a copy only when there are some). */
function placed(findings: Finding[], evaluation: FileEvaluation): Finding[] {
  // Only an included file's places need moving (every one comes from evaluation.included).
  if (evaluation.included.length === 0) return [...findings];
  return findings.some((f) => f.span.file || f.related.length || f.fixes.length || f.deferredFixes) ? findings.map(placedInEvaluatedFile) : [...findings];
}

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end || compareCodeUnits(a.code, b.code));
}

export interface AnalyzeOptions {
  /** Route names defined across the workspace; without it, the file's own names. */
  knownNames?: ReadonlySet<string>;
  /** The application's controllers; without it, targets are not checked. */
  controllers?: ControllerCatalog;
  /** How the application's router reads this file's targets (flavour, module); guessed from the controllers' folder without it. */
  routing?: RouteFileRouting;
  /**
   * Called once with what every check but the inclusion checks found (in document order), before
   * those run: an editor may show it while they do.
   */
  beforeInclusionChecks?: (findings: Finding[]) => void;
  /** For a module's routes file: the application's main route file, whose routes run first. */
  mainRoutes?: MainRoutes;
  /**
   * For a module's routes file: its application's main route file exists but is not read yet (an
   * editor's first scan). Whether that file includes this one, making its keys main routes, is
   * then unknown: the keys the module's router never consults are not judged until it is read.
   */
  mainRoutesPending?: boolean;
  /**
   * The CodeIgniter the application runs on, when known. Under CodeIgniter 2 the router reads
   * `:any` as `.+` (across segments), as the HMVC routers read a module's routes file, and looks
   * controllers up otherwise: the inclusion checks use its wildcards, and controllers and
   * module keys are not checked (a `codeigniter-2` finding says so).
   */
  codeIgniter?: CodeIgniterVersion;
  /** The PHP version the file was evaluated under, and how it was chosen (`php 8.2 (default)`), for runtime errors' messages. */
  php?: string;
  /**
   * The application's own router reads route files otherwise (a `MY_Router` redefining
   * _set_routing(), `reading`: a module's routes file may be read as main routes or not at all, so
   * neither its keys' reach nor its targets are judged) or matches a URI against the main routes
   * otherwise (_parse_routes(), `matching`: the main file's keys' reach is not judged, nor a
   * module key's by the main routes).
   */
  routingOverride?: { matching: boolean; reading: boolean };
  /**
   * Why the application's URIs may hold characters beyond CodeIgniter's default
   * `permitted_uri_chars` (see Application.uriCharsBeyond): the reachability checks, which
   * assume the default, judge only keys written without a pattern (literalOfDefaultChars), and a
   * `uri-chars` finding says so.
   */
  uriCharsBeyond?: string;
  /**
   * New inclusion checkers instead of the shared ones (their automata, functions of the keys'
   * text, cold), as in a new process: what tests comparing a warm analysis with a fresh one ask.
   */
  coldCheckers?: boolean;
}

/** Every finding about one route file, in document order. */
export function analyzeRouteFile(text: string, evaluation: FileEvaluation, options: AnalyzeOptions = {}): Finding[] {
  return runSteps(analyzeRouteFileSteps(text, evaluation, options));
}

/**
 * analyzeRouteFile(), pausing between checks and inside the long ones. Whoever stops it early
 * loses nothing the next analysis needs: the checks' memos keep what was decided.
 */
export function* analyzeRouteFileSteps(text: string, evaluation: FileEvaluation, options: AnalyzeOptions = {}): Steps<Finding[]> {
  const ctx: CheckContext = { text, evaluation, describe: Describer.of(text) };
  const out: Finding[] = [];
  function* run(checks: readonly Check[]): Steps<void> {
    for (const check of checks) {
      const found = check.steps ? yield* check.steps(ctx) : check(ctx);
      // One push per finding: spreading a check's list as arguments overflows the stack past ~100,000 findings.
      for (const f of found) out.push(f);
      yield;
    }
  }
  const ci = options.codeIgniter;
  const codeIgniter2 = ci !== undefined && ci.major < 3;
  // A module's routes file the main routes file includes (a loop requiring every module's): its
  // keys are main routes too, whatever the module's router makes of them.
  const module = options.routing?.module;
  const mainRoutesToo = module !== undefined && ((options.mainRoutes === undefined && options.mainRoutesPending === true) || (options.mainRoutes?.evaluation.included.some((f) => moduleOfRouteFile(f.path) === module) ?? false));
  // A module file under a router of the application's own making: how it is read is not known.
  const moduleReadUnknown = module !== undefined && options.routingOverride?.reading === true;
  const mainMatchingUnknown = options.routingOverride?.matching === true;
  // Without the main routes, a module key's reach is judged by its own module's name alone.
  const mainForModule = mainMatchingUnknown ? undefined : options.mainRoutes;
  // URIs of characters the automata do not hold: only keys written without a pattern, of the
  // default's characters, are judged (what is concluded of their one URI holds whatever else passes).
  const literalKeysOnly = options.uriCharsBeyond !== undefined;
  const routerChecks = codeIgniter2 ? [codeIgniter2Notice(ci)] : moduleReadUnknown ? [] : [missingControllers(options.controllers, options.routing, mainRoutesToo), moduleKeyReach(options.routing, mainForModule, mainRoutesToo, literalKeysOnly)];
  const notices = literalKeysOnly ? [uriCharsNotice(options.uriCharsBeyond!)] : [];
  yield* run([...(options.php === undefined ? QUICK_CHECKS : quickChecks(options.php)), namedLookups(options.knownNames), ...routerChecks, ...notices]);
  options.beforeInclusionChecks?.(sortFindings(markAfterFatal(placed(out, evaluation), evaluation, text)));
  // A module's routes file is matched by Modules::parse_routes(), where `:any` spans segments, and
  // so is every route under CodeIgniter 2's router (which looks literal keys up first).
  const moduleFile = options.routing?.module !== undefined && options.routing.flavour !== 'ci';
  if (moduleFile ? moduleReadUnknown : mainMatchingUnknown || moduleReadUnknown) return sortFindings(markAfterFatal(placed(out, evaluation), evaluation, text));
  if (options.coldCheckers) yield* run(moduleFile ? moduleInclusionChecks(spanningChecker(), literalKeysOnly) : codeIgniter2 ? codeIgniter2InclusionChecks(spanningChecker(), literalKeysOnly) : inclusionChecks(undefined, literalKeysOnly));
  else if (literalKeysOnly) yield* run(moduleFile ? MODULE_LITERAL_INCLUSION_CHECKS : codeIgniter2 ? CODEIGNITER_2_LITERAL_INCLUSION_CHECKS : LITERAL_INCLUSION_CHECKS);
  else yield* run(moduleFile ? MODULE_INCLUSION_CHECKS : codeIgniter2 ? CODEIGNITER_2_INCLUSION_CHECKS : INCLUSION_CHECKS);
  return sortFindings(markAfterFatal(placed(out, evaluation), evaluation, text));
}
