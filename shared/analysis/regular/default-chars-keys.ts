import { utf8Bytes } from '../../util/utf8-bytes';
import { literalOfDefaultChars, translateRouteKey } from './inclusion-syntax';
import { readsOnly } from './position-nfa';

/**
 * Which route keys the reachability checks may judge in an application that permits URI
 * characters beyond CodeIgniter's default (`permitted_uri_chars`, see app/uri-chars.ts): those
 * every URI they match is made of the default's characters and `/` only. Such a key's URIs are
 * all URIs the automata hold (U), so what is concluded of them (taken first by earlier keys, or
 * none at all) holds however many more characters reach the router: every earlier key's match
 * of a word of U is exact. A literal key of the default's characters is one (`posts/latest`); so
 * is a pattern anchored at both ends whose every position reads such characters only
 * (`posts/(:num)`, `shop/([a-z0-9-]+)`); `(:any)` and `.` read anything, so a key with them is not.
 * The bytes of `ſ` and `K`, which U holds, are left out: where the application permits other
 * non-ASCII characters, words of those bytes are not all in U.
 */

/** The default's characters and `/`, as bytes. */
const DEFAULT_ASCII = new Uint8Array(256);
for (const ch of '/ abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789~%.:_-') DEFAULT_ASCII[ch.charCodeAt(0)] = 1;
const allowed = (byte: number): boolean => DEFAULT_ASCII[byte] === 1;

/** Answers by key: the keys of the files being edited (a bounded memo of a pure function of the key). */
const within = new Map<string, boolean>();
const MAX_REMEMBERED = 20_000;

/** Whether every URI the key matches is of CodeIgniter's default characters (see above). */
export function keyWithinDefaultChars(key: string): boolean {
  if (literalOfDefaultChars(key)) return true;
  let answer = within.get(key);
  if (answer === undefined) {
    const t = translateRouteKey(utf8Bytes(key));
    try {
      answer = t.ok && readsOnly(t.alternatives, allowed);
    } catch {
      answer = false;
    }
    if (within.size >= MAX_REMEMBERED) within.clear();
    within.set(key, answer);
  }
  return answer;
}
