import type { PhpNode } from '../php/ast';
import { PhpFatal, floatToString, sameValue, strictEquals, toBool, toInt, toNumber, toPhpString } from '../runtime/convert';
import { unitsOf } from '../runtime/work-meter';
import { parseNumber } from '../runtime/numbers';
import { PerMethod, PhpArray, PhpClosure, PhpFloat, Unknown, normalizeStringKey, type Value } from '../runtime/values';
import { ExitSignal, describeKind, type InterpreterCore } from './interpreter-core';
import { binary, binaryOne, concat, concatAll, lift, orUnknown, truth } from './operators';
import { readVariable } from './variables';
import { assignByReference, evalArray, evalAssign, evalIncrement, evalIsset, quietRead, readElement, readOffset } from './assignments';
import { constant, magic } from './constant-lookup';
import { describeCallee } from './static-calls';
import { evalCall, makeClosure } from './calls';
import { isPhp8 } from '../runtime/php-version';

/* Expressions: each kind of node to its handler; literals, operators' nodes, casts and match here. */

export function evalNode(it: InterpreterCore, node: PhpNode): Value {
  switch (node.kind) {
    case 'string':
    case 'nowdoc':
      return node.value as string;
    case 'encapsed':
      return evalEncapsed(it, node);
    case 'number':
      return parseNumber(String(node.value));
    case 'boolean':
      return Boolean(node.value);
    case 'nullkeyword':
      return null;
    case 'name':
      return constant(it, String(node.name), node);
    case 'magic':
      return magic(it, node);
    case 'variable':
      return readVariable(it, node);
    case 'offsetlookup':
      return readOffset(it, node, false);
    case 'assign':
      return evalAssign(it, node);
    case 'assignref':
      return assignByReference(it, node);
    case 'call':
      return evalCall(it, node);
    case 'array':
      return evalArray(it, node);
    case 'closure':
      return makeClosure(it, node);
    case 'arrowfunc':
      return new PhpClosure(node, it.base, new Map(), it.scope.vars, it.source);
    case 'bin':
      return evalBinary(it, node);
    case 'unary':
      return evalUnary(it, node);
    case 'cast':
      return evalCast(it, node);
    case 'retif': {
      const test = it.eval(node.test);
      const t = truth(it, test);
      if (t === true) return node.trueExpr ? it.eval(node.trueExpr) : test;
      if (t === false) return it.eval(node.falseExpr);
      const a = node.trueExpr ? it.eval(node.trueExpr) : test;
      const b = it.eval(node.falseExpr);
      return sameValue(a, b, it) ? a : new Unknown(`depends on a condition that cannot be decided (line ${it.lineAt(it.span(node).start)})`, it.span(node));
    }
    case 'isset':
      return evalIsset(it, node);
    case 'empty': {
      const v = quietRead(it, node.expression);
      const t = truth(it, v);
      return t === undefined ? new Unknown('empty() of an unknown value') : !t;
    }
    case 'exit':
      if (node.expression) it.eval(node.expression);
      throw new ExitSignal(it.span(node));
    case 'silent': {
      it.silenced++;
      try {
        return it.eval(node.expr);
      } finally {
        it.silenced--;
      }
    }
    case 'pre':
    case 'post':
      return evalIncrement(it, node);
    case 'match':
      return evalMatch(it, node);
    case 'staticlookup':
      return new Unknown(`static property or class constant ${describeCallee(node)} is not evaluated`, it.span(node));
    case 'parenthesis':
      return it.eval(node.inner);
    case 'include':
      return it.includes.include(node, it.eval(node.target), it.span(node));
    case 'propertylookup':
    case 'nullsafepropertylookup':
      // `$row->slug` (a database row), `$this->uri` (the router that includes routes.php).
      return new Unknown(node.offset?.kind === 'identifier' ? `the property ->${String(node.offset.name)} is not evaluated (objects are not)` : 'property access is not evaluated', it.span(node));
    default:
      return new Unknown(`${describeKind(node.kind)} is not evaluated`, it.span(node));
  }
}

function evalEncapsed(it: InterpreterCore, node: PhpNode): Value {
  if (node.type === 'shell') return new Unknown('shell commands are never run', it.span(node));
  let out = '';
  let unknown: Unknown | undefined;
  const parts: Value[] = [];
  for (const part of node.value as PhpNode[]) {
    const expr: PhpNode = part.kind === 'encapsedpart' ? part.expression : part;
    const v = part.syntax === 'simple' && expr?.kind === 'offsetlookup' && expr.offset ? simpleOffset(it, expr) : it.eval(expr);
    if (v instanceof PerMethod) parts.push(v);
    else parts.push(v);
  }
  if (parts.some((p) => p instanceof PerMethod)) return lift(it, parts, (vals) => concatAll(it, vals));
  for (const v of parts) {
    const s = toPhpString(v, it);
    if (s instanceof Unknown) unknown ??= s;
    else out = concat(it, out, s, 'string interpolation');
  }
  return unknown ?? out;
}

/**
 * `"$a[k]"`, `"$a[007]"`: in simple interpolation the offset is a bare word or a number taken as
 * written, so both are string keys unless canonical integers (`"$a[7]"` reads `$a[7]`).
 */
function simpleOffset(it: InterpreterCore, node: PhpNode): Value {
  const off: PhpNode = node.offset;
  const key: Value = off.kind === 'identifier' ? String(off.name) : off.kind === 'number' ? normalizeStringKey(String(off.value)) : it.eval(off);
  const container = it.eval(node.what);
  return lift(it, [container, key], ([c, k]) => readElement(it, c, k, false));
}

