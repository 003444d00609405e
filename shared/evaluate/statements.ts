import type { PhpNode } from '../php/ast';
import { PhpFatal, toInt } from '../runtime/convert';
import { EvaluationLimit } from '../runtime/limits';
import { Diverge } from '../library/route-library';
import { unitsOf } from '../runtime/work-meter';
import { PerMethod, PhpArray, Unknown, shareValue, type Value } from '../runtime/values';
import { ExitSignal, type InterpreterCore, type Signal } from './interpreter-core';
import { Scope } from './scope';
import { bothBranches, closeContinuations, conditionPlace, inBranch } from './branches';
import { loose, truth } from './operators';
import { setVariable } from './variables';
import { assignFresh, assignTo, unset, writeBack } from './assignments';
import { isFreshAssignment, useClasses } from './static-calls';

/* Statements: control flow (if, loops, switch, try), declarations, and the other statements PHP has. */

/** PHP's own exception classes and their parents (names compared in lower case, as PHP does). */
const THROWABLE_PARENTS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    Error: 'Throwable', Exception: 'Throwable',
    TypeError: 'Error', ArgumentCountError: 'TypeError', ValueError: 'Error', ArithmeticError: 'Error', DivisionByZeroError: 'ArithmeticError',
    AssertionError: 'Error', UnhandledMatchError: 'Error', CompileError: 'Error', ParseError: 'CompileError',
    ErrorException: 'Exception', JsonException: 'Exception', LogicException: 'Exception', RuntimeException: 'Exception',
    BadFunctionCallException: 'LogicException', BadMethodCallException: 'BadFunctionCallException', DomainException: 'LogicException',
    InvalidArgumentException: 'LogicException', LengthException: 'LogicException', OutOfRangeException: 'LogicException',
    OutOfBoundsException: 'RuntimeException', OverflowException: 'RuntimeException', RangeException: 'RuntimeException',
    UnderflowException: 'RuntimeException', UnexpectedValueException: 'RuntimeException',
  }).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]),
);

/** Whether `catch (type)` takes an exception of class `thrown`; undefined for a class the file declares (its parents are not known). */
function catchesClass(type: string, thrown: string): boolean | undefined {
  const wanted = type.replace(/^\\/, '').toLowerCase();
  let cls = thrown.replace(/^\\/, '').toLowerCase();
  if (wanted === 'throwable' || wanted === cls) return true;
  if (!THROWABLE_PARENTS.has(cls)) return undefined;
  for (let parent = THROWABLE_PARENTS.get(cls); parent !== undefined; parent = THROWABLE_PARENTS.get(cls)) {
    if (parent === wanted) return true;
    cls = parent;
  }
  return false;
}

export function execList(it: InterpreterCore, nodes: PhpNode[] | null | undefined): Signal {
  if (!nodes) return undefined;
  const mark = it.continuations;
  try {
    for (const n of nodes) {
      const s = it.exec(n);
      if (s) return s;
    }
    return undefined;
  } finally {
    closeContinuations(it, mark);
  }
}

