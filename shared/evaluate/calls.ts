import type { IncludedFile, PhpNode, Span } from '../php/ast';
import { REQUEST_METHODS, methodsIn, type MethodMask } from '../runtime/methods';
import type { RecordedSite } from '../runtime/call-site';
import { Diverge } from '../library/route-library';
import { callBuiltin, isBuiltin, type BuiltinContext } from '../runtime/builtins';
import { PhpFatal, toPhpString } from '../runtime/convert';
import { EvaluationLimit } from '../runtime/limits';
import { unitsOf } from '../runtime/work-meter';
import { PerMethod, PhpArray, PhpClosure, Unknown, shareValue, type Value } from '../runtime/values';
import { describeKind, type InterpreterCore } from './interpreter-core';
import type { FunctionDeclaration } from './interpreter-state';
import { Scope } from './scope';
import { lift } from './operators';
import { constant, isDefined } from './constant-lookup';
import { markVariablesUnknown, writeScope } from './variables';
import { evalArgs } from './call-arguments';
import { callModel, callStatic, staticCallableOf } from './static-calls';
import { execList } from './statements';
import { assignTo, noteRouterStateWrite, quietRead } from './assignments';

/*
 * Calls: functions (the file's, PHP's pure builtins, define() and the other functions that reach
 * the interpreter's state), closures and callables; static calls are in static-calls.ts.
 */

const MAX_CALL_DEPTH = 100;

export function makeClosure(it: InterpreterCore, node: PhpNode): PhpClosure {
  const captured = new Map<string, Value>();
  const refs = new Map<string, Scope>();
  for (const u of node.uses ?? []) {
    const name = u.kind === 'variable' ? u.name : u.name?.name;
    if (typeof name !== 'string') continue;
    if (u.byref) {
      // The closure reads and writes the variable where it lives, when it runs.
      refs.set(name, writeScope(it, name));
      continue;
    }
    const v = writeScope(it, name).vars.get(name);
    captured.set(name, v === undefined ? null : shareValue(v));
  }
  const closure = new PhpClosure(node, it.base, captured, undefined, it.source);
  if (refs.size) {
    it.closureRefs.set(closure, refs);
    it.capturedByReference = true;
  }
  return closure;
}

export function evalCall(it: InterpreterCore, node: PhpNode): Value {
  const what: PhpNode = node.what;
  try {
    if (what.kind === 'staticlookup') return callStatic(it, node, what);
    if (what.kind === 'name') return callFunction(it, String(what.name), node);
    const callee = it.eval(what);
    if (callee instanceof PhpClosure) return callClosure(it, callee, evalArgs(it, node.arguments));
    // `$f = 'Route::post'; $f(...)`, `$f = ['Route', 'get']; $f(...)`.
    const target = staticCallableOf(it, callee);
    if (target !== undefined) {
      const args = evalArgs(it, node.arguments, target.model.parameterNames(target.method));
      return callModel(it, target.model, target.method, args, it.span(node), it.span(what), (node.arguments ?? []).map((a: PhpNode | null) => it.span(a ?? node)));
    }
    if (typeof callee === 'string') return callFunction(it, callee, node);
    if ((what.kind === 'propertylookup' || what.kind === 'nullsafepropertylookup') && what.offset?.kind === 'identifier') {
      evalArgs(it, node.arguments);
      return new Unknown(`the method call ->${String(what.offset.name)}() is not evaluated (objects are not)`, it.span(node));
    }
    return new Unknown(`call of ${describeKind(what.kind)} is not evaluated`, it.span(node));
  } catch (e) {
    if (e instanceof PhpFatal && !e.span) e.span = it.span(node);
    throw e;
  }
}

