/**
 * The URI CodeIgniter 3 routes for a typed URL, as CI_URI::_parse_request_uri() reads
 * REQUEST_URI: scheme, host, query and fragment dropped; the front controller's path
 * (`/index.php`, or its folder) stripped from the front; then _remove_relative_directory():
 * empty segments and `..` segments dropped (not resolved: `a/../b` is `a/b`).
 */
export function requestUriPath(typed: string, frontController = '/index.php'): string {
  let path = typed.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  if (!path.startsWith('/')) path = `/${path}`;
  const folder = frontController.slice(0, frontController.lastIndexOf('/') + 1) || '/';
  if (path.startsWith(frontController)) path = path.slice(frontController.length);
  else if (path.startsWith(folder)) path = path.slice(folder.length);
  return path
    .split('/')
    // PHP's `(! empty($tok) OR $tok === '0') && $tok !== '..'`: '0' is kept, '' and '..' are not.
    .filter((segment) => segment !== '' && segment !== '..')
    .join('/');
}
