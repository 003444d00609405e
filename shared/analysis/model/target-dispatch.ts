import { PhpArray, type Value } from '../../runtime/values';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { RequestMethod } from '../../runtime/methods';
import type { AppTree } from '../../router/app-tree';
import type { ControllerResolution, ControllerTarget } from '../../router/controller-target';
import { rootAroundApplication } from '../../router/hmvc/app-paths';
import { locateTarget, type TargetRouting } from '../../router/hmvc/locate-target';

/** Where a route target lands, decided from its static segments only. */
export interface TargetDispatch {
  target: ControllerTarget;
  /**
   * True when the method segment holds a back-reference (`pages/$1`): the route may reach any
   * method `methodMatches` accepts, depending on the URI.
   */
  methodVaries: boolean;
  /** Whether a method name (any case) can be the one dispatched to. */
  methodMatches(name: string): boolean;
}

/** A segment decided per request: a back-reference, or a placeholder like `{default_controller}`. */
export function varies(segment: string): boolean {
  return segment.includes('$') || segment.includes('{') || segment.includes('\\');
}

/** What a target's controller-choosing segments tell: where it lands, the segment that decides it per request, or why it is not known. */
export type StaticTarget = { resolution: ControllerResolution } | { decidedBy: string } | { undecided: string };

/**
 * The router of an application whose host did not tell it: Modular Extensions' reading when the
 * folder has modules, else CodeIgniter's own.
 */
export function guessedRouting(folder: AppTree, root: AppTree = rootAroundApplication(folder)): TargetRouting {
  return { flavour: folder.isDir('modules') ? 'mx' : 'ci', root };
}

/** A routing as given, or the guessed one of an application folder (callers that know no router). */
export function routingOf(given: TargetRouting | AppTree): TargetRouting {
  return 'flavour' in given ? given : guessedRouting(given);
}

/**
 * The one rule for targets with back-references: the controller is known only when the static
 * segments before the first varying one already reach the same controller file. Otherwise the
 * segment that decides it per request is returned. Never throws.
 */
export function resolveStaticTarget(segments: string[], given: TargetRouting | AppTree, translateDashes = false): StaticTarget {
  const routing = routingOf(given);
  const first = segments.findIndex(varies);
  if (first === 0) return { decidedBy: segments[0] };
  const full = locateTarget(segments, routing, translateDashes);
  if ('undecided' in full) return full;
  if (first > 0) {
    const stable = locateTarget(segments.slice(0, first), routing, translateDashes);
    if ('undecided' in stable || !stable.found || !full.found || stable.target.file !== full.target.file) {
      // A look-up that fails without reading a varying segment fails whatever the request puts there (`nope/show/$1`, no Nope.php).
      if (!full.found && failsUnread(segments, routing, translateDashes)) return { resolution: full };
      return { decidedBy: segments[first] };
    }
  }
  return { resolution: full };
}

/** What stands for a varying segment while a look-up is watched (no file or folder has it in its name). */
const PROBE = '\u0000varies';

/**
 * Whether the controller look-up of `segments` fails without asking about a path or module made
 * of a varying segment: each is replaced by PROBE, and every question the look-up asks is watched.
 */
function failsUnread(segments: readonly string[], routing: TargetRouting, translateDashes: boolean): boolean {
  let read = false;
  const root = routing.root;
  // A question about the probe is answered "no" here (no file system is asked about it), and
  // noted unless the folder it would be in does not exist: then no value is there either.
  const asked = (p: string) => {
    const at = p.indexOf(PROBE);
    if (at < 0) return false;
    const folder = p.slice(0, p.lastIndexOf('/', at) + 1);
    if (folder === '' || root.isDir(folder.replace(/\/$/, ''))) read = true;
    return true;
  };
  const watched: AppTree = {
    isFile: (p) => !asked(p) && root.isFile(p),
    isDir: (p) => !asked(p) && root.isDir(p),
    // Asked only to word why a file is missing, once the look-up has failed: not a question that decides it.
    ...(root.fileInOtherCase ? { fileInOtherCase: (p: string) => (p.includes(PROBE) ? undefined : root.fileInOtherCase!(p)) } : {}),
  };
  const keysOf = routing.moduleRouteKeys;
  const probed = locateTarget(
    segments.map((s) => (varies(s) ? PROBE : s)),
    { ...routing, root: watched, ...(keysOf ? { moduleRouteKeys: (module: string) => (asked(module) ? undefined : keysOf(module)) } : {}) },
    translateDashes,
  );
  return !read && !('undecided' in probed) && !probed.found;
}