function callFunction(it: InterpreterCore, rawName: string, node: PhpNode): Value {
  const name = rawName.replace(/^\\/, '');
  const lower = name.toLowerCase();
  switch (lower) {
    case 'define': {
      const [n, v] = evalArgs(it, node.arguments);
      const cname = toPhpString(n ?? null, it);
      if (cname instanceof Unknown) return cname;
      if (isDefined(it, cname)) {
        it.warn(`Constant ${cname} already defined`);
        return false;
      }
      // Constants are one table for all methods: one defined under some methods only (in a verb
      // route's $nested callable, say) needs each method evaluated alone.
      if (it.mask !== it.options.mask) throw new Diverge('a constant is defined under some request methods only');
      it.constants.set(cname, v ?? null);
      return true;
    }
    case 'defined': {
      const [n] = evalArgs(it, node.arguments);
      const cname = toPhpString(n ?? null, it);
      return cname instanceof Unknown ? cname : isDefined(it, cname);
    }
    case 'constant': {
      const [n] = evalArgs(it, node.arguments);
      const cname = toPhpString(n ?? null, it);
      if (cname instanceof Unknown) return cname;
      return constant(it, cname, node);
    }
    case 'glob':
      return it.includes.glob(evalArgs(it, node.arguments), it.span(node));
    case 'scandir':
      return it.includes.scandir(evalArgs(it, node.arguments), it.span(node));
    case 'is_dir':
    case 'is_file':
    case 'file_exists':
      return it.includes.fileTest(lower, evalArgs(it, node.arguments), it.span(node));
    case 'function_exists':
      evalArgs(it, node.arguments);
      return new Unknown('function_exists() depends on the application');
    case 'call_user_func': {
      const [fn, ...rest] = evalArgs(it, node.arguments);
      return callValue(it, fn ?? null, rest, it.span(node));
    }
    case 'extract':
    case 'parse_str':
    case 'import_request_variables': {
      // They set variables the analysis does not write (extract() of an array, parse_str() without
      // a result array): any variable read as unset afterwards may be one of them.
      const args = evalArgs(it, node.arguments);
      const result: PhpNode | undefined = lower === 'parse_str' && args.length >= 2 ? node.arguments[1] : undefined;
      if (result) assignTo(it, result, new Unknown(`set by ${name}(), which is not evaluated`, it.span(node)));
      else markVariablesUnknown(it.scope, `may be set by ${name}(), which is not evaluated`, it.span(node));
      return new Unknown(`${name}() is not evaluated`, it.span(node));
    }
    case 'call_user_func_array': {
      const [fn, list] = evalArgs(it, node.arguments);
      if (list instanceof PhpArray) it.charge(unitsOf(list));
      return list instanceof PhpArray ? callValue(it, fn ?? null, [...list.values()], it.span(node)) : new Unknown('arguments unknown');
    }
  }
  const user = functionToCall(it, lower);
  if (user) return callUser(it, user, userArgs(it, user.node, node.arguments), new Map(), undefined, name, undefined, node.arguments);
  // CodeIgniter's Common.php, loaded before the router: `PHP_SAPI === 'cli' OR defined('STDIN')`,
  // true for the command line (the CLI table) and false for a web request (every other method).
  if (lower === 'is_cli') {
    evalArgs(it, node.arguments);
    const methods = methodsIn(it.mask);
    return methods.length === 1 ? REQUEST_METHODS[methods[0]!] === 'CLI' : new PerMethod(REQUEST_METHODS.map((m) => m === 'CLI'));
  }
  if (isBuiltin(lower)) {
    const args = evalArgs(it, node.arguments);
    return lift(it, args, (vals) => callBuiltin(lower, vals, it.builtinContext));
  }
  evalArgs(it, node.arguments);
  // A builtin changing an argument in place (array_pop($route), ksort($route)) is not evaluated: what it changes is not known either.
  for (const i of BY_REFERENCE[lower] ?? []) {
    const arg: PhpNode | undefined = node.arguments?.[i];
    if (!arg || (arg.kind !== 'variable' && arg.kind !== 'offsetlookup' && arg.kind !== 'propertylookup')) continue;
    if (!noteRouterStateWrite(it, arg)) assignTo(it, arg, new Unknown(`changed by ${name}(), which is not evaluated`, it.span(node)));
  }
  return new Unknown(`${name}() is not evaluated (only pure builtins are)`, it.span(node));
}

/** A user function's arguments: a variable passed by reference is read quietly (PHP makes an unset one null, without a warning). */
function userArgs(it: InterpreterCore, fn: PhpNode, args: PhpNode[] | undefined): Value[] {
  const params: PhpNode[] = fn.arguments ?? [];
  if (!args || !params.some((p) => p.byref) || args.some((a) => !a || a.kind === 'variadic' || a.kind === 'namedargument')) return evalArgs(it, args);
  return args.map((a, i) => (params[i]?.byref && (a.kind === 'variable' || a.kind === 'offsetlookup') ? quietRead(it, a) : it.eval(a)));
}

/** PHP's functions that change an argument they take by reference, by name: the arguments' places. */
const BY_REFERENCE: Readonly<Record<string, readonly number[]>> = {
  array_push: [0], array_pop: [0], array_shift: [0], array_unshift: [0], array_splice: [0], array_walk: [0], array_walk_recursive: [0], array_multisort: [0],
  sort: [0], rsort: [0], usort: [0], uasort: [0], uksort: [0], asort: [0], arsort: [0], ksort: [0], krsort: [0], natsort: [0], natcasesort: [0], shuffle: [0], settype: [0],
  preg_match: [2], preg_match_all: [2], parse_str: [1], str_replace: [3], str_ireplace: [3], preg_replace: [4], preg_replace_callback: [4], sscanf: [2, 3, 4, 5, 6, 7, 8, 9],
};

/** A declared function about to be called (spans of what it creates lie in its body, wherever that is). */
function functionToCall(it: InterpreterCore, lower: string): FunctionDeclaration | undefined {
  const declared = it.functions.get(lower);
  if (declared) it.calledFunction = true;
  return declared;
}

export function makeBuiltinContext(it: InterpreterCore): BuiltinContext {
  const version = () => it.options.phpVersion;
  return {
    warn: (m) => it.warn(m),
    call: (fn, a) => callValue(it, fn, a),
    charge: (units) => it.charge(units),
    isFunction: (name) => {
      const target = staticCallableOf(it, name);
      if (target !== undefined) return target.model.hasMethod(target.method);
      if (name.includes('::')) return undefined;
      const lower = name.toLowerCase();
      // Functions CodeIgniter's helpers or the application declare elsewhere are not known.
      return it.functions.has(lower) || isBuiltin(lower) ? true : undefined;
    },
    get phpVersion() {
      return version();
    },
  };
}

