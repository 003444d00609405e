import { finding } from '../core/types';
import type { Check } from '../core/context';

/**
 * Once per route file, where the application permits URI characters beyond CodeIgniter's default
 * `permitted_uri_chars`: the reachability checks, whose automata hold URIs of the default's
 * characters only, judge only keys every URI of which is of those characters (a literal key, or a
 * pattern reading them only: see default-chars-keys.ts), whose fate holds whatever else passes,
 * and this says why the others are not.
 */
export function uriCharsNotice(why: string): Check {
  return function uriChars({ text }) {
    const start = text.startsWith('<?php') ? 0 : Math.max(0, text.indexOf('<?php'));
    return [
      finding('uri-chars', { start, end: start + 5 }, `Routes whose pattern may match other characters than CodeIgniter's default ((:any), '.', a negated class) are not checked for reach (unreachable-route, shadowed-block): ${why}, and the checks know URIs of the default's characters only (a-z 0-9~%.:_-). Keys written without a pattern, or with one of those characters only ((:num), [a-z0-9-]), are checked.`, {
        details: "With more characters permitted, a URI an earlier route's pattern leaves out may reach a route the checks would call unreachable. Set config.php's permitted_uri_chars to CodeIgniter's default, or a part of it, to have every route checked.",
      }),
    ];
  };
}
