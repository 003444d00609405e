import type { PhpNode, Span } from '../php/ast';
import { REQUEST_METHODS, methodsIn } from '../runtime/methods';
import { Diverge } from '../library/route-library';
import { PhpFatal, toKey, toPhpString } from '../runtime/convert';
import { EvaluationLimit } from '../runtime/limits';
import { ENTRY_UNITS } from '../runtime/work-meter';
import { isPhp8 } from '../runtime/php-version';
import { PerMethod, PhpArray, Unknown, shareValue, type Value } from '../runtime/values';
import type { InterpreterCore } from './interpreter-core';
import type { Scope } from './scope';

/* Variables: which scope a name is in, reads and writes, and the superglobals ($GLOBALS, $_SERVER). */

/**
 * `$_SERVER` keys a web request has (or may have: HTTPS, CI_ENV, headers the client sent): their
 * values are unknown, and `isset()` of the optional ones is undecided, not false.
 */
const WEB_SERVER_KEYS = [
  'HTTP_HOST', 'SERVER_NAME', 'SERVER_ADDR', 'SERVER_PORT', 'SERVER_PROTOCOL', 'SERVER_SOFTWARE', 'REQUEST_URI', 'QUERY_STRING',
  'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'PATH_INFO', 'DOCUMENT_ROOT', 'REMOTE_ADDR', 'REMOTE_PORT', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT',
  'HTTPS', 'HTTP_USER_AGENT', 'HTTP_ACCEPT', 'HTTP_ACCEPT_LANGUAGE', 'HTTP_REFERER', 'HTTP_X_REQUESTED_WITH', 'HTTP_X_FORWARDED_FOR', 'HTTP_X_FORWARDED_PROTO', 'CI_ENV',
];
/** The keys every web request (or command-line run) has: isset() of them is true. */
const ALWAYS_SET_SERVER_KEYS = new Set(['HTTP_HOST', 'SERVER_NAME', 'SERVER_PORT', 'SERVER_PROTOCOL', 'REQUEST_URI', 'QUERY_STRING', 'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'DOCUMENT_ROOT', 'REMOTE_ADDR', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT', 'argv', 'argc']);
/** A command-line run (`php index.php controller method`): its arguments, not known statically. */
const CLI_SERVER_KEYS = ['argv', 'argc', 'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT', 'CI_ENV'];

/**
 * A write into `$_SERVER`: seen by later reads under every method. REQUEST_METHOD is what the
 * library's verb methods and the router read to choose routes: a write to it changes which
 * request the rest of the file (and the router) serve, which is not evaluated.
 */
export function assignServer(it: InterpreterCore, target: PhpNode, value: Value): void {
  const key = target.offset ? toKey(it.eval(target.offset)) : new Unknown('$_SERVER[] appends');
  if (key instanceof Unknown || key === 'REQUEST_METHOD') {
    throw new EvaluationLimit(`evaluation stopped: a write to $_SERVER${key instanceof Unknown ? '[…]' : "['REQUEST_METHOD']"} changes the request method the library and the router read, which is not evaluated; routes after this point are not known`);
  }
  if (it.mask !== it.options.mask) throw new Diverge('$_SERVER is written under some request methods only');
  serverArray(it);
  // Not in checkpoints nor recorded effects: nothing is reused past it (see isClean).
  it.serverWritten = true;
  it.serverArrays = it.serverArrays!.map((a) => {
    const copy = a.clone();
    copy.set(key, shareValue(value));
    shareValue(copy);
    return copy;
  });
}

export function writeScope(it: InterpreterCore, name: string): Scope {
  return it.scope.refs.get(name) ?? (it.scope.globalNames.has(name) ? it.globals : it.scope);
}

/**
 * A scope's variable under which an include that was not evaluated is noted (a name no PHP
 * variable has): such a file may set any variable, so one read as unset afterwards is unknown,
 * not null. A variable, so checkpoints and branch merges carry it as they carry the others.
 */
const INCLUDE_NOT_RUN = '\u0000include-not-run';