export function execNode(it: InterpreterCore, node: PhpNode): Signal {
  switch (node.kind) {
    case 'expressionstatement':
      if (node.expression && isFreshAssignment(it, node.expression)) assignFresh(it, node.expression);
      else if (node.expression) it.eval(node.expression);
      return undefined;
    case 'echo':
    case 'print':
      for (const e of node.expressions ?? []) it.eval(e);
      return undefined;
    case 'usegroup':
      useClasses(it, node);
      return undefined;
    case 'inline':
    case 'useitem':
    case 'class':
    case 'interface':
    case 'trait':
    case 'enum':
    case 'noop':
    case 'nop':
      return undefined;
    case 'namespace': {
      // `namespace App;` names the namespace of what follows; `namespace App { ... }` of its block.
      const name = typeof node.name === 'string' ? node.name.replace(/^\\/, '') : '';
      it.classAliases.clear();
      if (!node.withBrackets) {
        it.namespace = name;
        return execList(it, node.children);
      }
      const outer = it.namespace;
      it.namespace = name;
      try {
        return execList(it, node.children);
      } finally {
        it.namespace = outer;
      }
    }
    case 'block':
    case 'program':
      return execList(it, node.children);
    case 'declare':
      return execList(it, node.children);
    case 'if':
      return execIf(it, node);
    case 'foreach':
      return execForeach(it, node);
    case 'for':
      return execFor(it, node);
    case 'while':
      return execWhile(it, node, false);
    case 'do':
      return execWhile(it, node, true);
    case 'switch':
      return execSwitch(it, node);
    case 'return':
      return { kind: 'return', value: node.expr ? it.eval(node.expr) : null };
    case 'break':
    case 'continue': {
      const levels = node.level ? toInt(it.eval(node.level)) : 1;
      return { kind: node.kind, levels: typeof levels === 'number' && levels > 0 ? levels : 1 };
    }
    case 'function':
      if (node.name && typeof node.name.name === 'string') {
        it.functions.set(node.name.name.toLowerCase(), { node, base: it.base, source: it.source });
      }
      return undefined;
    case 'constantstatement':
      for (const c of node.constants ?? []) {
        const name = typeof c.name === 'string' ? c.name : c.name?.name;
        if (typeof name === 'string') it.constants.set(name, it.eval(c.value));
      }
      return undefined;
    case 'global':
      for (const v of node.items ?? []) if (typeof v.name === 'string') it.scope.globalNames.add(v.name);
      return undefined;
    case 'static':
      for (const v of node.variables ?? []) {
        const target = v.variable ?? v;
        if (typeof target.name !== 'string') continue;
        // One variable per declaration, kept from call to call; the local name refers to it.
        let kept = it.statics.get(v);
        if (!kept) {
          kept = new Scope(it.mask, false);
          kept.vars.set(target.name, v.defaultValue ? it.eval(v.defaultValue) : null);
          it.statics.set(v, kept);
        }
        it.scope.refs.set(target.name, kept);
      }
      return undefined;
    case 'unset':
      for (const v of node.variables ?? []) unset(it, v);
      return undefined;
    case 'try': {
      let signal: Signal;
      try {
        signal = it.exec(node.body);
      } catch (e) {
        if (!(e instanceof PhpFatal)) throw e;
        const handler = catchClauseFor(node.catches ?? [], e.phpClass);
        if (!handler) throw e;
        // The exception object itself is not modelled: its methods and properties are unknown.
        if (handler.variable && typeof handler.variable.name === 'string') setVariable(it, handler.variable.name, new Unknown(`the caught ${e.phpClass}`));
        signal = it.exec(handler.body);
      } finally {
        if (node.always) it.exec(node.always);
      }
      return signal;
    }
    case 'throw': {
      // `throw new InvalidArgumentException('msg')`: PHP reports that class and message.
      const what: PhpNode = node.what;
      let phpClass = 'Exception';
      let message = 'an exception is thrown here';
      if (what?.kind === 'new' && what.what?.kind === 'name' && typeof what.what.name === 'string') {
        phpClass = what.what.name.replace(/^\\/, '');
        const first: PhpNode | undefined = what.arguments?.[0];
        const m = first ? it.eval(first) : '';
        message = typeof m === 'string' ? m : m instanceof Unknown ? `‹${m.reason}›` : String(m);
      } else it.eval(what);
      throw Object.assign(new PhpFatal(phpClass, message), { span: it.span(node) });
    }
    case 'halt':
      throw new ExitSignal(it.span(node));
    case 'goto':
      // Where a goto lands is not modelled: skipping it would silently analyse code PHP may never run (or run forever).
      throw new EvaluationLimit('evaluation stopped: goto is not evaluated, so routes after this point are not known');
    default:
      it.problem('unsupported', `${node.kind} statements are not evaluated`, it.span(node));
      return undefined;
  }
}

/**
 * The first catch clause that takes an exception of `thrown` class, if one does. Whether one
 * takes a class the file declares itself cannot be known (class declarations are not
 * evaluated): the evaluation stops there rather than guess.
 */
function catchClauseFor(catches: PhpNode[], thrown: string): PhpNode | undefined {
  for (const clause of catches) {
    for (const type of clause.what ?? []) {
      const name = typeof type?.name === 'string' ? type.name : '';
      const takes = catchesClass(name, thrown);
      if (takes === undefined) throw new EvaluationLimit(`evaluation stopped: whether catch (${name}) takes a ${thrown} cannot be known (class declarations are not evaluated): routes after this point are not known`);
      if (takes) return clause;
    }
  }
  return undefined;
}

function execIf(it: InterpreterCore, node: PhpNode): Signal {
  const test = truth(it, it.eval(node.test));
  if (test === true) return it.exec(node.body);
  if (test === false) return it.exec(node.alternate);
  it.problem('unknown-value', `the condition cannot be decided statically (${unknownReason(it, node.test)}): both branches are analysed`, it.span(node.test));
  const id = `c${conditionPlace(it.span(node))}`;
  return bothBranches(it, 
    () => inBranch(it, `${id}:0`, () => it.exec(node.body)),
    () => inBranch(it, `${id}:1`, () => it.exec(node.alternate)),
    [`${id}:0`, `${id}:1`],
    it.span(node.test),
  );
}

function unknownReason(it: InterpreterCore, node: PhpNode): string {
  const v = peek(it, node);
  return v instanceof Unknown ? v.reason : 'unknown value';
}

