import { compileModuleRouteKey } from '../pattern';

/** Characters after which a module route key is a pattern rather than literal text (`:any`, `:num` included). */
const PATTERN_START = /[.[\]()*+?{}|^$\\:#]/;
/** Characters from which a target's text is decided per request (back-references, placeholders). */
const VARYING_START = /[$\\{]/;

/**
 * Whether a module route key (anchored, case-sensitive, as Modules::parse_routes() matches it) can
 * match the URI a target becomes. A target known in full is matched; one with back-references is
 * known up to its first, so the key may match unless its literal beginning already differs from
 * that fixed part. Errs towards "may": a key that may match leaves the target undecided.
 */
export function mayMatchModuleRoute(key: string, target: string): boolean {
  const varying = target.search(VARYING_START);
  if (varying < 0) return compileModuleRouteKey(key).match(target) !== null;
  const fixed = target.slice(0, varying);
  const patternAt = key.search(PATTERN_START);
  const literal = patternAt < 0 ? key : key.slice(0, patternAt);
  if (patternAt < 0) return literal.startsWith(fixed);
  return literal.startsWith(fixed) || fixed.startsWith(literal);
}
