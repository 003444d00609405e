/** The Route library's public methods: signatures and one-line docs, for completion and help. */
export const ROUTE_METHOD_DOCS: Record<string, { signature: string; params: string[]; doc: string }> = {
  any: { signature: 'any($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route open to every request method. `as` in $options names it.' },
  get: { signature: 'get($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only when the request method is GET (not HEAD).' },
  post: { signature: 'post($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for POST requests.' },
  put: { signature: 'put($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for PUT requests.' },
  delete: { signature: 'delete($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for DELETE requests.' },
  head: { signature: 'head($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for HEAD requests (GET routes do not apply).' },
  patch: { signature: 'patch($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for PATCH requests.' },
  options: { signature: 'options($from, $to, $options = [], $nested = false)', params: ['$from', '$to', '$options', '$nested'], doc: 'A route that exists only for OPTIONS requests.' },
  resources: {
    signature: 'resources($name, $options = [], $nested = false)',
    params: ['$name', '$options', '$nested'],
    doc: 'The RESTful set: GET name, name/new, name/{id}/edit, name/{id}; POST name; PUT and DELETE name/{id}. Options: controller, module, constraint, offset.',
  },
  context: { signature: 'context($name, $controller = null, $options = [])', params: ['$name', '$controller', '$options'], doc: 'An area every module contributes to: name/(:any)… six levels deep, plus a home route with the `home` option. Options: offset, home.' },
  prefix: { signature: 'prefix($name, Closure $callback)', params: ['$name', '$callback'], doc: 'Prefixes the $from of routes declared in the closure with "name/". Does not nest.' },
  block: { signature: 'block(...$paths)', params: ['...$paths'], doc: "Sets each path's target to ''. CodeIgniter 3's router (and the HMVC routers) then serve such a URI with the default controller: it reaches the home page's controller, not a 404. Pass paths as separate arguments, not an array." },
  named: { signature: 'named($name)', params: ['$name'], doc: 'The $from saved under a name by the `as` option, or null.' },
  map: { signature: 'map($routes = [])', params: ['$routes'], doc: 'Merges the declared routes into $routes (use `$route = Route::map($route);` after the last declaration).' },
  reset: { signature: 'reset()', params: [], doc: 'Forgets every route and name declared so far (the prefix stays).' },
};