/** Notes in `scope` that an include at `span` was not evaluated (see INCLUDE_NOT_RUN). */
export function markIncludeNotRun(scope: Scope, span: Span): void {
  markVariablesUnknown(scope, 'it may be set by an include that was not evaluated', span);
}

/** Notes in `scope` that code at `span` may have set any variable (see INCLUDE_NOT_RUN): `$name <reason>` for one read unset afterwards. */
export function markVariablesUnknown(scope: Scope, reason: string, span: Span): void {
  if (!scope.vars.has(INCLUDE_NOT_RUN)) scope.vars.set(INCLUDE_NOT_RUN, new Unknown(reason, span));
}

/** Whether a variable name is one PHP code can see (not INCLUDE_NOT_RUN). */
export function isPhpVariable(name: string): boolean {
  return name !== INCLUDE_NOT_RUN;
}

export function readVariable(it: InterpreterCore, node: PhpNode, quiet = false): Value {
  const name = variableName(it, node);
  if (name instanceof Unknown) return name;
  if (name === 'GLOBALS') return globalsArray(it);
  if (name === '_SERVER') return serverArray(it);
  if (name === 'this') return new Unknown("$this (CodeIgniter's router, which includes routes.php) is not evaluated");
  if (name.startsWith('_') && ['_GET', '_POST', '_REQUEST', '_COOKIE', '_ENV', '_FILES', '_SESSION'].includes(name)) {
    return new Unknown(`$${name} depends on the request`);
  }
  const scope = writeScope(it, name);
  const v = scope.vars.get(name);
  if (v === undefined) {
    if (it.scope.arrowParent?.has(name)) return it.scope.arrowParent.get(name) as Value;
    const notRun = scope.vars.get(INCLUDE_NOT_RUN);
    if (notRun instanceof Unknown) return new Unknown(`$${name} ${notRun.reason}`, notRun.span);
    if (!quiet) it.warn(isPhp8(it.options.phpVersion) ? `Undefined variable $${name}` : `Undefined variable: ${name}`);
    return null;
  }
  return v;
}

export function variableName(it: InterpreterCore, node: PhpNode): string | Unknown {
  if (typeof node.name === 'string') return node.name;
  const v = it.eval(node.name);
  // Each method then converts its own value (with its own warnings), as it would alone.
  if (v instanceof PerMethod) throw new Diverge('a variable name differs by request method');
  return toPhpString(v, it);
}

/** `$GLOBALS` as a read-only snapshot of the global variables. */
export function globalsArray(it: InterpreterCore): PhpArray {
  it.charge(it.globals.vars.size * ENTRY_UNITS);
  const a = new PhpArray();
  for (const [k, v] of it.globals.vars) if (isPhpVariable(k)) a.set(k, shareValue(v));
  return a;
}

/** `$_SERVER`: REQUEST_METHOD is what differs between the route tables. */
function serverArray(it: InterpreterCore): Value {
  const by: Value[] = (it.serverArrays ??= REQUEST_METHODS.map((name) => {
    const a = new PhpArray();
    if (name !== 'CLI') a.set('REQUEST_METHOD', name);
    // What the web server or PHP sets for a request: there, or maybe there, and not known statically.
    for (const key of name === 'CLI' ? CLI_SERVER_KEYS : WEB_SERVER_KEYS) a.set(key, new Unknown(`$_SERVER['${key}'] depends on the request`, undefined, ALWAYS_SET_SERVER_KEYS.has(key)));
    shareValue(a);
    return a;
  }));
  const ms = methodsIn(it.mask);
  return ms.length === 1 ? by[ms[0]] : new PerMethod(by);
}

export function setVariable(it: InterpreterCore, name: string, value: Value): void {
  if (name === 'this') throw new PhpFatal('Error', 'Cannot re-assign $this');
  const scope = writeScope(it, name);
  if (scope.mask !== it.mask && !(value instanceof Unknown)) {
    throw new Diverge(`$${name} is written under some request methods only`);
  }
  scope.vars.set(name, value);
}