/**
 * Resolves a target's controller when the segments that choose it are static. A back-reference
 * among those segments (`$1/show`, `blog/$1` when `$1` picks the controller) makes the target
 * unresolvable here; one in the method segment makes the method vary; in the arguments it does
 * not matter. Never throws.
 */
export function dispatchTarget(target: string, routing: TargetRouting | AppTree, translateDashes = false): TargetDispatch | undefined {
  if (typeof target !== 'string' || emptySegmentIn(target) !== undefined) return undefined;
  const segments = target.split('/').filter((s) => s !== '');
  if (segments.length === 0) return undefined;
  let resolved: ControllerResolution;
  try {
    const r = resolveStaticTarget(segments, routing, translateDashes);
    if (!('resolution' in r) || !r.resolution.found) return undefined;
    resolved = r.resolution;
  } catch {
    return undefined;
  }
  if (!resolved.found) return undefined;
  const t = resolved.target;
  if (varies(t.class)) return undefined;
  if (!varies(t.method)) {
    const lower = t.method.toLowerCase();
    return { target: t, methodVaries: false, methodMatches: (name) => name.toLowerCase() === lower };
  }
  // `view_$1` can only reach methods starting with `view_`.
  const parts = t.method.split(/\$\{\d{1,2}\}|\$\d{1,2}|\{[^}]*\}|\\\d{1,2}/);
  return { target: t, methodVaries: true, methodMatches: literalsInOrder(parts) };
}

/**
 * Does a name read `parts[0] … parts[1] … … parts[n-1]` (any text in the gaps, case ignored)?
 * Decided in one left-to-right pass: a `^a.*b.*c$` RegExp takes polynomial time in the number of
 * gaps on names that almost match, and both the target and the names come from the workspace.
 */
function literalsInOrder(parts: string[]): (name: string) => boolean {
  const ps = parts.map((p) => p.toLowerCase());
  const first = ps[0];
  const last = ps[ps.length - 1];
  return (name) => {
    const s = name.toLowerCase();
    if (ps.length === 1) return s === first;
    if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
    const end = s.length - last.length;
    let at = first.length;
    for (let i = 1; i < ps.length - 1; i++) {
      // The leftmost occurrence leaves the most room for the parts after it.
      const found = s.indexOf(ps[i], at);
      if (found < 0 || found + ps[i].length > end) return false;
      at = found + ps[i].length;
    }
    return true;
  };
}

/** The target CodeIgniter uses under a method: a verb array (`array('GET' => ...)`) picks its entry. */
export function targetUnder(value: Value, method: RequestMethod): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof PhpArray) {
    const wanted = method.toLowerCase();
    for (const [k, v] of value.entries()) if (String(k).toLowerCase() === wanted) return typeof v === 'string' ? v : undefined;
  }
  return undefined;
}

/** `$route['translate_uri_dashes'] = TRUE` under any method. */
export function translatesDashes(evaluation: FileEvaluation): boolean {
  return (evaluation.methods ?? []).some((_, m) => translatesDashesUnder(evaluation, m));
}

/** `$route['translate_uri_dashes'] = TRUE` under the `m`-th request method. */
export function translatesDashesUnder(evaluation: FileEvaluation, m: number): boolean {
  return evaluation.methods?.[m]?.routes?.get('translate_uri_dashes') === true;
}

/**
 * Why a target with an empty segment (`/Capital`, `home/`, `a//b`) is not looked up: the router
 * keeps that segment (a module's `['admin', '', 'Capital']` falls to its default controller,
 * `home/` calls the method ''), where the look-up reads the others alone; undefined for a target
 * without one.
 */
export function emptySegmentIn(target: string): string | undefined {
  const segments = target.split('/');
  if (segments.length < 2 || !segments.includes('')) return undefined;
  return `'${target}' has an empty segment (a leading, trailing or doubled '/'), which the router keeps: where it leads is not looked up here (Test URL and ci-routes match follow it)`;
}
