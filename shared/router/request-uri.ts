/** remove_invisible_characters($str, FALSE): control characters other than tab, line feed and carriage return. */
const INVISIBLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]+/g;
/** What PHP's trim() takes off both ends by default. */
const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

/**
 * The URI CodeIgniter 3 routes for a typed URL, as CI_URI reads REQUEST_URI (its default
 * uri_protocol), in the order it does:
 * - _parse_request_uri(): scheme, host and fragment dropped; the front controller's path stripped
 *   from the front (SCRIPT_NAME; or its folder); then a path left empty takes a query string
 *   starting with `/` (`index.php?/blog/12`, as some servers pass it), and any other query is
 *   dropped; _remove_relative_directory(): empty segments and `..` segments dropped (not resolved:
 *   `a/../b` is `a/b`).
 * - _set_uri_string(): control characters removed, the URL suffix (config.php's url_suffix) cut
 *   from the end, segments trimmed and empty ones dropped.
 *
 * `frontController` is SCRIPT_NAME, which a URL alone does not tell: by default the path up to
 * and including its first `index.php` segment (a site in a sub-folder: `/shop/index.php/cart` is
 * `cart`), else `/index.php` (a URL without the front controller is taken whole, from the site's
 * root). Percent-escapes are kept: REQUEST_URI is not decoded, and routes match its text.
 */
export function requestUriPath(typed: string, frontController?: string, urlSuffix = ''): string {
  const url = typed.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/#.*$/s, '');
  const q = url.indexOf('?');
  const query = q < 0 ? '' : url.slice(q + 1);
  let path = q < 0 ? url : url.slice(0, q);
  if (!path.startsWith('/')) path = `/${path}`;
  const script = frontController ?? /^(.*?\/index\.php)(?=\/|$)/.exec(path)?.[1] ?? '/index.php';
  const folder = script.slice(0, script.lastIndexOf('/') + 1) || '/';
  if (path.startsWith(script)) path = path.slice(script.length);
  else if (path.startsWith(folder)) path = path.slice(folder.length);
  if (/^\/*$/.test(path) && query.startsWith('/')) path = query.split('?')[0]!;
  let uri = path
    .split('/')
    // PHP's `(! empty($tok) OR $tok === '0') && $tok !== '..'`: '0' is kept, '' and '..' are not.
    .filter((segment) => segment !== '' && segment !== '..')
    .join('/')
    .replace(INVISIBLE, '')
    .replace(/^\/+|\/+$/g, '');
  if (uri !== '' && urlSuffix !== '' && uri.endsWith(urlSuffix)) uri = uri.slice(0, -urlSuffix.length);
  return uri
    .split('/')
    .map((segment) => segment.replace(PHP_TRIM, ''))
    .filter((segment) => segment !== '')
    .join('/');
}
