import type { PhpNode, Span } from '../php/ast';
import type { RecordedSite } from '../runtime/call-site';
import type { StaticClassModel } from '../runtime/class-model';
import { PhpFatal } from '../runtime/convert';
import { unitsOf } from '../runtime/work-meter';
import { PhpArray, PhpClosure, Unknown, shareValue, type Value } from '../runtime/values';
import { describeKind, type InterpreterCore } from './interpreter-core';
import type { RouteCall } from './interpreter-state';
import { evalArgs } from './call-arguments';

/*
 * Static calls and class names: `Class::method(...)` reaches a class through its model (the Route
 * library's), the file's namespace and imports (`use`) decide which class a name is.
 */

/** A static method named by a callable value: `'Route::any'`, `['Route', 'get']` (any case of the class's name). */
export interface StaticCallable {
  readonly model: StaticClassModel;
  readonly method: string;
}

/** The static method of a modelled class a callable value names, if it names one. */
export function staticCallableOf(it: InterpreterCore, fn: Value): StaticCallable | undefined {
  if (typeof fn === 'string') {
    const m = /^\\?([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)$/.exec(fn);
    const model = m ? it.staticClasses.get(m[1].toLowerCase()) : undefined;
    return model ? { model, method: m![2] } : undefined;
  }
  if (fn instanceof PhpArray && fn.size === 2) {
    const cls = fn.get(0);
    const method = fn.get(1);
    if (typeof cls === 'string' && typeof method === 'string') {
      const model = it.staticClasses.get(cls.replace(/^\\/, '').toLowerCase());
      if (model) return { model, method };
    }
  }
  return undefined;
}

/** `Route::name(...)` of a modelled class, whatever the case of its name. */
function isModelledStaticCall(it: InterpreterCore, node: PhpNode | null | undefined): boolean {
  return node?.kind === 'call' && node.what?.kind === 'staticlookup' && it.staticClasses.has(String(node.what.what?.name ?? '').replace(/^\\/, '').toLowerCase());
}

/** `$variable = Route::...(...)`. */
export function isFreshAssignment(it: InterpreterCore, node: PhpNode): boolean {
  return node.kind === 'assign' && node.operator === '=' && node.left?.kind === 'variable' && isModelledStaticCall(it, node.right);
}

export function describeCallee(node: PhpNode): string {
  if (node.kind === 'staticlookup') {
    const cls = node.what?.name ?? '?';
    const member = node.offset?.name ?? '?';
    return `${cls}::${typeof member === 'string' ? member : '?'}`;
  }
  return typeof node.name === 'string' ? node.name : describeKind(node.kind);
}

/** `use Route;`, `use Route as R;`: class names the file imports (functions and constants too, ignored). */
export function useClasses(it: InterpreterCore, node: PhpNode): void {
  if (node.type && node.type !== 'class') return;
  const prefix = typeof node.name === 'string' ? `${node.name.replace(/^\\/, '')}\\` : '';
  for (const item of node.items ?? []) {
    if (item.type && item.type !== 'class') continue;
    const full = `${prefix}${String(item.name ?? '').replace(/^\\/, '')}`;
    const alias = typeof item.alias?.name === 'string' ? item.alias.name : full.split('\\').pop() ?? full;
    it.classAliases.set(alias.toLowerCase(), full);
  }
}

/** Whether the file declares the class (`self`, `static` and `parent` name one it declares). */
function declaresClass(it: InterpreterCore, cls: string): boolean {
  if (['self', 'static', 'parent'].includes(cls.toLowerCase())) return true;
  if (!it.declaredClasses) {
    const names = new Set<string>();
    const visit = (nodes: readonly PhpNode[] | undefined, ns: string) => {
      for (const n of nodes ?? []) {
        if (n.kind === 'class' || n.kind === 'interface' || n.kind === 'trait' || n.kind === 'enum') {
          const name = typeof n.name === 'string' ? n.name : n.name?.name;
          if (typeof name === 'string') names.add((ns ? `${ns}\\${name}` : name).toLowerCase());
        } else if (n.kind === 'namespace') visit(n.children, typeof n.name === 'string' ? n.name : '');
      }
    };
    let ns = '';
    for (const st of it.parsed.statements) {
      for (const n of st.nodes) {
        if (n.kind === 'namespace' && !n.withBrackets) ns = typeof n.name === 'string' ? n.name : '';
        visit([n], ns);
      }
    }
    it.declaredClasses = names;
  }
  return it.declaredClasses.has(cls.toLowerCase());
}

/** A class name as PHP resolves it: fully qualified, through the file's imports, else in its namespace. */
function resolveClass(it: InterpreterCore, name: PhpNode | undefined): string {
  const raw = String(name?.name ?? '');
  if (raw.startsWith('\\') || name?.resolution === 'fqn') return raw.replace(/^\\/, '');
  const lower = raw.toLowerCase();
  if (['self', 'static', 'parent'].includes(lower)) return raw;
  if (lower.startsWith('namespace\\')) return it.namespace ? `${it.namespace}\\${raw.slice(10)}` : raw.slice(10);
  const [first, ...rest] = raw.split('\\');
  const imported = it.classAliases.get(first.toLowerCase());
  if (imported !== undefined) return [imported, ...rest].join('\\');
  return it.namespace ? `${it.namespace}\\${raw}` : raw;
}

export function callStatic(it: InterpreterCore, node: PhpNode, what: PhpNode): Value {
  const cls = resolveClass(it, what.what);
  const model = it.staticClasses.get(cls.toLowerCase());
  if (model === undefined && it.options.constantsComplete && !declaresClass(it, cls)) {
    // Run alone, nothing declares the class (the namespace's Route, say): PHP stops.
    evalArgs(it, node.arguments);
    throw new PhpFatal('Error', `Class "${cls}" not found`);
  }
  let method = what.offset?.kind === 'identifier' ? String(what.offset.name) : undefined;
  // `Route::$m(...)`: the method named by a variable.
  if (method === undefined && model !== undefined && what.offset && what.offset.kind !== 'identifier') {
    const named = it.eval(what.offset.kind === 'variable' && typeof what.offset.name === 'string' ? what.offset : what.offset);
    if (typeof named === 'string') method = named;
  }
  if (model === undefined || method === undefined) {
    evalArgs(it, node.arguments);
    // A class of the namespace (or an import) whose short name is a modelled class's: not that class.
    const shadowed = model === undefined && cls.includes('\\') ? it.staticClasses.get(cls.slice(cls.lastIndexOf('\\') + 1).toLowerCase()) : undefined;
    const elsewhere = shadowed
      ? ` (in namespace ${it.namespace || 'none'}, ${shadowed.name} is ${cls}, not the ${shadowed.name} library)`
      : it.options.dialect === 'other' && cls.toLowerCase() === 'route'
        ? " (the application's Route class is not the Route library)"
        : '';
    return new Unknown(`${describeCallee(what)}() is not evaluated${elsewhere}`, it.span(node));
  }
  const args = evalArgs(it, node.arguments, model.parameterNames(method));
  return callModel(it, model, method, args, it.span(node), it.span(what.offset), (node.arguments ?? []).map((a: PhpNode | null) => it.span(a ?? node)));
}

/**
 * A call of a modelled class's method (the Route library's): `Route::any(...)` as written, or
 * through a callable (`call_user_func('Route::any', ...)`, `['Route', 'get']`, `$f = 'Route::post'; $f(...)`).
 */
export function callModel(it: InterpreterCore, model: StaticClassModel, method: string, args: Value[], span: Span, nameSpan: Span, argSpans: Span[]): Value {
  const lower = method.toLowerCase();
  const site: RecordedSite = { method: lower, written: method, placed: { method: lower, written: method, span, nameSpan, argSpans }, anchor: it.recording };
  // The call keeps its arguments as they were: an array passed is held by the call too, and a
  // later write to the variable it came from writes a copy (`Route::map($route)` not assigned back).
  for (const a of args) if (a !== undefined) shareValue(a);
  const call: RouteCall = { site, args, mask: it.mask, conditional: it.conditional, via: it.viaSnapshot };
  it.calls.push(call);
  if (!model.isMainCall(lower)) it.otherCalls.push(call);
  const nestedAt = model.callbackParameter(lower);
  if (nestedAt !== undefined && args[nestedAt] instanceof PhpClosure) it.nestedClosure = true;
  // Skipped named arguments take their defaults.
  const filled = args.map((a) => (a === undefined ? (null as Value) : a));
  // The library reads its arguments whole (map() copies and walks `$route`).
  for (const a of filled) it.charge(unitsOf(a));
  return model.callStatic(method, filled, site, it.mask);
}
