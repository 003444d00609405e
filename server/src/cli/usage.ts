/** `ci-routes --help`: every command, the options they share. */
export const USAGE = `ci-routes: CodeIgniter 3 route files evaluated exactly as the Route library does, without PHP.

Usage:
  ci-routes list  [<routes.php>] [--method M] [--path GLOB] [--name GLOB] [--sort file|uri|name] [--json] [options]
  ci-routes eval  <routes.php> --method M --json [options]
  ci-routes match <routes.php> [--method M] [--router R] [--json] [--] <uri or URL>... [options]
  ci-routes check [<routes.php>...] [--severity CODE=LEVEL]... [--max-warnings N] [--route-files-only] [--follow-symlinks] [--json] [options]
  ci-routes help [<command>]        ci-routes <command> --help        ci-routes --version

Commands:
  list    the routes the file produces: method, URI pattern, target, name, where declared
  eval    the final $route, named routes, error and warnings for one request method, as JSON
  match   how the application's router routes each URI or URL: the main route, the module
          route, the controller it dispatches to
  check   the language server's diagnostics for the route files, and unknown route names in
          the application's other PHP files; exits 1 on an error, or on more warnings than
          --max-warnings allows

Without a route file, list and check find the application from the current folder: the
nearest folder, this one or one above it, holding config/routes.php (a module's folder leads
to its application) or application/config/routes.php, up to the repository's root; an
application without one is found by an environment's (config/production/routes.php).

Options:
  --method M            GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS or CLI (no request method)
  --dialect D           spec (default) or bonfire; detected from the app's Route.php when present
  --router R            ci, bonfire or mx: the router that routes requests (list, match); detected
                        from Bonfire's bonfire/core/BF_Router.php or Modular Extensions'
                        third_party/MX/, else CodeIgniter's own
  --define NAME=VALUE   define a constant before the file runs (repeatable)
  --php-version V       the PHP version whose semantics apply where versions differ (7.4, 8.2…);
                        default: the lowest composer.json's require.php allows, else 8.2
  --max-steps N         evaluation step budget (default 100,000, as the editor's ciRoutes.maxSteps;
                        a 10,000-declaration file takes about 62,000)
  --path GLOB           with list: routes whose URI pattern is GLOB or matches it (see list --help)
  --name GLOB           with list: routes with a name that is GLOB or matches it
  --sort ORDER          with list: file (the table's order, the default), uri or name
  --severity CODE=LEVEL with check: off, error, warning, information or hint for a diagnostic
                        code, as the editor's ciRoutes.diagnostics setting (repeatable)
  --max-warnings N      with check: fail when there are more than N warnings
  --route-files-only    with check: only the route files given (no other file is read)
  --follow-symlinks     with check, and list without a route file: also follow symlinks that lead
                        out of the project folder (by default reads stay inside it)
  --json                machine-readable output
  -h, --help            this text; with a command, that command's
  -V, --version         the version of ci-routes

The application folder (for config/constants.php and controllers) is the one holding config/routes.php.
Bad input exits 2 with one line on stderr.
`;

const SHARED = `Shared options (ci-routes --help): --dialect D, --router R, --define NAME=VALUE, --php-version V, --max-steps N`;