function callValue(it: InterpreterCore, fn: Value, args: Value[], span: Span = it.statementSpan): Value {
  if (fn instanceof PhpClosure) return callClosure(it, fn, args);
  const target = staticCallableOf(it, fn);
  if (target !== undefined) return callModel(it, target.model, target.method, args, span, span, args.map(() => span));
  if (typeof fn === 'string') {
    const lower = fn.toLowerCase();
    const user = functionToCall(it, lower);
    if (user) return callUser(it, user, args, new Map(), undefined, fn);
    if (isBuiltin(lower)) return callBuiltin(lower, args, it.builtinContext);
  }
  return new Unknown('call of an unknown callable');
}

export function isCallable(it: InterpreterCore, v: Value): boolean {
  if (v instanceof PhpClosure) return true;
  const target = staticCallableOf(it, v);
  if (target !== undefined) return target.model.hasMethod(target.method);
  if (typeof v === 'string') return it.functions.has(v.toLowerCase()) || isBuiltin(v);
  return false;
}

/** Called by the library for prefix() callbacks and `$nested` callables. */
export function invoke(it: InterpreterCore, callable: Value, mask: MethodMask, via: RecordedSite): void {
  const saved = it.mask;
  it.mask = mask;
  it.via.push(via);
  it.viaSnapshot = it.via.slice();
  try {
    callValue(it, callable, []);
  } finally {
    it.via.pop();
    it.viaSnapshot = it.via.slice();
    it.mask = saved;
  }
}

/** Calls a closure with arguments (also used by the router for closure routes). */
export function callClosure(it: InterpreterCore, closure: PhpClosure, args: Value[]): Value {
  return callUser(it, closure, args, closure.captured, closure.arrowScope, '{closure}', it.closureRefs.get(closure));
}

function callUser(
  it: InterpreterCore,
  callee: { readonly node: PhpNode; readonly base: number; readonly source?: IncludedFile },
  args: Value[],
  captured: Map<string, Value>,
  arrowParent: Map<string, Value> | undefined,
  displayName: string,
  refs?: Map<string, Scope>,
  /** The call's argument expressions, when it has them: a by-reference parameter's last value is written back into its. */
  argNodes?: readonly (PhpNode | null)[],
): Value {
  if (++it.callDepth > MAX_CALL_DEPTH) {
    it.callDepth = 0;
    throw new EvaluationLimit('evaluation stopped: calls nest too deeply (endless recursion?)');
  }
  const fn = callee.node;
  const savedScope = it.scope;
  const savedBase = it.base;
  const savedSource = it.source;
  const savedLines = it.lines;
  const scope = new Scope(it.mask, false);
  scope.arrowParent = arrowParent;
  for (const [k, v] of captured) scope.vars.set(k, shareValue(v));
  for (const [k, home] of refs ?? []) scope.refs.set(k, home);
  const params: PhpNode[] = fn.arguments ?? [];
  let result: Value = null;
  const writeBacks: [PhpNode, Value][] = [];
  it.base = callee.base;
  // Its body lies in the file that declared it.
  if (callee.source !== savedSource) {
    it.source = callee.source;
    it.lines = undefined;
  }
  try {
    let required = 0;
    params.forEach((p, i) => {
      const pname = typeof p.name === 'string' ? p.name : p.name?.name;
      if (p.variadic) {
        scope.vars.set(pname, PhpArray.fromList(args.slice(i)));
        return;
      }
      if (i < args.length && args[i] !== undefined) scope.vars.set(pname, shareValue(args[i]));
      else if (p.value) {
        it.scope = scope;
        scope.vars.set(pname, it.eval(p.value));
      } else required = i + 1;
    });
    if (required > args.length) {
      throw new PhpFatal(
        'ArgumentCountError',
        `Too few arguments to function ${displayName}(), ${args.length} passed and ${params.some((p) => p.value) ? 'at least' : 'exactly'} ${params.filter((p) => !p.value && !p.variadic).length} expected`,
      );
    }
    it.scope = scope;
    if (fn.kind === 'arrowfunc') return it.eval(fn.body);
    const s = execList(it, fn.body?.children);
    result = s?.kind === 'return' ? s.value : null;
    // `function add(&$r) { $r['x'] = …; }`: the variable passed is the parameter (references are
    // followed this far: what the function left in it is what the caller has after the call).
    if (argNodes) {
      params.forEach((p, i) => {
        const arg = argNodes[i];
        if (p.byref && !p.variadic && arg && (arg.kind === 'variable' || arg.kind === 'offsetlookup')) writeBacks.push([arg, scope.vars.get(typeof p.name === 'string' ? p.name : p.name?.name) ?? null]);
      });
    }
  } finally {
    it.scope = savedScope;
    it.base = savedBase;
    it.source = savedSource;
    it.lines = savedLines;
    it.callDepth--;
  }
  for (const [arg, value] of writeBacks) assignTo(it, arg, value);
  return result;
}
