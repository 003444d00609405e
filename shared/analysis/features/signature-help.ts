/**
 * Signature help for `Route::method(`: the innermost Route call around the cursor, found from the
 * text (strings, nested calls and arrays are skipped; a closure body in between stops the search,
 * so typing inside `prefix()`'s callback shows nothing).
 */

import { cursorContext, enclosingRouteCall } from '../model/cursor-context';
import { ROUTE_METHOD_DOCS } from './library-docs';

export interface SignatureParameter {
  /** As written in the signature, e.g. `$options = []`. */
  label: string;
  /** Where `label` sits in the signature's label: [start, end). */
  labelOffsets: [number, number];
  doc: string;
}

export interface SignatureInfo {
  label: string;
  doc: string;
  parameters: SignatureParameter[];
  /** The parameter the cursor is in; undefined when past the last one (too many arguments). */
  activeParameter: number | undefined;
}

const ROUTE_PARAMS: Record<string, string> = {
  $from: "The URI pattern, relative to the current prefix. CodeIgniter's `(:any)` and `(:num)` and regular-expression groups capture what `$1`, `$2`… receive in `$to`.",
  $to: 'The target: `controller/method/args`, or `module/controller/method` with HMVC; `$1`… are the groups of `$from`.',
  $options: "`['as' => 'name']` names the route for `Route::named()`; no other key is read.",
  $nested: 'A closure whose routes are declared under this route\'s `$from` (only the first route inside sees the nesting).',
};

/** Per method, what each parameter means. */
const PARAM_DOCS: Record<string, Record<string, string>> = {
  resources: {
    $name: 'The resource path: `photos` gives `photos`, `photos/new`, `photos/{id}`, `photos/{id}/edit`; also the controller unless `controller` says otherwise.',
    $options: '`controller`, `module`, `constraint` (pattern of `{id}`), `offset` (added to the id back-reference).',
    $nested: "A closure whose routes are declared under each generated route's path (it runs once per route).",
  },
  context: {
    $name: 'The area, e.g. `admin`: `admin/(:any)`… up to six segments route to `$1/<controller>/$2…`.',
    $controller: 'The controller every module provides for the area; defaults to `$name`. An array here is taken as `$options`.',
    $options: '`offset` (added to every back-reference), `home` (also route the bare area to this method).',
  },
  prefix: {
    $name: 'Put in front of the `$from` of every route declared in the callback, with a `/`.',
    $callback: 'A closure declaring the routes. prefix() inside it replaces this prefix: prefixes do not nest.',
  },
  block: { '...$paths': "Each path becomes a route to `''`, so the URI cannot be reached. Separate arguments: an array registers the path `Array`." },
  named: { $name: 'A name given with `as`; returns its `$from`, or null when no route has it (yet).' },
  map: { $routes: 'The array to merge into, usually `$route`; assign the result back: `$route = Route::map($route);`.' },
};

function paramDoc(method: string, param: string): string {
  return PARAM_DOCS[method]?.[param] ?? ROUTE_PARAMS[param] ?? '';
}

/** The signature of the innermost `Route::x(` call around the cursor, or undefined. */
export function signatureAt(text: string, offset: number): SignatureInfo | undefined {
  const ctx = cursorContext(text, offset);
  if (!ctx) return undefined;
  const call = enclosingRouteCall(ctx);
  if (!call || call.frame.role.kind !== 'route-call') return undefined;
  const method = call.frame.role.method;
  const docs = Object.prototype.hasOwnProperty.call(ROUTE_METHOD_DOCS, method) ? ROUTE_METHOD_DOCS[method] : undefined;
  if (!docs) return undefined;
  const label = `Route::${docs.signature}`;
  const open = label.indexOf('(') + 1;
  const inner = label.slice(open, label.lastIndexOf(')'));
  const parameters: SignatureParameter[] = [];
  let at = open;
  for (const part of inner === '' ? [] : inner.split(', ')) {
    const name = docs.params[parameters.length] ?? part;
    parameters.push({ label: part, labelOffsets: [at, at + part.length], doc: paramDoc(method, name) });
    at += part.length + 2;
  }
  const index = call.frame.argIndex;
  const variadic = parameters.length > 0 && parameters[parameters.length - 1].label.startsWith('...');
  const activeParameter = index < parameters.length ? index : variadic ? parameters.length - 1 : undefined;
  return { label, doc: docs.doc, parameters, activeParameter };
}