/** Re-evaluates an expression without warnings or problems, for messages. */
function peek(it: InterpreterCore, node: PhpNode): Value {
  it.silenced++;
  try {
    return it.eval(node);
  } catch {
    return new Unknown('unknown value');
  } finally {
    it.silenced--;
  }
}

function loopSignal(s: Signal): 'break' | 'continue' | Signal {
  if (!s) return undefined;
  if (s.kind === 'return') return s;
  if (s.levels > 1) return { kind: s.kind, levels: s.levels - 1 };
  return s.kind;
}

function execForeach(it: InterpreterCore, node: PhpNode): Signal {
  const source = it.eval(node.source);
  if (!(source instanceof PhpArray)) {
    if (source instanceof PerMethod) throw new Diverge('foreach over a value that differs by request method');
    const reason = source instanceof Unknown ? source.reason : `foreach over ${typeof source}`;
    if (!(source instanceof Unknown)) {
      it.warn(`foreach() argument must be of type array|object, ${source === null ? 'null' : typeof source} given`);
      return undefined;
    }
    it.problem('unknown-value', `the loop's array cannot be known statically (${reason}): its body is analysed once`, it.span(node.source));
    it.conditionalDepth++;
    try {
      if (node.key) assignTo(it, node.key, new Unknown(reason));
      if (node.value) assignTo(it, node.value, new Unknown(reason));
      const s = loopSignal(it.exec(node.body));
      return typeof s === 'object' ? s : undefined;
    } finally {
      it.conditionalDepth--;
    }
  }
  it.charge(unitsOf(source));
  // `foreach ($list as &$item)`: what the body leaves in $item is written back to $list.
  const byReference = node.value?.byref === true && node.value.kind === 'variable' && node.source?.kind === 'variable';
  for (const [k, v] of [...source.entries()]) {
    it.tick();
    if (node.key) assignTo(it, node.key, k);
    if (node.value) assignTo(it, node.value, shareValue(v));
    const s = loopSignal(it.exec(node.body));
    if (byReference) writeBack(it, node.source, k, node.value);
    if (s === 'break') break;
    if (typeof s === 'object') return s;
  }
  return undefined;
}

function execFor(it: InterpreterCore, node: PhpNode): Signal {
  for (const e of node.init ?? []) it.eval(e);
  for (;;) {
    it.tick();
    let ok: boolean | undefined = true;
    for (const e of node.test ?? []) ok = truth(it, it.eval(e));
    if (ok === false) return undefined;
    if (ok === undefined) return undecidedLoopBody(it, node);
    const s = loopSignal(it.exec(node.body));
    if (s === 'break') return undefined;
    if (typeof s === 'object') return s;
    for (const e of node.increment ?? []) it.eval(e);
  }
}

function execWhile(it: InterpreterCore, node: PhpNode, doWhile: boolean): Signal {
  let first = doWhile;
  for (;;) {
    it.tick();
    if (!first) {
      const ok = truth(it, it.eval(node.test));
      if (ok === false) return undefined;
      if (ok === undefined) return undecidedLoopBody(it, node);
    }
    first = false;
    const s = loopSignal(it.exec(node.body));
    if (s === 'break') return undefined;
    if (typeof s === 'object') return s;
  }
}

function undecidedLoopBody(it: InterpreterCore, node: PhpNode): Signal {
  it.problem('unknown-value', 'the loop condition cannot be decided statically: its body is analysed once', it.span(node));
  it.conditionalDepth++;
  try {
    const s = loopSignal(it.exec(node.body));
    return typeof s === 'object' ? s : undefined;
  } finally {
    it.conditionalDepth--;
  }
}

function execSwitch(it: InterpreterCore, node: PhpNode): Signal {
  const test = it.eval(node.test);
  const cases: PhpNode[] = node.body?.children ?? [];
  let start = -1;
  let undecided = false;
  for (let i = 0; i < cases.length && start < 0; i++) {
    if (!cases[i].test) continue;
    const eq = loose(it, test, it.eval(cases[i].test));
    if (eq === true) start = i;
    if (eq === undefined) undecided = true;
  }
  if (start < 0 && !undecided) start = cases.findIndex((c) => !c.test);
  if (undecided) {
    it.conditionalDepth++;
    try {
      const id = `s${conditionPlace(it.span(node))}`;
      cases.forEach((c, i) => inBranch(it, `${id}:${i}`, () => execList(it, c.body?.children ?? (c.body ? [c.body] : []))));
    } finally {
      it.conditionalDepth--;
    }
    return undefined;
  }
  if (start < 0) return undefined;
  for (let i = start; i < cases.length; i++) {
    const body = cases[i].body;
    const s = loopSignal(body?.kind === 'block' ? execList(it, body.children) : it.exec(body));
    if (s === 'break' || s === 'continue') return undefined;
    if (typeof s === 'object') return s;
  }
  return undefined;
}