/**
 * `&&` (`decisive` false) and `||` (`decisive` true) over three-valued truth: the left operand
 * decides alone when it is the decisive value; an unknown side leaves the result unknown unless
 * the other side is decisive.
 */
function shortCircuit(it: InterpreterCore, node: PhpNode, decisive: boolean): Value {
  const l = truth(it, it.eval(node.left));
  if (l === decisive) return decisive;
  const r = truth(it, it.eval(node.right));
  if (l === !decisive) return r === undefined ? new Unknown('unknown condition') : r;
  return r === decisive ? decisive : new Unknown('unknown condition');
}

function evalBinary(it: InterpreterCore, node: PhpNode): Value {
  const type: string = node.type;
  switch (type) {
    case '&&':
    case 'and':
      return shortCircuit(it, node, false);
    case '||':
    case 'or':
      return shortCircuit(it, node, true);
    case '??': {
      const l = quietRead(it, node.left);
      if (l instanceof Unknown) return l;
      return lift(it, [l], ([x]) => (x !== null ? x : it.eval(node.right)));
    }
    case 'instanceof':
      return new Unknown('instanceof is not evaluated');
    case '.':
    case '+':
    case '-':
      if (isPhp8(it.options.phpVersion) && mixesConcatAndSums(node)) return php8Concatenation(it, node);
      return binary(it, type, it.eval(node.left), it.eval(node.right));
    default:
      return binary(it, type, it.eval(node.left), it.eval(node.right));
  }
}

/** `.` and `+`/`-` unparenthesized in one chain, which php-parser groups left to right as PHP 7 did. */
function mixesConcatAndSums(node: PhpNode): boolean {
  let concat = false;
  let sum = false;
  for (let n: PhpNode = node; n.kind === 'bin' && CHAIN.has(n.type) && !n.parenthesizedExpression; n = n.left) {
    if (n.type === '.') concat = true;
    else sum = true;
  }
  return concat && sum;
}

const CHAIN = new Set(['.', '+', '-']);

/**
 * PHP 8 gives `+` and `-` precedence over `.` (`'v' . $v + 1` is `'v' . ($v + 1)`; PHP 7 read
 * `('v' . $v) + 1`): the chain's operands are evaluated left to right, then each run of sums,
 * then the concatenation.
 */
function php8Concatenation(it: InterpreterCore, node: PhpNode): Value {
  const operands: PhpNode[] = [];
  const operators: string[] = [];
  let n: PhpNode = node;
  for (; n.kind === 'bin' && CHAIN.has(n.type) && !n.parenthesizedExpression; n = n.left) {
    operands.unshift(n.right);
    operators.unshift(n.type);
  }
  operands.unshift(n);
  const values = operands.map((o) => it.eval(o));
  const terms: Value[] = [values[0]];
  operators.forEach((op, i) => {
    if (op === '.') terms.push(values[i + 1]);
    else terms[terms.length - 1] = binary(it, op, terms[terms.length - 1], values[i + 1]);
  });
  return terms.slice(1).reduce((acc, t) => binary(it, '.', acc, t), terms[0]);
}

function evalUnary(it: InterpreterCore, node: PhpNode): Value {
  const v = it.eval(node.what);
  return lift(it, [v], ([x]) => {
    switch (node.type) {
      case '!': {
        const t = toBool(x);
        return t === undefined ? new Unknown('negation of an unknown value') : !t;
      }
      case '-':
        return binaryOne(it, '*', x, -1);
      case '+':
        return binaryOne(it, '*', x, 1);
      case '~': {
        const n = toInt(x);
        return typeof n === 'number' ? ~n : n;
      }
      default:
        return new Unknown(`operator ${node.type} is not evaluated`);
    }
  });
}

function evalCast(it: InterpreterCore, node: PhpNode): Value {
  const v = it.eval(node.expr ?? node.what);
  return lift(it, [v], ([x]) => {
    if (x instanceof Unknown) return x;
    // A cast reads a string whole (numeric prefix) and copies an array.
    it.charge(unitsOf(x));
    switch (node.type) {
      case 'int':
        return toInt(x);
      case 'float': {
        const n = toNumber(typeof x === 'string' ? x.replace(/^(\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?).*$/s, '$1') || '0' : x, { warn: () => undefined });
        return n instanceof Unknown ? n : new PhpFloat(n instanceof PhpFloat ? n.value : n);
      }
      case 'string':
        return toPhpString(x, it);
      case 'bool':
      case 'boolean':
        return toBool(x) ?? new Unknown('unknown value');
      case 'array':
        return x instanceof PhpArray ? x : x === null ? new PhpArray() : PhpArray.fromList([x]);
      case 'unset':
        return null;
      default:
        return new Unknown(`(${node.type}) casts are not evaluated`);
    }
  });
}

function evalMatch(it: InterpreterCore, node: PhpNode): Value {
  const cond = it.eval(node.cond);
  for (const arm of node.arms ?? []) {
    if (!arm.conds) return it.eval(arm.body);
    for (const c of arm.conds) {
      const eq = lift(it, [cond, it.eval(c)], ([a, b]) => orUnknown(strictEquals(a, b, it)));
      const t = truth(it, eq);
      if (t === undefined) return new Unknown('match on an unknown value', it.span(node));
      if (t) return it.eval(arm.body);
    }
  }
  throw new PhpFatal('UnhandledMatchError', `Unhandled match case ${describeMatch(cond)}`);
}

function describeMatch(v: Value): string {
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'number') return String(v);
  if (v instanceof PhpFloat) return floatToString(v.value);
  return 'of type ' + (v === null ? 'null' : typeof v);
}