/** `ci-routes <command> --help` and `ci-routes help <command>`. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  list: `Usage: ci-routes list [<routes.php>] [--method M] [--path GLOB] [--name GLOB] [--sort file|uri|name] [--json] [options]

The routes a route file produces: method, URI pattern, target, route name and where each is
declared (file:line); then the application's other route files, each with its own table, in the
order its router reads them (the main file, then each module's config/routes.php).

Without <routes.php>, the application is found from the current folder (this one or the nearest
above it holding config/routes.php, or a project root holding application/config/routes.php, up
to the repository's root) and its main route file is listed; reads then stay inside its project
folder unless --follow-symlinks.

Options:
  --method M          only the routes of this request method (GET, POST, PUT, DELETE, HEAD,
                      PATCH, OPTIONS or CLI); without it a route present under several methods
                      is one row (ANY under all eight)
  --path GLOB         only the routes whose URI pattern (the $route key, as written) is GLOB or
                      matches it as a glob: * any text within a segment, ** any segments, ?,
                      [abc] and {a,b}; parentheses are plain text, so (:any), (:num) and regex
                      groups match themselves; a leading / is ignored
  --name GLOB         only the routes with a name that is GLOB or matches it (* matches dots too)
  --sort ORDER        file: the table's order, which is the order the router tries them (the
                      default); uri: by URI pattern; name: by first name, unnamed routes last
  --json              the same, as JSON (filters and order apply to other_files too)
  ${SHARED}

Filters apply to every table, the settings above it (default_controller, translate_uri_dashes)
included; the count under each says how many of its routes are shown.

Examples:
  ci-routes list
  ci-routes list application/config/routes.php --method POST --path 'admin/**'
  ci-routes list --name 'blog.*' --sort uri --json
`,
  eval: `Usage: ci-routes eval <routes.php> --method M [--json] [options]

The final $route, the named routes, the error and the warnings of one request method, as one JSON
object ({"routes", "named", "error", "warnings", "incomplete"}); indented unless --json.

Options:
  --method M          GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS or CLI (required)
  --json              one line of JSON
  ${SHARED}

Example:
  ci-routes eval application/config/routes.php --method POST --json
`,
  match: `Usage: ci-routes match <routes.php> [--method M] [--router R] [--json] [--] <uri or URL>... [options]

How the application's router routes each request: the first main route that matches, then for
HMVC applications the module's config/routes.php, then the controller it dispatches to, each
with the file:line it comes from.

Each argument is a URI (blog/12) or a URL pasted from a browser, read as CodeIgniter reads
REQUEST_URI: the scheme and host, the fragment and the query string are dropped (a path left
empty takes a query starting with /: index.php?/blog/12); the path up to and including its first
index.php segment is the front controller's and comes off (a site in a sub-folder:
http://localhost/shop/index.php/blog/12 is blog/12), while a URL without index.php is taken whole
from the site's root; empty and .. segments are dropped; config/config.php's url_suffix (.html)
is cut from the end when it is a literal. Percent-escapes are kept as typed (CodeIgniter routes
REQUEST_URI undecoded). "routed as" shows the URI routed when it differs from the one given.

Options:
  --method M          the request method (default GET)
  --router R          ci, bonfire or mx (default: detected from the application's files)
  --json              as JSON: {file, method, router, router_source, dialect, url_suffix,
                      url_suffix_source, results, unknown_routes, limits}
  ${SHARED}

Examples:
  ci-routes match application/config/routes.php blog/12
  ci-routes match application/config/routes.php --method POST 'http://localhost/app/index.php/contact?x=1'
`,
  check: `Usage: ci-routes check [<routes.php>...] [--severity CODE=LEVEL]... [--max-warnings N] [--route-files-only] [--follow-symlinks] [--json] [options]

What the language server shows for an application: every diagnostic of the route files given,
then unknown-route-name for Route::named() calls in the application's other PHP files. Exits 1
on an error, or on more warnings than --max-warnings allows. Reads stay inside the projects of
the files given (symlinks resolved) unless --follow-symlinks.

Without <routes.php>, the application is found from the current folder (as list finds it) and
all its route files are checked: the main file (with its environment's config/<ENV>/routes.php,
which runs within it) and every module's.

Options:
  --severity CODE=LEVEL   off, error, warning, information or hint in place of a code's default
                          (repeatable), as the editor's ciRoutes.diagnostics setting
  --max-warnings N        fail when there are more than N warnings
  --route-files-only      read nothing but the route files
  --follow-symlinks       also follow symlinks that lead out of the project folder
  --json                  {"files", "phpFilesSeen", "errors", "warnings", "failed"}
  ${SHARED}

Examples:
  ci-routes check
  ci-routes check application/config/routes.php --max-warnings 0 --severity dynamic-route=off
`,
};

/** Bad input: one line on stderr, exit 2. */
export class UsageError extends Error {}
